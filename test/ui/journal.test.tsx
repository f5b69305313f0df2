/**
 * Issue 24, "a journal that answers", in the app: `5` shows this account's changes (others counted,
 * `a` shows all with their service), totals count only what was applied, `t` picks a period of
 * local days, and the export goes to exports/ with a flash that names its paths whole.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type JournalEntry, memoryJournal } from '../../src/services/changes/journal';
import { renderApp } from '../helpers/app';

const NOW = new Date(2026, 10, 25, 9, 0).getTime(); // 25 Nov, 09:00 local
const at = (day: number, h: number) => new Date(2026, 10, day, h).toISOString();
let n = 0;
const entry = (over: Partial<JournalEntry>): JournalEntry => ({
  opId: `job:${++n}`,
  time: at(25, 8),
  target: 'sandbox:test',
  operation: 'extend',
  lineId: String(n),
  username: `user${n}`,
  quotedCost: 2,
  estimate: true,
  deducedCredits: 2,
  newBalance: 90,
  outcome: 'applied',
  ...over,
});

async function start(entries: JournalEntry[], deps: Parameters<typeof renderApp>[1] = {}) {
  const journal = memoryJournal();
  journal.entries.push(...entries);
  const app = await renderApp({ lines: 5 }, { journal, now: () => NOW, ...deps });
  await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
  await app.press('nav.journal');
  await app.waitFrame((f) => f.includes('Journal —'));
  return app;
}

describe('the journal view', () => {
  it('shows this account only, says how many of others are left out; a shows every account with its service', async () => {
    const app = await start([
      entry({
        username: 'minehere01',
        months: 3,
        expiryBefore: at(1, 12),
        expiryAfter: at(28, 12),
        connectionsBefore: 1,
        connectionsAfter: 1,
      }),
      entry({
        username: 'shopbline02',
        target: 'https://panel.example#0123456789abcdef',
        service: 'shopB · panel.example',
      }),
      entry({ username: 'oldentry03', target: 'http://127.0.0.1:7411' }), // an earlier version's: URL only
    ]);
    let f = app.frame();
    expect(f).toContain('minehere01');
    expect(f).toMatch(/3mo 2026-11-01→11-28/);
    expect(f).not.toContain('shopbline02');
    expect(f).not.toContain('oldentry03');
    expect(f).toMatch(/Journal — SANDBOX .*left out: 1 of other account, 1 naming no account/);
    await app.press('journal.allAccounts');
    await app.waitFrame((x) => x.includes('shopbline02'));
    f = app.frame();
    expect(f).toMatch(/Journal — every account/);
    expect(f).toContain('SERVICE');
    expect(f).toMatch(/shopB +extend +shopbline02/);
    expect(f).toMatch(/127\.0\.0\.1:.* extend +oldentry03/); // an earlier version's: its host
    expect(f).toMatch(/SANDBOX.*minehere01/);
  });

  it('totals count what was applied and charged, and say what was not; t picks today, yesterday', async () => {
    const app = await start([
      entry({ time: at(24, 10), deducedCredits: 3 }),
      entry({ time: at(24, 11), outcome: 'rejected', deducedCredits: null }),
      entry({ time: at(24, 12), outcome: 'unknown', deducedCredits: null }),
      entry({ time: at(25, 8), deducedCredits: 2, username: 'todayline' }),
    ]);
    expect(app.frame()).toContain(
      'Total: 2 applied · 5 credits charged · 1 not applied (nothing charged) · 1 unknown (not counted)',
    );
    expect(app.frame()).toContain(
      '2026-11-24  extend: 1 applied · 3 credits charged · 1 not applied (nothing charged) · 1 unknown',
    );
    await app.press('journal.period');
    await app.waitFrame((f) => f.includes('· today (local days)'));
    expect(app.frame()).toContain('Total: 1 applied · 2 credits charged');
    expect(app.frame()).toContain('todayline');
    await app.press('journal.period');
    await app.waitFrame((f) => f.includes('· yesterday (local days)'));
    expect(app.frame()).not.toContain('todayline');
    expect(app.frame()).toContain('Total: 1 applied · 3 credits charged');
  });

  it('exports what it shows to exports/, and the flash names both paths whole (home as ~)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'ld-journal-home-'));
    const data = join(home, '.local', 'share', 'linedesk');
    const writeExport = (name: string, content: string) => {
      mkdirSync(join(data, 'exports'), { recursive: true });
      const file = join(data, 'exports', name);
      writeFileSync(file, content);
      return file;
    };
    const app = await start(
      [entry({ username: 'minehere01' }), entry({ username: 'shopbline02', target: 'https://x.example#ab' })],
      { writeExport, homeDir: home },
    );
    await app.press('journal.export');
    await app.waitFrame((f) => f.includes('Exported 1 journal entry'));
    const shown = '~/.local/share/linedesk/exports/journal-20261125-';
    const f = app.frame();
    // Longer than the 100 columns: on two rows, wrapped between words, the paths never cut.
    expect(f).toMatch(new RegExp(`${shown.replace(/[.]/g, '\\.')}\\d{6}\\.csv`));
    expect(f).toMatch(/0 notes to\s+notes-20261125-\d{6}\.csv/);
    const file = join(data, 'exports', (f.match(/journal-20261125-\d{6}\.csv/) ?? [''])[0]);
    const csv = readFileSync(file, 'utf8');
    expect(csv).toContain('minehere01');
    expect(csv).not.toContain('shopbline02'); // the account shown, not every account
  });
});
