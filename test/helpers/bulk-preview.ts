import { vi } from 'vitest';
import { loaded } from '../../src/store/types';
import { selectDialog } from '../../src/store/view-stack';
import type { renderApp } from './app';
import { resize } from './resize';

/**
 * The bulk preview opened the way a user does: the lines browser's list drawn, the terminal made
 * `size` (columns, rows) if given, only premium lines shown if asked (every one can be extended, one
 * row each), the page or every matching line marked, then `op` pressed. Resolves once the dialog is
 * open over the marked lines; the test waits for the frame it means to read.
 */
export async function openBulkPreview(
  app: Awaited<ReturnType<typeof renderApp>>,
  opts: {
    readonly mark: 'page' | 'all';
    readonly op?: 'line.extend' | 'line.delete' | 'line.unsuspend' | 'line.upgrade';
    readonly premium?: boolean;
    readonly size?: readonly [columns: number, rows: number];
  },
): Promise<void> {
  await vi.waitFor(() => {
    if (!loaded(app.store.getState().lines)) throw new Error('the list is not drawn yet');
  });
  if (opts.size) resize(app, ...opts.size);
  if (opts.premium) {
    await app.press('lines.filterType');
    await app.waitFrame((f) => f.includes('type premium') && !f.includes('loading'));
  }
  await app.press(opts.mark === 'all' ? 'lines.markAll' : 'lines.markPage');
  await vi.waitFor(() => {
    const s = app.store.getState();
    if (!s.marked.size || s.markingAll) throw new Error('not marked yet');
  });
  await app.press(opts.op ?? 'line.extend');
  await vi.waitFor(() => {
    if (selectDialog(app.store.getState()) !== 'bulk') throw new Error('the bulk dialog is not open');
  });
}
