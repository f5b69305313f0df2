import type { CopyResult } from '../services/clipboard';

/** What commands reach outside the store through, given by app/ (tests give their own). */
export interface UiEffects {
  /** Copies to the clipboard where the user is (app/clipboard.ts); says how, or why it could not. */
  readonly copy: (text: string) => Promise<CopyResult>;
}
