/**
 * The account screen shows no figure worked out from a stale balance as if it were today's: its
 * runway (and the lines it says lapse first) and the packages' AFFORDS column go by the balance a
 * change is judged against (store/selectors.ts `selectBalanceToJudge`, `selectRunway`), and come back
 * once a read again succeeds.
 */
import { expect, it } from 'vitest';
import { keyNamed } from '../../src/commands/keymap';
import { staleText } from '../../src/present/balance';
import { memoryJournal } from '../../src/services/changes/journal';
import { selectRunway } from '../../src/store/runway-slice';
import { selectBalanceShown } from '../../src/store/selectors';
import { renderApp } from '../helpers/app';
import { proxiedClient } from '../helpers/fault-proxy';
import { sandbox } from '../helpers/sandbox';

it('a stale balance: the runway said not known, the AFFORDS column blank; both back after a read', async () => {
  const env = await sandbox({ lines: 40, credits: 30 });
  const { proxy, client } = await proxiedClient(env.sb.baseUrl);
  const app = await renderApp({}, { client, journal: memoryJournal(), runwayAtStart: true }, env);
  const s = () => app.store.getState();
  await app.waitFrame((f) => /1–\d+ of 40/.test(f) && s().account.status === 'ready');
  await app.press('nav.account');
  const row = (name: RegExp) =>
    app
      .frame()
      .split('\n')
      .find((r) => name.test(r)) ?? '';
  // The 1-month package's AFFORDS cell (the last column, right-aligned under its header).
  const affordsCell = () =>
    row(/^\s+Premium 1 month\b/)
      .slice(row(/NAME .*AFFORDS/).indexOf('AFFORDS') - 1)
      .trim();
  // 30 credits afford 30 of the 1-credit package.
  const affords = () => affordsCell() === '30';
  await app.waitFrame((f) => /Runway\s+\S/.test(f) && !f.includes('reading…') && affords());
  expect(selectRunway(s())).not.toBeNull();
  proxy.set({ rules: [{ match: 'GET /v1/me', fault: { kind: 'error5xx', status: 503 } }] });
  await s().loadAccount();
  expect(selectBalanceShown(s())?.stale).toBe(true);
  await app.waitFrame((f) => /Runway\s+not known now: the balance is stale/.test(f));
  expect(selectRunway(s())).toBeNull();
  expect(affordsCell()).toBe('');
  proxy.set({});
  await s().loadAccount();
  await app.waitFrame((f) => !f.includes('stale') && affords() && !/Runway\s+not known/.test(f));
  expect(selectRunway(s())).not.toBeNull();
});

it('a stale balance: the lines first to lapse stay shown, which lapse said not known (as the header: stale, as of)', async () => {
  const env = await sandbox({ lines: 40, credits: 3 });
  const { proxy, client } = await proxiedClient(env.sb.baseUrl);
  const app = await renderApp({}, { client, journal: memoryJournal(), runwayAtStart: true }, env);
  const s = () => app.store.getState();
  await app.waitFrame((f) => /1–\d+ of 40/.test(f) && s().account.status === 'ready');
  await app.press('nav.account');
  await app.waitFrame((f) => /First to lapse \(\d+ lines?\)/.test(f) && f.includes('lapses'));
  const first = selectRunway(s())!.lapsing[0]!.line.username;
  proxy.set({ rules: [{ match: 'GET /v1/me', fault: { kind: 'error5xx', status: 503 } }] });
  await s().loadAccount();
  const shown = selectBalanceShown(s())!;
  expect(shown.stale).toBe(true);
  const key = keyNamed(s(), 'app.refresh');
  await app.waitFrame((f) => /Runway\s+not known now: the balance is stale/.test(f));
  const f = app.frame();
  // The section is there, stale as the header says it, and judges none of its lines.
  expect(f).toContain(`First to lapse: not known now, the balance is ${staleText(shown)}`);
  expect(f).toMatch(new RegExp(`Runway\\s+not known now: the balance is stale \\(${key} reads it again\\)`));
  const rows = f.split('\n').filter((r) => r.includes(first) || /\bnot known\s*$/.test(r));
  expect(rows.length).toBeGreaterThan(0);
  expect(f).not.toMatch(/\b(lapses|covered)\s*$/m);
  expect(f.split('\n').find((r) => r.includes(first))).toMatch(/not known\s*$/);
  proxy.set({});
  await s().loadAccount();
  await app.waitFrame(
    (f) => /First to lapse \(\d+ lines?\)/.test(f) && f.includes('lapses') && !f.includes('stale'),
  );
});
