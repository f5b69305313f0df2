/**
 * The marks screen names e/u/s/d ("all of them") only while they work: once every mark is cleared
 * there (U), those keys refuse, and they must not target the browser's cursor line, which the marks
 * screen does not show (store/selectors.ts `selectTargetLine`). The keys the screen shows must be the
 * keys that work there.
 */
import { expect, it } from 'vitest';
import { keyHintText } from '../../src/commands/keymap';
import { resolveKey } from '../../src/keys/dispatch';
import { memoryJournal } from '../../src/services/changes/journal';
import { renderApp } from '../helpers/app';

it('the marks screen offers no change key that refuses', async () => {
  const app = await renderApp({}, { journal: memoryJournal() });
  await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
  await app.press('lines.mark');
  await app.waitFrame(() => app.store.getState().marked.size === 1);
  await app.press('lines.marks');
  await app.waitFrame((f) => f.includes('Marked lines: 1'));
  await app.press('marks.clear');
  await app.waitFrame((f) => f.includes('Marked lines: 0'));
  // With nothing marked, the title offers no change at all.
  expect(app.frame()).not.toContain('all of them');
  const title = app
    .frame()
    .split('\n')
    .find((r) => r.includes('Marked lines: 0'))!;
  const s = app.store.getState();
  for (const id of ['line.extend', 'line.upgrade', 'line.unsuspend', 'line.delete'] as const) {
    const key = keyHintText(id);
    const cmd = resolveKey(s, key);
    const refuses = cmd ? (cmd.id === id ? (cmd.disabled?.(s) ?? null) : `runs ${cmd.id}`) : 'no command';
    // Offered in the title only if it works.
    if (new RegExp(`(^|[ ·—])${key} `).test(title))
      expect(refuses, `${id} offered as ${key} in: ${title}`).toBeFalsy();
  }
});

it('on the marks screen with nothing marked, e does not open a change for a line the screen does not show', async () => {
  const app = await renderApp({}, { journal: memoryJournal() });
  await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
  await app.press('lines.filterType'); // premium: extendable
  await app.waitFrame((f) => f.includes('type premium') && !f.includes('loading'));
  await app.press('lines.mark');
  await app.waitFrame(() => app.store.getState().marked.size === 1);
  await app.press('lines.marks');
  await app.waitFrame((f) => f.includes('Marked lines: 1'));
  await app.press('marks.clear');
  await app.waitFrame((f) => f.includes('Marked lines: 0'));
  await app.press('line.extend');
  // Refused, with why (the flash line), rather than opened for a line off screen.
  await app.waitFrame(
    () =>
      app.store.getState().action !== null ||
      app.store.getState().flash?.text.includes('Nothing marked') === true,
  );
  // The browser's cursor line (not on this screen) must not be the target of a change from here.
  expect(app.store.getState().action?.line?.username ?? null).toBeNull();
  expect(app.store.getState().flash?.text).toContain('Nothing marked: mark lines in the browser');
});
