/**
 * With the search field open and no line matching, the lines screen's "Clear the search … or change
 * the filters …" names no key the open field types instead (`/`, `f`, `t`: LinesScreen.tsx names them
 * through `keyNamed`). The keys the screen shows must be the keys that work there.
 */
import { expect, it } from 'vitest';
import { keyHintText } from '../../src/commands/keymap';
import { resolveKey } from '../../src/keys/dispatch';
import { memoryJournal } from '../../src/services/changes/journal';
import { renderApp } from '../helpers/app';

it('the no-match sentence under the open search field names no key the field types instead', async () => {
  const app = await renderApp({ lines: 40 }, { journal: memoryJournal() });
  await app.waitFrame((f) => /1–\d+ of 40/.test(f));
  await app.press('lines.search');
  await app.type('zzqq');
  await app.waitFrame((f) => f.includes('No lines match'));
  expect(app.store.getState().searchOpen).toBe(true);
  const sentence = app
    .frame()
    .split('\n')
    .find((r) => r.includes('No lines match'))!;
  const s = app.store.getState();
  for (const id of ['lines.filterStatus', 'lines.filterType'] as const) {
    const key = keyHintText(id);
    if (sentence.includes(`${key}`) && new RegExp(`[(, ]${key}[,)]`).test(sentence))
      expect(resolveKey(s, key)?.id, `${key} named in: ${sentence}`).toBe(id);
  }
  // And the key pressed types into the field: the filter (the query) is unchanged.
  const before = s.query;
  const key = keyHintText('lines.filterType');
  await app.type(key);
  await app.waitFrame(() => app.store.getState().searchDraft.endsWith(key));
  expect(app.store.getState().query).toBe(before);
});
