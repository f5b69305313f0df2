/**
 * A page key over a list laid out with headings and notes between its rows (domain/scroll.ts
 * `pageStop`, the find screen and the renewals): paged through from either end, every row is drawn
 * on the way (no row between two pages is skipped), each key moves the cursor, and the last page
 * reaches the end.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centredWindow, pageStop } from '../../src/domain/scroll';

/** Items, `true` a row the cursor stops on, `false` a heading or a note; at least one row. */
const layout = fc
  .array(fc.boolean(), { minLength: 1, maxLength: 80 })
  .map((items) => (items.includes(true) ? items : [...items, true]));

describe('pageStop', () => {
  it('paging through draws every row, moving each time, to the end', () => {
    fc.assert(
      fc.property(
        layout,
        fc.integer({ min: 1, max: 30 }),
        fc.constantFrom(1 as const, -1 as const),
        (items, rows, direction) => {
          const stops = items.flatMap((row, i) => (row ? [i] : []));
          const drawn = new Set<number>();
          const draw = (k: number) => {
            const w = centredWindow(items.length, rows, stops[k]!);
            for (let i = w.start; i < w.end; i++) drawn.add(i);
          };
          let at = direction > 0 ? 0 : stops.length - 1;
          const end = direction > 0 ? stops.length - 1 : 0;
          draw(at);
          while (at !== end) {
            const next = pageStop(rows, stops, at, direction);
            expect(direction > 0 ? next > at : next < at).toBe(true);
            at = next;
            draw(at);
          }
          expect(at).toBe(end);
          // A heading or a note may go undrawn only with more than a page of them together.
          expect(stops.filter((i) => !drawn.has(i))).toEqual([]);
        },
      ),
    );
  });

  it('with no heading between, a page is the rows in view less one', () => {
    expect(
      pageStop(
        10,
        Array.from({ length: 50 }, (_, i) => i),
        3,
        1,
      ),
    ).toBe(12);
    expect(
      pageStop(
        10,
        Array.from({ length: 50 }, (_, i) => i),
        12,
        -1,
      ),
    ).toBe(3);
  });
});
