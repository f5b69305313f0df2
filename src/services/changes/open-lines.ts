/**
 * The lines that take no new change now: those whose earlier change has an unknown outcome, and of
 * those the ones held for someone else (another linedesk, another key, a damaged intent file). The
 * change service keeps them; both front-ends read them and refuse in the same words.
 */
import { type Refusal, RULES, refusal } from '../../domain/change-rules';

export interface OpenLines {
  /** Line id → the job (or damaged file) whose change of it is still open. */
  readonly unsettled: ReadonlyMap<string, string>;
  /** Of those, the lines held for someone else, and who. */
  readonly held: ReadonlyMap<string, string>;
}

/** Why no new change is offered for a line whose earlier change is not settled here, in words. */
export function openReason(s: OpenLines, lineId: string): string | null {
  if (!s.unsettled.has(lineId)) return null;
  const who = s.held.get(lineId);
  return who
    ? `held for ${who}: its outcome is not this session's to judge (nothing new is sent for the line until it is settled)`
    : 'an earlier change to it has an unknown outcome: it is checked first';
}

/** The refusal of a new change to such a line: the key's disabled reason and a script's say the same. */
export function openRefusal(s: OpenLines, lineId: string): Refusal | null {
  if (!s.unsettled.has(lineId)) return null;
  return s.held.has(lineId)
    ? refusal('heldElsewhere', `This line is ${openReason(s, lineId)}`)
    : refusal('unknownOutcome', RULES.unknownOutcome);
}
