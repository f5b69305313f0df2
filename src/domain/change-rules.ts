/**
 * The change rules, one table: each has a code, ONE message and the field it concerns (a script's
 * JSON `path`). The screens (a key's disabled reason, a dialog's confirm, the bulk preview) show the
 * message, the headless commands print it and map the field to its path; nobody matches sentences.
 * A command refuses before it prints any quote: a refusal comes first and alone.
 */

export type ChangeOp = 'create' | 'trial' | 'extend' | 'upgrade' | 'unsuspend' | 'delete';

/** The field a rule concerns, as a script names it (`path` of its JSON error); null: the change itself. */
type RuleField = 'connections' | 'months' | 'read-only' | null;

const TABLE = {
  readOnly: { message: 'Read-only mode (--read-only): changes are disabled', field: 'read-only' },
  trialExtend: { message: 'Trial lines cannot be extended', field: null },
  trialUpgrade: { message: 'Trial lines have one connection', field: null },
  balanceTooLow: { message: 'Balance too low', field: null },
  belowMinimum: { message: "Balance below the package's minimum", field: null },
  sameConnections: { message: 'Choose a different number of connections', field: 'connections' },
  unknownOutcome: {
    message: 'An earlier change to this line has an unknown outcome: it is checked first',
    field: null,
  },
  heldElsewhere: { message: 'This line is held for another change', field: null },
  costUnknown: { message: 'Some costs are unknown', field: null },
  totalExceeds: { message: 'The total exceeds the balance', field: null },
  balanceUnknown: { message: 'The balance is not known yet', field: null },
  nothingToDo: { message: 'Nothing to do for these lines', field: null },
} as const satisfies Record<string, { readonly message: string; readonly field: RuleField }>;

export type RuleCode = keyof typeof TABLE;

/** Why a change is refused: the rule's code, its message (with its particulars), its field. */
export interface Refusal {
  readonly code: RuleCode;
  readonly message: string;
  readonly field: RuleField;
}

/** Every rule's message by code, for the places that only say it. */
export const RULES: { readonly [K in RuleCode]: (typeof TABLE)[K]['message'] } = Object.fromEntries(
  Object.entries(TABLE).map(([k, v]) => [k, v.message]),
) as { readonly [K in RuleCode]: (typeof TABLE)[K]['message'] };

/** The refusal of a rule; `message` replaces the table's where the rule says its particulars. */
export const refusal = (code: RuleCode, message: string = TABLE[code].message): Refusal => ({
  code,
  message,
  field: TABLE[code].field,
});

/** We read `min_balance` as "the balance must be at least the larger of the cost and it". */
export const belowMinimum = (minimum: string): string => `${RULES.belowMinimum} of ${minimum}`;

/** What the line itself rules out for an operation, whatever it would cost. */
export function lineRefusal(
  op: ChangeOp,
  line: { readonly is_trial: boolean } | null | undefined,
): Refusal | null {
  if (!line?.is_trial) return null;
  if (op === 'extend') return refusal('trialExtend');
  if (op === 'upgrade') return refusal('trialUpgrade');
  return null;
}

/** The same, as the sentence a key's disabled reason shows. */
export const lineRule = (
  op: ChangeOp,
  line: { readonly is_trial: boolean } | null | undefined,
): string | null => lineRefusal(op, line)?.message ?? null;
