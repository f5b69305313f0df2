/**
 * A verdict settled by hand is the user's word, not the service's proof: "not applied" by hand is never
 * `provenNotApplied` (what a refusal or a check sets), its journal entry says it was settled by the
 * user, and the sentence for it never says the server showed anything. A retry of it is still
 * allowed (the user decided).
 */
import { describe, expect, it } from 'vitest';
import { readLine } from '../../src/app/intent-records';
import { type BulkLine, retryable } from '../../src/domain/bulk';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { outcomeMessage } from '../../src/services/changes/outcome';
import { createChangeService } from '../../src/services/changes/service';
import type { ServiceClient } from '../../src/services/client';
import { extendJob } from '../helpers/jobs';

const unknownLine = (id: string, username: string): BulkLine => ({
  id,
  username,
  before: { expMs: null, connections: 1, enabled: true, isTrial: false },
  cost: 1,
  after: {},
  state: 'unknown',
  sentAt: Date.now() - 60_000,
});

describe('a line settled by hand as not applied', () => {
  it('is not proven, journaled as settled by the user, said so, and still retryable', () => {
    const intents = memoryIntentLog();
    const journal = memoryJournal();
    const job = extendJob('job-hand', [unknownLine('1', 'alice'), unknownLine('2', 'bob')]);
    intents.begin(job);
    const changes = createChangeService({
      client: {} as ServiceClient,
      target: { id: 'sandbox:test', label: 'SANDBOX' },
      intents,
      journal,
    });
    const r = changes.settleByHand(job.id, '1', 'not applied');
    if (!r.ok) throw new Error(`not settled: ${r.reason}`);
    const line = r.job.lines[0]!;
    expect(line).toMatchObject({ state: 'failed', settledAfterUnknown: 'by hand' });
    expect(line.provenNotApplied).toBeUndefined();
    expect(retryable(line)).toBe(true);
    expect(journal.entries.at(-1)).toMatchObject({ username: 'alice', settledByHand: true });
    const said = outcomeMessage({ ...r.job, lines: [line] }, undefined, false);
    expect(said).toMatch(/settled by the user/);
    expect(said).not.toMatch(/the server shows/);
  });

  it('read from a file an earlier version wrote (with provenNotApplied): the user’s word still', () => {
    const read = readLine({
      ...unknownLine('1', 'alice'),
      state: 'failed',
      detail: 'not applied: settled by the user at 2026-01-01T00:00:00.000Z (no proof from the service)',
      provenNotApplied: true,
    });
    expect(read).toMatchObject({ settledAfterUnknown: 'by hand' });
    expect(read.provenNotApplied).toBeUndefined();
    expect(retryable(read)).toBe(true);
  });
});
