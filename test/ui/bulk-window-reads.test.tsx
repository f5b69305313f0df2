/**
 * The bulk dialog reads the lines its window shows, not every line of the job, at each frame: a
 * preview of 100,000 marked lines scrolls at the speed of a screenful (a reason wrapped below its
 * line is measured only for the lines the window asks about).
 */
import { describe, expect, it } from 'vitest';
import type { BulkLine } from '../../src/domain/bulk';
import { renderApp } from '../helpers/app';
import { openBulkPreview } from '../helpers/bulk-preview';
import { lineItem } from '../helpers/fixtures';
import { jobLine } from '../helpers/jobs';

describe('the bulk dialog at each frame', () => {
  it('reads about a screenful of a 5,000-line job when it scrolls, not all of them', async () => {
    const app = await renderApp({ lines: 40 });
    await openBulkPreview(app, { mark: 'page' });
    await app.waitFrame((f) => f.includes('marked lines by'));
    const many: BulkLine[] = Array.from({ length: 5_000 }, (_, i) =>
      jobLine(lineItem({ id: String(900_000 + i), username: `user${i}` }), {
        // Every tenth line with a reason too wide for its column (it would go below the line).
        ...(i % 10 === 0
          ? { state: 'skipped', cost: 0, detail: `a reason that is long ${'enough '.repeat(20)}` }
          : {}),
      }),
    );
    let reads = 0;
    const counted = new Proxy(many, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const b = app.store.getState().bulk!;
    app.store.setState({ bulk: { ...b, quoting: false, job: { ...b.job, lines: counted } } });
    await app.waitFrame((f) => f.includes('user0'));
    reads = 0;
    await app.press('bulk.pageDown');
    await app.waitFrame((f) => /lines \d+–\d+ of 5000/.test(f) && !f.includes('lines 1–'));
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThan(1_000);
  });
});
