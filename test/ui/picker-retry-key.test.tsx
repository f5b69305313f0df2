/**
 * The bouquet picker's failed load names a key that retries only if that key retries there: the
 * picker is a dialog whose filter takes typed text, so `r` would be typed into the filter and retry
 * nothing (components/LoadState.tsx names the key through `keyNamed`). The keys the screen shows must
 * be the keys that work there.
 */
import { expect, it } from 'vitest';
import { keyHintText } from '../../src/commands/keymap';
import { memoryJournal } from '../../src/services/changes/journal';
import { renderApp } from '../helpers/app';
import { proxiedClient } from '../helpers/fault-proxy';
import { sandbox } from '../helpers/sandbox';

it('a failed bouquets load in the picker names no key that is typed into the filter instead', async () => {
  const env = await sandbox({ lines: 40 });
  const { proxy, client: proxied } = await proxiedClient(env.sb.baseUrl);
  proxy.set({ rules: [{ match: 'GET /v1/bouquets', fault: { kind: 'error5xx', status: 503 } }] });
  const app = await renderApp({}, { client: proxied, journal: memoryJournal() }, env);
  await app.waitFrame((f) => /1–\d+ of 40/.test(f));
  await app.press('line.create');
  await app.waitFrame((f) => f.includes('New line —'));
  while (app.store.getState().form?.focus !== 'bouquets') await app.press('form.next');
  await app.press('form.toggle');
  await app.waitFrame((f) => f.includes('filter:') && f.includes('Could not load bouquets'));
  const retryKey = keyHintText('app.refresh');
  // The picker's filter takes the key as text: the load's failure must not offer it as "retries".
  expect(app.frame()).not.toContain(`(${retryKey} retries)`);
});
