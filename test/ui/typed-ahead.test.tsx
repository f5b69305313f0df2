import { describe, expect, it } from 'vitest';
import { loaded } from '../../src/domain/load';
import { BURST_GAP_MS, CONFIRM_ARM_MS } from '../../src/keys/confirm-gate';
import { selectDialog, selectScreen } from '../../src/store/view-stack';
import { renderApp } from '../helpers/app';
import { resize } from '../helpers/resize';
import { books } from '../helpers/sandbox';

// Keys as SSH delivers them: several in one read. Each test writes a burst in ONE stdin write (one
// read for Ink), or key by key with the store's clock moved on between them, and asks the sandbox's
// ledger what was charged. The clock is the test's: it moves only when a test moves it.

/** The app on a premium-filtered browser (every line can be extended), its clock frozen. */
async function onPremium(opts: Parameters<typeof renderApp>[0] = {}) {
  const app = await renderApp(opts, { now: () => 1_900_000_000_000 });
  await app.waitFrame((f) => /1–\d+ of 60/.test(f));
  await app.press('lines.filterType'); // premium
  await app.waitFrame((f) => f.includes('type premium') && !f.includes('loading'));
  app.clock.advance(1_000);
  return app;
}

/** Resizes the test terminal (ink-testing-library's is 100 columns and has no rows). */
describe('keys typed ahead never confirm a change', () => {
  it('e and Enter in one read: the Enter is dropped and said; nothing charged; a deliberate Enter charges once', async () => {
    const app = await onPremium();
    app.ui.stdin.write('e\r');
    await app.waitFrame((f) => f.includes('estimate from package prices') && f.includes('1 key typed ahead'));
    expect(app.store.getState().action?.phase).toBe('review');
    expect(books(app.sb).ledger).toHaveLength(0);
    const cost = Number(/Cost\s+(\d+) credits?/.exec(app.frame())![1]);
    await app.confirm('action.confirm');
    await app.waitFrame((f) => f.includes('Charged'));
    expect(books(app.sb).ledger).toHaveLength(1);
    expect(books(app.sb).spent).toBe(cost);
  });

  it('e, then Enter 50 ms later: the dialog stays and asks for Enter again; nothing charged', async () => {
    const app = await onPremium();
    await app.press('line.extend');
    await app.waitFrame((f) => f.includes('estimate from package prices'));
    app.clock.advance(50);
    await app.press('action.confirm');
    await app.waitFrame((f) => f.includes('press Enter again to confirm'));
    expect(app.store.getState().action?.phase).toBe('review');
    expect(books(app.sb).ledger).toHaveLength(0);
    // Read, then pressed on purpose: one request, one charge.
    await app.confirm('action.confirm');
    await app.waitFrame((f) => f.includes('Charged'));
    expect(books(app.sb).ledger).toHaveLength(1);
  });

  it('Enter after the arm delay but at the tail of a burst of typing does not confirm', async () => {
    const app = await onPremium();
    await app.press('line.extend');
    await app.waitFrame((f) => f.includes('estimate from package prices'));
    app.clock.advance(CONFIRM_ARM_MS);
    await app.type('xyz'); // no command in the dialog: typing meant for somewhere else
    app.clock.advance(BURST_GAP_MS - 60);
    await app.press('action.confirm');
    await app.waitFrame((f) => f.includes('press Enter again to confirm'));
    expect(books(app.sb).ledger).toHaveLength(0);
  });

  it('a username typed into the browser without / (80 ms apart, then Enter): nothing charged', async () => {
    const app = await onPremium();
    for (const ch of 'jeremy') {
      await app.type(ch);
      app.clock.advance(80);
    }
    await app.press('action.confirm');
    await app.waitFrame((f) => f.includes('press Enter again to confirm'));
    expect(books(app.sb).ledger).toHaveLength(0);
  });

  it('a username and Enter typed into the browser in one read: nothing charged, the keys said dropped', async () => {
    const app = await onPremium();
    app.ui.stdin.write('jeremy\r');
    await app.waitFrame((f) => f.includes('5 keys typed ahead'));
    expect(books(app.sb).ledger).toHaveLength(0);
  });

  it("Esc and Enter in one read in the dialog (Ink reads them as Alt+Enter): Esc closes it, Enter is the browser's", async () => {
    const app = await onPremium();
    await app.press('line.extend');
    await app.waitFrame((f) => f.includes('estimate from package prices'));
    app.clock.advance(CONFIRM_ARM_MS);
    app.ui.stdin.write('\u001b\r');
    await app.waitFrame((f) => !f.includes('estimate from package prices'));
    expect(app.store.getState().action).toBeNull();
    expect(selectScreen(app.store.getState()).id).toBe('detail'); // Enter opens the line
    expect(books(app.sb).ledger).toHaveLength(0);
  });
});

describe('every line marked, a command typed fast', () => {
  it('Esc, : and a command in one read: the palette opens and takes the text; no bulk job starts', async () => {
    const app = await onPremium();
    await app.press('lines.markAll');
    await app.waitFrame((f) => /\d+ marked/.test(f));
    // `extent` is no command (`:extend` is one now, and opens the preview as `e` does): had its
    // letters gone to the browser, `e` would have opened the bulk preview.
    app.ui.stdin.write('\u001b:extent\r');
    await app.waitFrame((f) => f.includes('Unknown command "extent"') && !f.includes('marked lines by'));
    expect(app.store.getState().bulk).toBeNull();
    expect(books(app.sb).ledger).toHaveLength(0);
    // What Esc does here and then the palette: the text went to the palette, not to browser keys.
    app.ui.stdin.write('\u001b:unm');
    await app.waitFrame((f) => f.includes(':unm'));
    expect(selectDialog(app.store.getState())).toBe('palette');
  });

  it('e, a and Enter in one read: the preview opens untouched; nothing starts; a deliberate Enter starts it', async () => {
    const app = await onPremium();
    await app.press('lines.markPage');
    await app.waitFrame((f) => /\d+ marked/.test(f));
    app.ui.stdin.write('ea\r');
    await app.waitFrame((f) => f.includes('marked lines by') && f.includes('2 keys typed ahead'));
    expect(app.store.getState().bulk?.phase).toBe('preview');
    expect(app.store.getState().bulk?.onlyAffordable).toBe(false);
    expect(books(app.sb).ledger).toHaveLength(0);
    await app.confirm('bulk.start');
    await app.waitFrame((f) => f.includes('Finished'));
    expect(books(app.sb).ledger.length).toBeGreaterThan(0);
  });
});

describe('a dialog too small to show its cost cannot be confirmed', () => {
  it('at 70×10 (below the smallest terminal) the extend dialog is not shown, and Enter charges nothing; taller, it confirms', async () => {
    const app = await onPremium();
    const line = loaded(app.store.getState().lines)!.lines[0]!;
    await app.press('line.extend');
    await app.waitFrame((f) => f.includes(`Extend ${line.username}`) && f.includes('Cost'));
    resize(app, 70, 10);
    await app.waitFrame((f) => /needs at least/i.test(f) && !f.includes('Cost'));
    expect(app.frame()).not.toContain('Enter confirms');
    await app.confirm('action.confirm');
    await app.waitFrame((f) => /needs at least/i.test(f));
    expect(app.store.getState().action?.phase).toBe('review');
    expect(books(app.sb).ledger).toHaveLength(0);
    resize(app, 70, 24);
    await app.waitFrame((f) => f.includes('Cost') && f.includes('Balance'));
    await app.confirm('action.confirm');
    await app.waitFrame((f) => f.includes('Charged'));
    expect(books(app.sb).ledger).toHaveLength(1);
  });

  it('a delete confirmed by typing: the username and Enter in one read do not delete; a deliberate Enter does', async () => {
    const app = await onPremium();
    const line = loaded(app.store.getState().lines)!.lines[0]!;
    await app.press('line.delete');
    await app.waitFrame((f) => f.includes('Type the username'));
    app.clock.advance(CONFIRM_ARM_MS * 4); // the dialog has long been on screen
    // Typed text is keys too: the Enter at its tail comes in the same burst.
    app.ui.stdin.write(`${line.username}\r`);
    await app.waitFrame((f) => f.includes('press Enter again to confirm'));
    expect(app.store.getState().action?.phase).toBe('review');
    expect(app.sb.repo.db.prepare('SELECT 1 FROM lines WHERE id = ?').get(line.id)).toBeTruthy();
    await app.confirm('action.confirm');
    await app.waitFrame(() => app.store.getState().action?.phase === 'done');
    expect(app.sb.repo.db.prepare('SELECT 1 FROM lines WHERE id = ?').get(line.id)).toBeUndefined();
  });
});
