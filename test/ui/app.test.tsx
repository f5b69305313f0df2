import { describe, expect, it, vi } from 'vitest';
import { command } from '../../src/commands/keymap';
import { loaded } from '../../src/domain/load';
import { selectDialog } from '../../src/store/view-stack';
import { fitHints } from '../../src/ui/layout/Footer';
import { keyBytes, renderApp, visibleUsernames } from '../helpers/app';
import { appliedJournal } from '../helpers/journal';

describe('the app against the sandbox', () => {
  it('opens on the lines browser with header, position and footer', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => f.includes('1–18 of 60'));
    const f = app.frame();
    expect(f).toContain('demo@sandbox.linedesk');
    expect(f).toContain('1,000 credits');
    expect(f).toContain('60 lines');
    expect(f).toContain('[SANDBOX]');
    expect(f).toContain('USERNAME');
    expect(f).toMatch(/PgDn next page/);
    expect(visibleUsernames(f)).toHaveLength(18);
    // the frame stays below the terminal's height (Ink repaints everything otherwise)
    expect(f.split('\n').length).toBeLessThanOrEqual(23);
  });

  it('pages with the keymap and moves the cursor', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => f.includes('1–18 of 60'));
    const page1 = visibleUsernames(app.frame());
    await app.press('lines.pageNext');
    await app.waitFrame((f) => f.includes('19–36 of 60'));
    const page2 = visibleUsernames(app.frame());
    expect(page2.some((u) => page1.includes(u))).toBe(false);
    await app.press('lines.pagePrev');
    await app.waitFrame((f) => f.includes('1–18 of 60'));
    await app.press('lines.last');
    await app.waitFrame((f) => f.includes('55–60 of 60'));
    await app.press('lines.pageNext');
    await app.waitFrame((f) => f.includes('This is the last page'));
  });

  it('searches as you type, Enter applies, Esc clears', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => f.includes('of 60'));
    const target = visibleUsernames(app.frame())[3]!;
    await app.press('lines.search');
    await app.waitFrame((f) => f.includes('search:'));
    await app.type(target.slice(0, 8));
    await app.waitFrame(
      (f) =>
        f.includes(`search "${target.slice(0, 8)}"`) ||
        visibleUsernames(f).every((u) => u.startsWith(target.slice(0, 8))),
    );
    await app.press('search.apply');
    await app.waitFrame((f) => f.includes(`search "${target.slice(0, 8)}"`));
    expect(visibleUsernames(app.frame())).toContain(target);
    await app.press('lines.search');
    await app.press('search.clear');
    await app.waitFrame((f) => f.includes('1–18 of 60') && !f.includes('search "'));
  });

  it('filters and sorts, always showing them', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => f.includes('of 60'));
    await app.press('lines.filterStatus');
    await app.waitFrame((f) => f.includes('status active'));
    await app.press('lines.filterStatus');
    const rows = (f: string) => f.split('\n').filter((l) => /\d{4}-\d{2}-\d{2}\s*$/.test(l));
    await app.waitFrame(
      (f) => f.includes('status suspended') && !f.includes('loading') && rows(f).length > 0,
    );
    for (const row of rows(app.frame())) expect(row).toContain('suspended');
    await app.press('lines.filterType');
    await app.waitFrame((f) => f.includes('type premium'));
    await app.press('lines.sortColumn');
    await app.waitFrame((f) => f.includes('sort username ↑'));
    await app.press('lines.sortOrder');
    await app.waitFrame((f) => f.includes('sort username ↓') && !f.includes('loading'));
    const names = visibleUsernames(app.frame());
    expect([...names].sort().reverse()).toEqual(names);
  });

  it('marks lines across pages and shows the count', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => f.includes('1–18 of 60'));
    await app.press('lines.mark');
    await app.press('lines.mark');
    await app.waitFrame((f) => f.includes('2 marked'));
    await app.press('lines.pageNext');
    await app.waitFrame((f) => f.includes('19–36 of 60'));
    await app.press('lines.markPage');
    await app.waitFrame((f) => f.includes('20 marked'));
    await app.press('lines.pagePrev');
    await app.waitFrame((f) => f.includes('1–18 of 60'));
    expect(app.frame().match(/●/g)?.length).toBe(2);
    await app.press('lines.markAll');
    await app.waitFrame((f) => f.includes('60 marked'));
  });

  it('opens a line, shows and hides the password, copies (and says where to), goes back', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => f.includes('of 60'));
    const first = loaded(app.store.getState().lines)!.lines[0]!;
    await app.press('lines.open');
    await app.waitFrame((f) => f.includes(`Line ${first.username}`));
    expect(app.frame()).not.toContain(first.password);
    expect(app.frame()).toContain('MAC address');
    await app.press('detail.password');
    await app.waitFrame((f) => f.includes(first.password));
    await app.press('detail.copy');
    await app.waitFrame((f) => f.includes('Copy to the clipboard'));
    await app.press('copy.credentials');
    await app.waitFrame((f) => f.includes('Copied username and password to the test clipboard'));
    expect(app.copied).toEqual([`${first.username}\n${first.password}`]);
    await app.press('app.back');
    await app.waitFrame((f) => f.includes('USERNAME'));
  });

  it('help lists the keys of this screen from the keymap; the palette runs commands', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => f.includes('of 60'));
    await app.press('app.help');
    await app.waitFrame((f) => f.includes('Keys — lines screen'));
    expect(app.frame()).toContain('Status filter');
    // Longer than the screen: it scrolls, down to the keys that work everywhere.
    expect(app.frame()).toMatch(/· 1–\d+ of \d+, ↑\/↓ PgUp\/PgDn scroll/);
    for (let i = 0; i < 10 && !app.frame().includes('Ctrl-C'); i++) {
      const before = app.frame();
      await app.press('help.pageDown');
      await app.waitFrame((f) => f !== before);
    }
    expect(app.frame()).toContain('Ctrl-C');
    await app.press('help.close');
    await app.waitFrame((f) => f.includes('USERNAME'));
    await app.press('app.palette');
    await app.type('pack');
    await app.press('palette.complete');
    await app.waitFrame((f) => f.includes(':packages'));
    await app.press('palette.run');
    await app.waitFrame((f) => f.includes('Premium 12 months'));
    await app.press('nav.bouquets');
    await app.waitFrame((f) => f.includes('Channels (25)') && f.includes('Movies (12)'));
    await app.press('nav.account');
    await app.waitFrame((f) => f.includes('MAG portal') && /\d+ active/.test(f));
    await app.press('app.backOrQuit');
    await app.waitFrame((f) => f.includes('USERNAME'));
  });

  it('an error shows with a retry key, and r retries', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => f.includes('of 60'));
    app.sb.faults.set('error500=1');
    await app.press('lines.filterStatus');
    await app.waitFrame((f) => f.includes('Could not load lines') && f.includes('(r retries)'));
    expect(app.frame()).toMatch(/request [0-9a-f]{8}/);
    app.sb.faults.set('');
    await app.press('app.refresh');
    await app.waitFrame((f) => f.includes('status active') && !f.includes('Could not load'));
  });

  it('a held ↓ arriving as one chunk of repeats moves the cursor by every one, across page edges', async () => {
    const app = await renderApp({ lines: 120 });
    await app.waitFrame((f) => f.includes('1–18 of 120'));
    app.ui.stdin.write(keyBytes(command('lines.down').keys[0]!).repeat(40));
    await vi.waitFor(() => expect(app.store.getState().offset + app.store.getState().cursor).toBe(40));
    await app.waitFrame((f) => f.includes('37–54 of 120'));
  });

  it('6 shows the renewals with their groups and total; below its threshold the balance says low', async () => {
    const app = await renderApp({ lines: 300 });
    await app.waitFrame((f) => f.includes('of 300'));
    app.store.getState().setLowBalance(1_000_000);
    await app.waitFrame((f) => /credits \(low\)/.test(f));
    await app.press('nav.renewals');
    await app.waitFrame((f) => f.includes('── Expiring within 7 days') && f.includes('COST~'));
    expect(app.frame()).toMatch(
      /[\d,]+ lines to renew for 1 month: ~[\d,]+ credits \(estimate\) · the balance covers all/,
    );
    await app.press('renewals.longer');
    await app.waitFrame((f) => f.includes('── Expiring within 14 days'));
    app.store.getState().setLowBalance(null);
    await app.waitFrame((f) => !f.includes('(low)'));
  });

  it('a page turn that fails keeps the page on screen, the failure above it; r retries', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => f.includes('1–18 of 60'));
    const shown = visibleUsernames(app.frame());
    app.sb.faults.set('error500=1');
    await app.press('lines.pageNext');
    await app.waitFrame((f) => f.includes('Could not load lines') && f.includes('(r retries)'));
    // The lines it had are still there, under the failure, and the frame still fits.
    expect(visibleUsernames(app.frame()).slice(0, 5)).toEqual(shown.slice(0, 5));
    expect(app.frame().split('\n').length).toBeLessThanOrEqual(24);
    app.sb.faults.set('');
    await app.press('app.refresh');
    await app.waitFrame((f) => !f.includes('Could not load') && f.includes('1–18 of 60'));
  });

  it('every load fails the same way: what could not load, why, the retry key; r retries (packages)', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => f.includes('of 60'));
    await vi.waitFor(() => expect(app.store.getState().packages.status).toBe('ready'));
    app.sb.faults.set('error500=1');
    await app.press('nav.packages');
    await app.press('app.refresh');
    await app.waitFrame((f) => f.includes('Could not load packages') && f.includes('(r retries)'));
    app.sb.faults.set('');
    await app.press('app.refresh');
    await app.waitFrame((f) => !f.includes('Could not load') && f.includes('NAME'));
  });

  it('the cursor is a character, not only inverse video: visible without colour (NO_COLOR)', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => f.includes('1–18 of 60'));
    const rowOf = (f: string) => f.split('\n').findIndex((l) => l.startsWith('›'));
    const before = rowOf(app.frame());
    expect(before).toBeGreaterThan(0);
    await app.press('lines.down');
    await app.waitFrame((f) => rowOf(f) === before + 1);
  });

  it('a key with no command says so; q on the first screen asks once, then quits', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => f.includes('of 60'));
    await app.type('z');
    await app.waitFrame((f) => f.includes('No command on "z"'));
    await app.press('app.backOrQuit');
    await app.waitFrame((f) => f.includes('Press q again to quit (Ctrl-C quits at once)'));
    expect(app.store.getState().quitRequested).toBe(false);
    await app.press('app.backOrQuit');
    expect(app.store.getState().quitRequested).toBe(true);
  });

  it('/ starts a new search (never appends to the last); Esc on the lines clears an applied one', async () => {
    const app = await renderApp({}, { searchDebounceMs: 60_000 });
    await app.waitFrame((f) => f.includes('of 60'));
    const who = loaded(app.store.getState().lines)!.lines[2]!.username;
    await app.press('lines.search');
    await app.type(who);
    await app.press('search.apply');
    await app.waitFrame((f) => f.includes(`search "${who}"`));
    await app.press('lines.search');
    expect(app.store.getState().searchDraft).toBe('');
    await app.type('x');
    expect(app.store.getState().searchDraft).toBe('x');
    await app.press('search.clear');
    await app.waitFrame((f) => f.includes('of 60'));
    // Applied again, then Esc on the browser itself.
    await app.press('lines.search');
    await app.type(who);
    await app.press('search.apply');
    await app.waitFrame((f) => f.includes(`search "${who}"`));
    await app.press('app.back');
    await app.waitFrame((f) => f.includes('of 60') && !f.includes('search "'));
  });

  it('server strings cannot act on the terminal: an escape in a label is shown as a placeholder', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => f.includes('of 60'));
    const line = loaded(app.store.getState().lines)!.lines[0]!;
    app.sb.repo.db.prepare('UPDATE lines SET label = ? WHERE id = ?').run('\u001b]0;pwned\u0007TV', line.id);
    await app.press('app.refresh');
    await app.waitFrame((f) => f.includes('\uFFFD]0;pwned\uFFFDTV'));
    expect(app.ui.lastFrame()).not.toContain('\u001b]0;');
  });
});

describe('the keys a screen shows are the keys that work there', () => {
  it('line detail: help lists the line changes and the copy menu under its heading; e works there', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    await app.press('lines.open');
    await app.waitFrame((f) => f.includes('Password'));
    await app.press('app.help');
    await app.waitFrame((f) => f.includes('Keys — detail screen'));
    const help = app.frame();
    for (const label of [
      'Extend',
      'Change connections',
      'Unsuspend',
      'Delete',
      'New line',
      'Copy menu (after y)',
    ])
      expect(help, label).toContain(label);
    await app.press('help.close');
    await app.waitFrame((f) => !f.includes('Keys — detail screen'));
    await app.press('line.extend');
    await app.waitFrame((f) => /Extend .* by/.test(f) || f.includes('Trial lines cannot be extended'));
  });

  it('marks view: e, u, s and d open the bulk job over the marks', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    await app.press('lines.mark');
    await app.press('lines.down');
    await app.press('lines.mark');
    await app.press('lines.marks');
    await app.waitFrame((f) => f.includes('Marked lines: 2'));
    expect(app.frame()).toContain('e extend · u connections · s unsuspend · d delete');
    // The browser's columns, headed, for the marked lines.
    expect(app.frame()).toMatch(/USERNAME .*STATUS .*EXPIRES/);
    await app.press('line.extend');
    await vi.waitFor(() => expect(selectDialog(app.store.getState())).toBe('bulk'));
    expect(app.store.getState().bulk?.job.op).toBe('extend');
  });
});

describe('the footer shows what works now', () => {
  it('read-only: no change and no marking is offered, and Space does not mark', async () => {
    const app = await renderApp({}, { readOnly: true });
    await app.waitFrame((f) => f.includes('[READ-ONLY]'));
    const footer = app.frame().split('\n').at(-1)!;
    for (const offered of ['extend', 'new line', 'mark']) expect(footer, offered).not.toContain(offered);
    expect(footer).toContain('PgDn next page');
    await app.press('lines.mark');
    await app.waitFrame((f) => f.includes('Read-only mode'));
    expect(app.store.getState().marked.size).toBe(0);
  });

  it('whole hints only, whatever the width', () => {
    const hints = ['Enter open the line', 'PgDn next page', '? help'];
    expect(fitHints(hints, 200)).toBe(' Enter open the line  PgDn next page  ? help');
    expect(fitHints(hints, 30)).toBe(' Enter open the line');
    expect(fitHints(hints, 5)).toBe('');
  });
});

describe('the account summary', () => {
  it('statuses and types on their own rows, numbers grouped', async () => {
    const app = await renderApp({ lines: 1200 });
    await app.waitFrame((f) => /of 1,200/.test(f));
    expect(app.frame()).toContain('1,200 lines');
    await app.press('nav.account');
    await app.waitFrame((f) => f.includes('By type') && /By status\s+[\d,]+ active/.test(f));
    const status = app
      .frame()
      .split('\n')
      .find((l) => l.includes('By status'))!;
    expect(status).not.toContain('premium');
    expect(status).toMatch(/[\d,]+ expired/);
    expect(app.frame()).toMatch(/Lines\s+1,200/);
    // The packages table, headed, with what the balance affords.
    await app.waitFrame((f) => /NAME .*COST .*AFFORDS/.test(f) && /1 month\s+\d/.test(f));
  });
});

describe('keys that used to do the wrong thing', () => {
  it('the sorted column carries the marker (↑/↓) in its header', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => f.includes('of 60'));
    expect(app.frame()).not.toMatch(/USERNAME [↑↓]/);
    await app.press('lines.sortColumn'); // id → username
    await app.waitFrame((f) => f.includes('USERNAME ↑'));
    await app.press('lines.sortOrder');
    await app.waitFrame((f) => f.includes('USERNAME ↓'));
  });

  it('Backspace (0x7F) on the lines browser does not open Delete', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => f.includes('of 60'));
    app.ui.stdin.write('\u007f');
    await app.type('z'); // a key after it, to know the Backspace was handled
    await app.waitFrame((f) => f.includes('No command on "z"'));
    expect(selectDialog(app.store.getState())).toBeNull();
  });

  it('Ctrl-G alone in the username field fills a random valid username, never a "g"', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => f.includes('of 60'));
    await app.press('line.create');
    await app.waitFrame((f) => f.includes('New line —'));
    await app.press('form.next');
    await app.press('form.next'); // username
    await vi.waitFor(() => expect(app.store.getState().form?.focus).toBe('username'));
    app.ui.stdin.write('\u0007');
    await vi.waitFor(() =>
      expect(String(app.store.getState().form?.values.username ?? '')).toMatch(/^[a-zA-Z0-9]{8,}$/),
    );
  });
});

describe('the line detail says why a line does not work', () => {
  it('a suspended line: the diagnosis names it and the key that fixes it', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => f.includes('of 60'));
    await app.press('lines.filterStatus'); // active
    await app.press('lines.filterStatus'); // suspended
    await app.waitFrame((f) => f.includes('status suspended') && !f.includes('loading'));
    await app.press('lines.open');
    await app.waitFrame((f) => f.includes('Diagnosis'));
    expect(app.frame()).toMatch(/Diagnosis\s+suspended.*s unsuspends/);
  });
});

describe('long lists scroll', () => {
  it('the journal: 60 entries, PgDn shows older ones; the bulk preview of 60 lines scrolls too', async () => {
    const journal = appliedJournal(60);
    const app = await renderApp({}, { journal });
    await app.waitFrame((f) => f.includes('of 60'));
    await app.press('nav.journal');
    await app.waitFrame((f) => /Journal — .* 60 entries/.test(f) && f.includes('user059'));
    expect(app.frame()).toMatch(/· 1–\d+ of 60/);
    // A page is the entries in view less one kept in sight.
    const page = app.store.getState().drawn.journal!.rows - 1;
    const first = `user${String(59 - page).padStart(3, '0')}`;
    await app.press('journal.pageDown');
    await app.waitFrame((f) => f.includes(`· ${page + 1}–`) && f.includes(first) && !f.includes('user059'));

    await app.press('nav.lines');
    await app.press('lines.markAll');
    await app.waitFrame((f) => f.includes('60 marked'));
    await app.press('line.unsuspend');
    await app.waitFrame((f) => /lines 1–\d+ of 60/.test(f));
    const linesPage = app.store.getState().drawn.bulk!.rows - 1;
    await app.press('bulk.pageDown');
    await app.waitFrame((f) => f.includes(`lines ${linesPage + 1}–`));
  });
});

describe('marking every matching line', () => {
  it('shows its progress while it walks the pages, and A again stops it', async () => {
    const app = await renderApp({ lines: 1200 });
    await app.waitFrame((f) => /of 1,200/.test(f));
    app.sb.faults.set('latency=150'); // 12 pages: well over a second, time to see it and stop it
    await app.press('lines.markAll');
    await app.waitFrame((f) => /marking [\d,]+ of 1,200… \(A again stops\)/.test(f));
    await app.press('lines.markAll');
    await vi.waitFor(() => expect(app.store.getState().markingAll).toBeNull());
    app.sb.faults.set('');
    expect(app.store.getState().marked.size).toBeLessThan(1200);
  });
});
