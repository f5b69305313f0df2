/**
 * The confirm rules, worded once. The screens (a key's disabled reason, a dialog's confirm, the bulk
 * preview) and the headless commands refuse with these sentences, and a command refuses before it
 * prints any quote: a refusal comes first and alone.
 */
import type { ChangeOp } from './bulk';

export const RULES = {
  readOnly: 'Read-only mode (--read-only): changes are disabled',
  trialExtend: 'Trial lines cannot be extended',
  trialUpgrade: 'Trial lines have one connection',
  balanceTooLow: 'Balance too low',
  sameConnections: 'Choose a different number of connections',
  unknownOutcome: 'An earlier change to this line has an unknown outcome: it is checked first',
  totalExceeds: 'The total exceeds the balance',
  nothingToDo: 'Nothing to do for these lines',
} as const;

/** We read `min_balance` as "the balance must be at least the larger of the cost and it". */
export const belowMinimum = (minimum: string): string => `Balance below the package's minimum of ${minimum}`;

/** What the line itself rules out for an operation, whatever it would cost. */
export function lineRule(
  op: ChangeOp,
  line: { readonly is_trial: boolean } | null | undefined,
): string | null {
  if (!line?.is_trial) return null;
  if (op === 'extend') return RULES.trialExtend;
  if (op === 'upgrade') return RULES.trialUpgrade;
  return null;
}
