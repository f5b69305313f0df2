import { credits, creditsText } from '../domain/format';

/**
 * The balance as every place that shows it has it (store/selectors.ts `selectBalanceShown`): the
 * last one read (or a change's reply), and whether it is still the service's word. Stale: a read of
 * it failed since (or one is on its way after that failure), or the service cannot be reached (a job
 * paused for it); `asOf` is when it was last the service's word.
 */
export interface BalanceShown {
  readonly credits: number;
  readonly stale: boolean;
  /** When the service last said it (epoch ms), or null when not known. */
  readonly asOf: number | null;
}

/**
 * The one rule for judging by the balance (what is affordable, what it covers, a runway, a total
 * against it): the balance shown while it is the service's word, else undefined (not known: said so,
 * never judged by an older balance). store/selectors.ts `selectBalanceToJudge` is this over the store,
 * and `isUnjudged` (a balance shown that this gives nothing from) the places that say so ask.
 */
export const balanceToJudge = (b: BalanceShown | undefined): number | undefined =>
  b && !b.stale ? b.credits : undefined;

/** "16:20": the local time of day, to the minute. */
export const clockText = (ms: number): string => {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

/** "stale, as of 16:20": said beside a balance that is not the service's word any more. */
export const staleText = (b: BalanceShown): string =>
  b.asOf === null ? 'stale' : `stale, as of ${clockText(b.asOf)}`;

/** "1,000 credits", or "1,000 credits (stale, as of 16:20)": the header's and the account's words. */
export const balanceText = (b: BalanceShown): string =>
  `${credits(b.credits)}${b.stale ? ` (${staleText(b)})` : ''}`;

/** "1,000 credits (stale)": the same in fewer cells, for a narrow header. */
export const balanceShortText = (b: BalanceShown): string =>
  `${credits(b.credits)}${b.stale ? ' (stale)' : ''}`;

/** "1,000 now", or "1,000 (stale, as of 16:20)": a dialog's balance before a change. */
export const balanceNowText = (b: BalanceShown): string =>
  `${creditsText(b.credits)} ${b.stale ? `(${staleText(b)})` : 'now'}`;
