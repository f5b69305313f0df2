/**
 * The outcome of a change, typed: what each line of a job came to, and for a single change what
 * both front-ends say of it (the dialog shows the sentence, a command prints it).
 */
import type { Line, LineListItem } from '../../api/contract';
import { type BulkJob, type BulkLine, checkedNotApplied, SPENDS } from '../../domain/bulk';
import { credits } from '../../domain/format';
import { isNotYet } from '../../domain/proof';
import { describeError } from '../describe-error';

export type Outcome =
  | 'applied'
  | 'not applied'
  | 'refused'
  | 'unknown'
  | 'skipped'
  | 'cancelled'
  | 'not sent';

export function outcomeOf(l: BulkLine): Outcome {
  if (l.state === 'done') return 'applied';
  if (l.state === 'unknown' || l.state === 'sending') return 'unknown';
  if (l.state === 'failed') return l.notSent ? 'not sent' : checkedNotApplied(l) ? 'not applied' : 'refused';
  if (l.state === 'skipped') return 'skipped';
  if (l.state === 'cancelled') return 'cancelled';
  return 'not sent';
}

/** A single change sent (or checked again): its job of one line, as it ended. */
export interface SendResult {
  readonly job: BulkJob;
  readonly line: BulkLine;
  readonly outcome: Outcome;
  /** The line as the server returned or listed it (a created line: with its credentials). */
  readonly server: Line | LineListItem | undefined;
  /** The error its request met, if any (a refusal names a field of the form). */
  readonly error: unknown;
  /** What to say of it beyond the table of outcomes, or null (a plain applied change). */
  readonly message: string | null;
}

/**
 * The sentence of a single change's outcome. `watching`: this process keeps checking an unknown
 * outcome in the background (the app), so the user is told.
 */
export function outcomeMessage(job: BulkJob, error: unknown, watching: boolean): string | null {
  const l = job.lines[0]!;
  if (l.state === 'done' && l.settledAfterUnknown === 'by hand')
    return `Applied, as you settled it (${l.detail}): the service gave no proof either way.`;
  if (l.state === 'done') {
    const checked = l.charge !== undefined && l.charge !== 'reply';
    const spent =
      !SPENDS.has(job.op) || l.charge === 'reply'
        ? ''
        : l.deducedCredits !== undefined
          ? ` Charged ${credits(l.deducedCredits)} (from the balance).`
          : ' Charged, amount unknown.';
    return checked || l.detail?.startsWith('applied')
      ? `Applied: the server shows the change.${spent}`
      : null;
  }
  if (l.state === 'unknown') {
    const who = l.id.startsWith('new:') ? `username ${l.username}` : `line ${l.id} · ${l.username}`;
    return isNotYet(l)
      ? `Outcome unknown: ${l.detail}. The service may still apply it, so it is not called "not applied" yet and nothing is re-sent; ${watching ? 'linedesk keeps checking, and ' : ''}the line takes no new change until then. It stays in the intent log; look up ${who} (if you know what happened: linedesk pending --settle ${l.username} --as applied|not-applied --confirm ${l.username}).`
      : `Outcome unknown (${l.detail ?? 'no clear answer'}). Nothing is re-sent. It stays in the intent log and is checked again at the next start; look up ${who}.`;
  }
  // Not sent for what the line is now (read again just before sending), or left to another change.
  if (l.state === 'skipped' && l.detail) return `${l.detail[0]!.toUpperCase()}${l.detail.slice(1)}`;
  return l.notSent
    ? `Not sent: ${sentence(l.detail?.replace(/^not sent: /, '') ?? 'the request never left')} Nothing reached the service; nothing was charged.`
    : l.settledAfterUnknown === 'by hand'
      ? `Not applied, as you settled it (${l.detail}): the service gave no proof either way; if it did apply it, a new change is charged again.`
      : checkedNotApplied(l)
        ? `Not applied: the server shows no change and no charge (${l.detail}). Nothing was charged for it.`
        : error
          ? describeError(error)
          : (l.detail ?? 'Failed');
}

/** A reason as a sentence of its own: its full stop added when it has none. */
const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);
