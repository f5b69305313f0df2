/**
 * The bulk preview before the balance is known (its read as the preview opens is on its way, or it
 * failed): "only the affordable ones" cannot pick anything, so Enter is refused with the reason and a
 * key that reads the balance again; without that option the preview says plainly the balance is
 * unknown and the service refuses the lines it does not cover, and the job may start after the usual
 * confirm. A balance that arrives re-arms the confirm gate. The footer offers exactly the keys that run.
 */
import { describe, expect, it } from 'vitest';
import { COMMANDS, keyHintText, keyLabel } from '../../src/commands/keymap';
import { BURST_GAP_MS, CONFIRM_ARM_MS } from '../../src/keys/confirm-gate';
import { resolveKey } from '../../src/keys/dispatch';
import { memoryJournal } from '../../src/services/changes/journal';
import type { AppState } from '../../src/store/app-store';
import { footerItems } from '../../src/ui/layout/Footer';
import { renderApp } from '../helpers/app';
import { openBulkPreview } from '../helpers/bulk-preview';
import { proxiedClient } from '../helpers/fault-proxy';
import { gated } from '../helpers/gated';
import { books, sandbox } from '../helpers/sandbox';

type App = Awaited<ReturnType<typeof renderApp>>;

/** Every footer hint's key resolves, in this state, to an enabled command. */
function expectFooterTrue(s: AppState, where: string) {
  for (const text of footerItems(s).map((h) => h.text)) {
    const label = text.split(' ')[0]!;
    const keys = [...new Set(COMMANDS.flatMap((c) => c.keys))].filter((k) => keyLabel(k) === label);
    const cmd = keys.map((k) => resolveKey(s, k)).find(Boolean);
    expect(cmd, `${where}: "${text}" is no key dispatch runs`).toBeDefined();
    expect(cmd!.disabled?.(s) ?? null, `${where}: "${text}" is disabled`).toBeNull();
  }
}
const footer = (app: App) => footerItems(app.store.getState()).map((h) => h.text);
/** The dialog's text, its wrapped rows joined (not the flash line below it). */
const dialog = (f: string) =>
  f
    .slice(f.indexOf('╭'), f.indexOf('╰'))
    .replace(/[│╭╮─]/g, ' ')
    .replace(/\s+/g, ' ');

/**
 * After the balance arrived: an Enter right after (past the burst gap) asks again and charges nothing;
 * the confirm then starts the job, which finishes and charges.
 */
async function enterAsksAgainThenStarts(app: App) {
  app.clock.advance(BURST_GAP_MS + 10);
  await app.press('bulk.start');
  await app.waitFrame((f) => f.includes('press Enter again to confirm'));
  expect(books(app.sb).ledger).toHaveLength(0);
  await app.confirm('bulk.start');
  await app.waitFrame((f) => f.includes('Finished'));
  expect(books(app.sb).ledger.length).toBeGreaterThan(0);
}

/** The app on a sandbox through a proxy: every balance read fails once the list is drawn. */
async function balanceReadsFail(credits?: number) {
  const env = await sandbox({ lines: 40, ...(credits === undefined ? {} : { credits }) });
  const { proxy, client } = await proxiedClient(env.sb.baseUrl);
  const app = await renderApp({}, { client, journal: memoryJournal() }, env);
  await app.waitFrame((f) => /1–\d+ of 40/.test(f) && app.store.getState().account.status === 'ready');
  proxy.set({ rules: [{ match: 'GET /v1/me', fault: { kind: 'error5xx', status: 503 } }] });
  return { app, proxy };
}

/** The app whose balance reads (the first at start too) wait until `release`: never read yet. */
async function balanceNotReadYet() {
  const env = await sandbox({ lines: 40 });
  const me = gated(env.client, 'me');
  const app = await renderApp({}, { client: me.client, journal: memoryJournal() }, env);
  await app.waitFrame((f) => /1–\d+ of 40/.test(f));
  expect(app.store.getState().account.status).toBe('loading');
  // The start reads the catalog after the balance: read here, so the costs are known.
  await app.store.getState().loadCatalog();
  return { app, release: () => me.open() };
}

const again = () => `${keyHintText('bulk.readBalance')} reads it again`;
/** How many times the screen names the key that reads the balance again: once is enough. */
const timesAgain = (app: App) => dialog(app.frame()).split(again()).length - 1;

describe('the bulk preview with the balance unknown', () => {
  it('only the affordable ones: Enter is refused with the reason and a key that reads the balance again; once read, Enter asks again, then starts', async () => {
    const { app, proxy } = await balanceReadsFail();
    await openBulkPreview(app, { mark: 'page', premium: true });
    await app.waitFrame((f) => f.includes('The balance could not be read'));
    await app.press('bulk.affordable');
    await app.waitFrame(
      (f) => f.includes('ONLY THE AFFORDABLE ONES') && f.includes(`The balance is not known yet: ${again()}`),
    );
    expect(timesAgain(app), app.frame()).toBe(1);
    // The picked count is not shown as if it were known.
    expect(app.frame()).not.toMatch(/\d+ of \d+ affordable/);
    expect(footer(app).join('  ')).not.toContain('Enter');
    expect(footer(app).join('  ')).toContain(`${keyHintText('bulk.readBalance')} `);
    expectFooterTrue(app.store.getState(), 'affordable only, balance read failed');
    await app.confirm('bulk.start');
    await app.waitFrame((f) => f.includes('The balance is not known yet'));
    expect(app.store.getState().bulk!.phase).toBe('preview');
    expect(books(app.sb).ledger).toHaveLength(0);
    // The retry key really reads it again: the balance arrives, the affordable ones are picked.
    proxy.set({});
    await app.press('bulk.readBalance');
    await app.waitFrame((f) => /\d+ of \d+ affordable · ONLY THE AFFORDABLE ONES/.test(f));
    expect(dialog(app.frame())).not.toContain('not known yet');
    expectFooterTrue(app.store.getState(), 'affordable only, balance read');
    // The balance arriving changed what Enter would do: an Enter right after it asks again.
    await enterAsksAgainThenStarts(app);
  });

  it('all the lines: the preview says the balance is unknown and what the service does; the job starts after the confirm', async () => {
    const { app } = await balanceReadsFail(5);
    await openBulkPreview(app, { mark: 'page', premium: true });
    await app.waitFrame((f) => f.includes('The balance could not be read'));
    const f = dialog(app.frame());
    expect(f).toContain('the balance is unknown');
    expect(f).toContain('the service refuses the lines it does not cover (nothing is charged for those)');
    expect(f).toContain(again());
    expect(timesAgain(app), app.frame()).toBe(1);
    expect(f).toMatch(/Total \d+ credits/);
    expectFooterTrue(app.store.getState(), 'all lines, balance read failed');
    await app.confirm('bulk.start');
    await app.waitFrame((f) => f.includes('Finished'));
    // 5 credits: the service refused what they do not cover; nothing was charged for those lines.
    const b = books(app.sb);
    expect(b.spent).toBeLessThanOrEqual(5);
    expect(b.balance).toBeGreaterThanOrEqual(0);
    expect(app.store.getState().bulk!.job.lines.some((l) => l.state === 'failed')).toBe(true);
  });

  it('all the lines: a balance that arrives while the preview is open changes what it says Enter does: an Enter right after asks again', async () => {
    const { app, proxy } = await balanceReadsFail(1_000_000);
    await openBulkPreview(app, { mark: 'page', premium: true });
    await app.waitFrame((f) => f.includes('The balance could not be read'));
    // Read long enough: an Enter now would start the job as "the balance is unknown".
    app.clock.advance(CONFIRM_ARM_MS);
    proxy.set({});
    await app.press('bulk.readBalance');
    await app.waitFrame((f) => /\d+ of \d+ affordable/.test(f));
    expect(dialog(app.frame())).not.toContain('the balance is unknown');
    await enterAsksAgainThenStarts(app);
  });

  it('never read yet, while it is read: "reading the balance…", Enter refused with the affordable ones, no read-again key offered', async () => {
    const { app, release } = await balanceNotReadYet();
    await openBulkPreview(app, { mark: 'page', premium: true });
    await app.waitFrame((f) => f.includes('reading the balance…'));
    await app.press('bulk.affordable');
    await app.waitFrame(
      (f) => f.includes('ONLY THE AFFORDABLE ONES') && f.includes('The balance is not known yet'),
    );
    expect(app.frame()).not.toMatch(/\d+ of \d+ affordable/);
    // A read already on its way: no key offered to start another.
    expect(app.frame()).not.toContain(again());
    expect(footer(app).join('  ')).not.toContain(`${keyHintText('bulk.readBalance')} `);
    expectFooterTrue(app.store.getState(), 'affordable only, balance being read');
    await app.confirm('bulk.start');
    expect(app.store.getState().bulk!.phase).toBe('preview');
    release();
    await app.waitFrame((f) => /\d+ of \d+ affordable · ONLY THE AFFORDABLE ONES/.test(f));
    expect(dialog(app.frame())).not.toContain('reading the balance');
    expect(books(app.sb).ledger).toHaveLength(0);
  });
});
