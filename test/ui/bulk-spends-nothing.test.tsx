/**
 * A bulk job that spends nothing (delete, unsuspend) says nothing about affordability: no "N of N
 * affordable", no total against the balance. A delete says what it throws away and what to type.
 */
import { expect, it } from 'vitest';
import { memoryJournal } from '../../src/services/changes/journal';
import { renderApp } from '../helpers/app';
import { openBulkPreview } from '../helpers/bulk-preview';
import { sandbox } from '../helpers/sandbox';

/** The dialog's text, its wrapped rows joined (not the flash line below it). */
const dialog = (f: string) =>
  f
    .slice(f.indexOf('╭'), f.indexOf('╰'))
    .replace(/[│╭╮─]/g, ' ')
    .replace(/\s+/g, ' ');

for (const op of ['line.delete', 'line.unsuspend'] as const) {
  it(`${op}: the preview says nothing about affordability, the balance known`, async () => {
    const env = await sandbox({ lines: 40 });
    const app = await renderApp({}, { journal: memoryJournal() }, env);
    await app.waitFrame((f) => /1–\d+ of 40/.test(f));
    await openBulkPreview(app, { mark: 'page', op });
    await app.waitFrame(
      (f) =>
        f.includes('marked line') &&
        app.store.getState().account.status === 'ready' &&
        f.includes('lines 1–'),
    );
    const text = dialog(app.frame());
    expect(text).not.toMatch(/affordable/i);
    expect(text).not.toMatch(/\bbalance\b/i);
    expect(text).not.toMatch(/Total \d/);
  });
}
