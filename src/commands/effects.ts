/** How a copy went: `via` says where the text went, `why` why it could not go anywhere. */
export type CopyResult =
  | { readonly ok: true; readonly via: string }
  | { readonly ok: false; readonly why: string };

/** What commands reach outside the store through, given by app/ (tests give their own). */
export interface UiEffects {
  /** Copies to the clipboard where the user is (app/clipboard.ts); says how, or why it could not. */
  readonly copy: (text: string) => Promise<CopyResult>;
}
