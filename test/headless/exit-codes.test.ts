/** The exit code of a change's outcomes: what a script that retries on non-zero may safely do. */
import { describe, expect, it } from 'vitest';
import type { BulkJob, BulkLine, BulkLineState } from '../../src/domain/bulk';
import { exitOf } from '../../src/headless/commands/change-report';

const line = (state: BulkLineState, detail?: string): BulkLine => ({
  id: `${state}-${Math.random()}`,
  username: state,
  before: { expMs: 0, connections: 1, enabled: true, isTrial: false },
  cost: 4,
  after: {},
  state,
  ...(detail ? { detail } : {}),
});
const job = (...lines: BulkLine[]): BulkJob => ({
  id: 'j',
  op: 'extend',
  months: 1,
  connections: 1,
  target: 't',
  createdAt: '2026-11-23T00:00:00Z',
  lines,
});

describe('exitOf', () => {
  it('0 all applied; 1 nothing applied; 6 some applied and some not; 3 whenever anything is unknown', () => {
    expect(exitOf(job(line('done'), line('done')), 0)).toBe(0);
    expect(exitOf(job(line('failed', 'not applied: refused')), 0)).toBe(1);
    expect(exitOf(job(line('failed', 'refused')), 2)).toBe(1);
    // 1 applied + 2 not found: charged once already; exit 1 ("nothing charged") would invite a re-run.
    expect(exitOf(job(line('done')), 2)).toBe(6);
    expect(exitOf(job(line('done'), line('failed', 'refused')), 0)).toBe(6);
    expect(exitOf(job(line('done'), line('cancelled')), 0)).toBe(6);
    expect(exitOf(job(line('done'), line('failed', 'refused'), line('unknown')), 1)).toBe(3);
    // A line left out because an earlier change to it is open: by its flag, whatever its words.
    const heldBack = { ...line('skipped', 'an earlier change has an unknown outcome'), heldBack: true };
    expect(exitOf(job(line('done'), heldBack), 0)).toBe(3);
    expect(exitOf(job(line('done'), line('skipped', 'Trial lines cannot be extended')), 0)).toBe(0);
  });
});
