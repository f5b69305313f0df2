/**
 * The resume offer is counted once per change of the offer or its marks (selectOfferCounts), not at
 * every frame or footer: an interrupted job may have 100,000 lines, and resume.recheck's rule is asked
 * at every footer.
 */
import { describe, expect, it } from 'vitest';
import { command } from '../../src/commands/keymap';
import type { BulkLine } from '../../src/domain/bulk';
import type { AppState } from '../../src/store/app-store';
import type { MarkAgain } from '../../src/store/changes/changes-slice';
import { selectOfferCounts } from '../../src/store/selectors';
import { lineItem } from '../helpers/fixtures';
import { extendJob, jobLine } from '../helpers/jobs';

/** A job's lines that count how often they are read (an element, or walked). */
function countedLines(lines: BulkLine[]) {
  let reads = 0;
  const proxy = new Proxy(lines, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      if (key === Symbol.iterator) reads++;
      return Reflect.get(target, key, receiver);
    },
  });
  return { lines: proxy, reads: () => reads };
}

describe('the resume offer counted', () => {
  it('once per change of the offer or its marks; resume.recheck reads the count', () => {
    const states: Partial<BulkLine>[] = [
      { state: 'done' },
      { state: 'unknown' },
      { state: 'pending' },
      { state: 'pending' },
      { state: 'skipped', notSentAsRead: 'changed', detail: 'not sent: changed since it was marked' },
    ];
    const { lines, reads } = countedLines(
      states.map((p, i) => jobLine(lineItem({ id: String(i + 1), username: `u${i + 1}` }), p)),
    );
    const job = extendJob('job-c', lines);
    const marks = new Map<string, MarkAgain>([
      ['3', 'marked'],
      ['4', 'not readable'],
      ['5', 'lookup failed'],
    ]);
    const s = { recovery: { checking: false, jobs: [{ job, unsent: 2 }] }, markedAgain: marks };
    const counts = selectOfferCounts(s);
    expect(counts?.jobs[0]).toMatchObject({ done: 1, open: 1, skipped: 1 });
    expect(counts?.jobs[0]?.unsent).toMatchObject({ marked: 1, 'not readable': 1 });
    expect(counts?.jobs[0]?.review).toMatchObject({ 'lookup failed': 1 });
    expect(counts?.toLookUpAgain).toBe(2);
    const after = reads();
    // Asked again (a frame, a footer, the key's rule): the same count, no line read.
    const recheck = command('resume.recheck').disabled!;
    for (let i = 0; i < 10; i++) {
      expect(selectOfferCounts(s)).toBe(counts);
      expect(recheck(s as unknown as AppState)).toBeNull();
    }
    expect(reads()).toBe(after);
    // The marks change: counted again.
    const next = new Map(marks).set('5', 'marked');
    const again = selectOfferCounts({ ...s, markedAgain: next });
    expect(again).not.toBe(counts);
    expect(again?.toLookUpAgain).toBe(1);
    expect(reads()).toBeGreaterThan(after);
  });
});
