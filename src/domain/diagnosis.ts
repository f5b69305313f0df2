import type { ServerDate } from '../api/contract';
import { expiryText } from './format';
import { DAY_MS } from './pricing';

/** A change that would fix what is wrong; the UI names its key from the command table. */
export type Fix = 'unsuspend' | 'extend' | 'newLine';

export interface Diagnosis {
  /** Whether the line lets its customer watch now. */
  readonly works: boolean | null;
  /** Why, in words: "suspended and expired 57 days ago", "works; but expires today". */
  readonly why: string;
  readonly fixes: readonly Fix[];
}

interface Diagnosable {
  readonly enabled: boolean;
  readonly is_trial: boolean;
  readonly exp_date: ServerDate | null;
}

/**
 * Why a line does or does not work now, for support staff: every reason at once (a suspended line
 * can be expired too), each with the change that fixes it. A trial cannot be extended: a new line
 * replaces it. An expiry that could not be read proves nothing either way.
 */
export function diagnose(line: Diagnosable, nowMs: number): Diagnosis {
  const reasons: string[] = [];
  const fixes: Fix[] = [];
  if (!line.enabled) {
    reasons.push('suspended');
    fixes.push('unsuspend');
  }
  const exp = line.exp_date;
  const unreadable = exp !== null && exp.ms === null;
  const expired = exp?.ms != null && exp.ms <= nowMs;
  if (expired) {
    reasons.push(`expired ${expiryText(exp, nowMs)}`);
    fixes.push(line.is_trial ? 'newLine' : 'extend');
  }
  if (unreadable) {
    return {
      works: null,
      why: `${reasons.length ? `${reasons.join(' and ')}; ` : ''}the expiry "${exp.raw}" could not be read: check it on the server`,
      fixes,
    };
  }
  const trial = line.is_trial ? 'trial line (one connection; cannot be extended or upgraded)' : '';
  if (reasons.length)
    return { works: false, why: [reasons.join(' and '), trial].filter(Boolean).join('; '), fixes };
  const soon = exp?.ms != null && exp.ms - nowMs <= 2 * DAY_MS;
  const when = exp === null ? 'never expires' : `expires ${expiryText(exp, nowMs)}`;
  return {
    works: true,
    why: ['works', soon ? `but ${when}` : when, trial].filter(Boolean).join('; '),
    fixes: soon ? [line.is_trial ? 'newLine' : 'extend'] : [],
  };
}
