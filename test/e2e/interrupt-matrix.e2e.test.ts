/**
 * Issue 23, item 4, the whole matrix (`npm run soak`, or LINEDESK_SOAK_INTERRUPTS=1): every way a
 * running bulk job can end leaves the same state on disk. Started again, the job is offered with its
 * never-sent count (the ledger's), those lines are marked again, and the resume charges every line
 * exactly once, as the sandbox's SQLite ledger records it (after a kill -9, a line whose request
 * the kill cut stays open, unknown and uncharged, never re-sent). Each way is also tried during the
 * read again before spending (after the job's intent `begin`, before any line is sent): nothing sent,
 * every line offered as never sent, each charged once by the resume. Results go to SOAK_INTERRUPT_REPORT.
 */
import { writeFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type InterruptResult, interruptAndResume, WAYS } from './interrupt';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});
const rounds = Number(process.env.SOAK_INTERRUPT_ROUNDS ?? 1);
const results: InterruptResult[] = [];
afterAll(() => {
  if (process.env.SOAK_INTERRUPT_REPORT)
    writeFileSync(process.env.SOAK_INTERRUPT_REPORT, JSON.stringify(results, null, 2));
});

describe.skipIf(!process.env.LINEDESK_SOAK_INTERRUPTS)('every way a bulk job can be interrupted', () => {
  for (let round = 1; round <= rounds; round++)
    for (const way of WAYS)
      it(`${way} (round ${round}): offered with the right count, marked again, every line charged once`, async () => {
        const r = await interruptAndResume(way, cleanups);
        results.push(r);
        expect(r.sentBefore).toBeGreaterThan(0);
        // Only a kill -9 can cut a request between its intent record and the wire: such a line is
        // neither charged nor never sent, but open (unknown) until its hold window ends.
        if (way !== 'kill -9') expect(r.uncertain).toBe(0);
        expect(r.offered).toBe(r.lines - r.sentBefore - r.uncertain);
        expect(r.marked).toBe(r.offered);
        expect(r.unaccounted).toBe(0);
        expect(r.chargesPerLine.filter((n) => n !== 1).length).toBe(r.uncertain);
        expect(Math.max(...r.chargesPerLine)).toBe(1);
        expect(r.stray).toBe(0);
      }, 120_000);
  for (let round = 1; round <= rounds; round++)
    for (const way of WAYS)
      it(`${way} during the read again (round ${round}): nothing sent, every line offered, each charged once`, async () => {
        const r = await interruptAndResume(way, cleanups, 'reading');
        results.push(r);
        expect(r.sentBefore).toBe(0);
        expect(r.uncertain).toBe(0);
        expect(r.offered).toBe(r.lines);
        expect(r.marked).toBe(r.offered);
        expect(r.unaccounted).toBe(0);
        expect(r.chargesPerLine.every((n) => n === 1)).toBe(true);
        expect(r.stray).toBe(0);
      }, 120_000);
});
