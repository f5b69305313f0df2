import { driftText } from '../domain/balance-drift';
import { creditsText } from '../domain/format';
import type { DriftReport } from '../services/balance-watch';
import type { Tint } from './output';

/** The drift as `--json` prints it; null when it was not checked. */
export function driftRecord(d: DriftReport | null) {
  if (!d) return null;
  const v = d.verdict;
  return {
    status: v.kind,
    difference: v.kind === 'drift' ? v.difference : null,
    expected: v.kind === 'drift' ? v.expected : null,
    explained: v.kind === 'drift' || v.kind === 'steady' ? v.explained : null,
    since: v.kind === 'drift' ? new Date(v.since).toISOString() : null,
    why: v.kind === 'unsure' ? v.why : null,
    problem: d.problem,
  };
}

/** The pair the text output shows, when there is something to say (a drift, or why it was not judged). */
export function driftPair(d: DriftReport | null): [string, string, Tint?] | null {
  if (!d) return null;
  const v = d.verdict;
  if (v.kind === 'drift')
    return [
      'Balance drift',
      `${driftText(v.difference)} since ${new Date(v.since).toISOString()} (expected ${creditsText(v.expected)})`,
      'yellow',
    ];
  if (d.problem) return ['Balance drift', `not checked: ${d.problem}`, 'yellow'];
  if (v.kind === 'unsure') return ['Balance drift', `not judged now: ${v.why}`, 'dim'];
  return null;
}
