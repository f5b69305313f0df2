/**
 * A line settled after its unknown outcome is typed (`settledAfterUnknown`: the resume offer lists it
 * by that). A file an earlier version wrote has only the words: read from them, so nothing it listed
 * goes unlisted; a value a newer version writes that this one does not know is absent, not damage.
 */
import { describe, expect, it } from 'vitest';
import { replay } from '../../src/app/intent-records';

const line = (over: Record<string, unknown>) => ({
  id: 'l1',
  username: 'ann',
  before: { expMs: 0, connections: 1, enabled: true, isTrial: false },
  cost: 1,
  after: {},
  state: 'unknown',
  ...over,
});
const job = {
  id: 'j1',
  op: 'extend',
  months: 1,
  connections: 1,
  target: 't',
  createdAt: '2026-01-01T00:00:00Z',
};
const file = (...lines: Record<string, unknown>[]) =>
  `${JSON.stringify({ job: { ...job, lines: [line({})] } })}\n${lines.map((l) => `${JSON.stringify({ line: line(l) })}\n`).join('')}`;
const read = (text: string) => {
  const r = replay(text, '/x/j1.jsonl');
  expect(r.problems).toEqual([]);
  return r.job!.lines[0]!;
};

describe('settledAfterUnknown in an intent file', () => {
  it('an earlier version’s words: a check’s, the user’s', () => {
    const checked = 'applied (checked with the server after an unknown outcome)';
    expect(read(file({ state: 'done', detail: checked })).settledAfterUnknown).toBe('checked');
    const byHand = 'not applied: settled by the user at 2026-01-01T00:00:00.000Z (no proof from the service)';
    expect(read(file({ state: 'failed', detail: byHand })).settledAfterUnknown).toBe('by hand');
    expect(read(file({ state: 'done', detail: 'applied' })).settledAfterUnknown).toBeUndefined();
  });

  it('the typed field as written; a newer version’s value absent, not damage', () => {
    expect(
      read(file({ state: 'done', detail: 'applied', settledAfterUnknown: 'by hand' })).settledAfterUnknown,
    ).toBe('by hand');
    expect(
      read(file({ state: 'done', detail: 'applied', settledAfterUnknown: 'later' })).settledAfterUnknown,
    ).toBe(undefined);
  });
});
