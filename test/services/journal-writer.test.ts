/**
 * The journal's writer after a failed write (a full disk): once the retry timer writes what waited,
 * the count of entries waiting goes back to 0 (the store's `journalWaiting`). Without it the count
 * stayed up until the next change, and the drift check, which waits for those entries, judged no
 * balance until then.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BulkJob, BulkLine } from '../../src/domain/bulk';
import { memoryJournal } from '../../src/services/changes/journal';
import { journalRecorder } from '../../src/services/changes/journal-record';

afterEach(() => {
  vi.useRealTimers();
});

describe('the journal written again by its timer', () => {
  it('says nothing waits any more', () => {
    vi.useFakeTimers();
    const inner = memoryJournal();
    let failing = true;
    const journal = {
      ...inner,
      append: (e: Parameters<typeof inner.append>[0]) => {
        if (failing) throw new Error('ENOSPC: no space left on device, write');
        inner.append(e);
      },
    };
    const waiting: number[] = [];
    const recorder = journalRecorder(
      { journal, now: () => Date.parse('2026-11-20T12:00:00Z'), target: { id: 't', label: 'T' } },
      { waiting: (n) => waiting.push(n), failed: (_err, n) => waiting.push(n) },
    );
    const line = {
      id: 'l1',
      username: 'user-l1',
      state: 'done',
      before: { connections: 1, expiry: null },
      after: { connections: 1, expiry: null },
    } as unknown as BulkLine;
    const job = { id: 'j1', op: 'unsuspend', target: 't', lines: [line] } as unknown as BulkJob;
    recorder.record(job, line, false);
    expect(recorder.waiting()).toBe(1);
    expect(waiting.at(-1)).toBe(1);
    failing = false;
    vi.advanceTimersByTime(5_000);
    expect(inner.entries).toHaveLength(1);
    expect(recorder.waiting()).toBe(0);
    expect(waiting.at(-1)).toBe(0);
    recorder.stop();
  });
});
