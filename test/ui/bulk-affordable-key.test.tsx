/**
 * "Only the affordable ones" (`a`) is offered only in the preview of a job that spends: a delete
 * spends nothing (and its preview types `a` into the count to confirm), so no footer or help offers
 * it there; an extend's preview does, and the key works.
 */
import { expect, it } from 'vitest';
import { keyHintText } from '../../src/commands/keymap';
import { resolveKey } from '../../src/keys/dispatch';
import { memoryJournal } from '../../src/services/changes/journal';
import { footerItems } from '../../src/ui/layout/Footer';
import { renderApp } from '../helpers/app';
import { openBulkPreview } from '../helpers/bulk-preview';
import { sandbox } from '../helpers/sandbox';

const offered = (app: Awaited<ReturnType<typeof renderApp>>) =>
  footerItems(app.store.getState()).some((h) => h.text.startsWith(`${keyHintText('bulk.affordable')} `));

it('a is offered in the preview of a job that spends, not in a delete preview (where it is typed)', async () => {
  const env = await sandbox({ lines: 40 });
  const app = await renderApp({}, { journal: memoryJournal() }, env);
  await app.waitFrame((f) => /1–\d+ of 40/.test(f));
  await openBulkPreview(app, { mark: 'page', op: 'line.delete' });
  await app.waitFrame((f) => f.includes('Type the number of lines to confirm'));
  expect(resolveKey(app.store.getState(), 'a')).toBeUndefined();
  expect(offered(app)).toBe(false);
  await app.press('bulk.close');
  await app.waitFrame((f) => !f.includes('Type the number'));
  await app.press('line.extend');
  await app.waitFrame((f) => f.includes('affordable'));
  expect(offered(app)).toBe(true);
  await app.press('bulk.affordable');
  await app.waitFrame((f) => f.includes('ONLY THE AFFORDABLE ONES'));
});
