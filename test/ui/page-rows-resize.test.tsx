/**
 * The scroll keys of the bulk dialog, the journal and help, frame by frame across a resize: the first
 * frame at a new size does not decide them on the count of rows drawn at the size before. Each frame
 * is read with the store it was drawn from (a frame is written as it is committed): its footer offers
 * the page-down key only when that key would scroll (the store says so and some of the list is out of
 * view on it), and when it does not, the store's reason is not "every row in view" while some are not,
 * nor "no row in view" while rows are drawn (a count of another size is no count: unknown yet, as on
 * the frame that first draws a list, and the reason says the view is being drawn at its new size).
 * The renewals' page keys, pressed in the frame after a resize, do not move by the old size's page.
 */
import { describe, expect, it } from 'vitest';
import { type CommandId, command, keyHintText } from '../../src/commands/keymap';
import { memoryJournal } from '../../src/services/changes/journal';
import type { AppState } from '../../src/store/app-store';
import { selectRenewalsPlan } from '../../src/store/renewals-slice';
import { renderApp } from '../helpers/app';
import { openBulkPreview } from '../helpers/bulk-preview';
import { appliedJournal } from '../helpers/journal';
import { resize } from '../helpers/resize';

type App = Awaited<ReturnType<typeof renderApp>>;

const plain = (f: string) => f.replace(/\u001b\[[0-9;]*m/g, '');
const footerOf = (f: string) => f.trimEnd().split('\n').at(-1) ?? '';

interface Drawn {
  readonly frame: string;
  /** Why the page-down key would move nothing in the store this frame was drawn from, or null. */
  readonly why: string | null;
}

/** From now on, each frame with the page-down key's reason in the store as the frame is written. */
function recordFrames(app: App, pageDown: CommandId): Drawn[] {
  const drawn: Drawn[] = [];
  const stdout = app.ui.stdout as unknown as { write: (frame: string) => void };
  const write = stdout.write;
  stdout.write = (frame: string) => {
    const s: AppState = app.store.getState();
    drawn.push({ frame: plain(frame), why: command(pageDown).disabled?.(s) ?? null });
    write(frame);
  };
  return drawn;
}

/**
 * Every frame drawn: its footer offers `pageDown` exactly when the store says the key scrolls, and
 * then some of the list is out of view on it (`outOfView`); a reason saying every row is in view
 * comes only with every row in view.
 */
function expectTruthfulFrames(
  drawn: readonly Drawn[],
  pageDown: CommandId,
  outOfView: (f: string) => boolean,
) {
  const key = keyHintText(pageDown);
  expect(drawn.length).toBeGreaterThan(0);
  for (const { frame, why } of drawn) {
    const offered = footerOf(frame).includes(key);
    expect(offered, `the footer and the store disagree on ${key} (${why})`).toBe(why === null);
    if (offered) expect(outOfView(frame), `${key} offered with every row in view:\n${frame}`).toBe(true);
    if (why?.startsWith('Every'))
      expect(outOfView(frame), `"${why}" with some rows out of view:\n${frame}`).toBe(false);
    // Every frame these tests read draws rows of the list.
    expect(why ?? '', `a reason saying no row is in view, with rows drawn:\n${frame}`).not.toMatch(/^No /);
  }
}

/** The size is changed and the frames until `settled` (the new size drawn, its keys decided) are read. */
async function resizeAndRead(
  app: App,
  size: readonly [number, number],
  pageDown: CommandId,
  settled: (f: string) => boolean,
): Promise<Drawn[]> {
  const drawn = recordFrames(app, pageDown);
  resize(app, ...size);
  await app.waitFrame(settled);
  return drawn;
}

const TALL = [200, 40] as const;
const SHORT = [200, 14] as const;

describe('the journal across a resize', () => {
  const pgDn = keyHintText('journal.pageDown');
  const outOfView = (f: string) => / · 1–\d+ of 13/.test(f);
  const open = async (size: readonly [number, number]) => {
    const app = await renderApp({ lines: 40 }, { journal: appliedJournal(13) });
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    resize(app, ...size);
    await app.press('nav.journal');
    await app.waitFrame((f) => f.includes('13 entries'));
    return app;
  };

  it('grown until every entry fits: no frame offers PgDn', async () => {
    const app = await open(SHORT);
    await app.waitFrame((f) => outOfView(f) && footerOf(f).includes(pgDn));
    const drawn = await resizeAndRead(app, TALL, 'journal.pageDown', (f) => f.includes('user000'));
    expectTruthfulFrames(drawn, 'journal.pageDown', outOfView);
    expect(footerOf(app.frame())).not.toContain(pgDn);
  });

  it('shrunk until some are out of view: no frame says every entry is in view', async () => {
    const app = await open(TALL);
    await app.waitFrame((f) => f.includes('user000') && !footerOf(f).includes(pgDn));
    const drawn = await resizeAndRead(app, SHORT, 'journal.pageDown', (f) => footerOf(f).includes(pgDn));
    expectTruthfulFrames(drawn, 'journal.pageDown', outOfView);
    expect(outOfView(app.frame())).toBe(true);
  });

  it('a scroll key pressed in the frame after a resize says why it waits, then works', async () => {
    const app = await open(SHORT);
    await app.waitFrame((f) => outOfView(f) && footerOf(f).includes(pgDn));
    resize(app, 200, 15);
    // The store has the new size, the list has not been drawn at it yet.
    expect(command('journal.pageDown').disabled?.(app.store.getState())).toMatch(
      /being drawn at its new size/,
    );
    await app.press('journal.pageDown');
    expect(app.store.getState().flash?.text).toMatch(/being drawn at its new size/);
    expect(app.store.getState().scroll.journal).toBe(0);
    await app.waitFrame((f) => footerOf(f).includes(pgDn));
    await app.press('journal.pageDown');
    await app.waitFrame(() => app.store.getState().scroll.journal > 0);
  });
});

describe('help across a resize', () => {
  const pgDn = keyHintText('help.pageDown');
  const outOfView = (f: string) => /Keys — .* · \d+–\d+ of \d+/.test(f);
  const open = async (size: readonly [number, number]) => {
    const app = await renderApp({ lines: 40 }, { journal: memoryJournal() });
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    resize(app, ...size);
    await app.press('app.help');
    await app.waitFrame((f) => f.includes('Keys — lines screen'));
    return app;
  };

  it('grown until every key fits: no frame offers PgDn', async () => {
    const app = await open([200, 30]);
    await app.waitFrame((f) => outOfView(f) && footerOf(f).includes(pgDn));
    const drawn = await resizeAndRead(app, [200, 100], 'help.pageDown', (f) => !outOfView(f));
    expectTruthfulFrames(drawn, 'help.pageDown', outOfView);
    expect(footerOf(app.frame())).not.toContain(pgDn);
  });

  it('shrunk until some are out of view: no frame says every key is in view', async () => {
    const app = await open([200, 100]);
    await app.waitFrame((f) => f.includes('Keys — lines screen') && !outOfView(f));
    const drawn = await resizeAndRead(app, [200, 30], 'help.pageDown', (f) => footerOf(f).includes(pgDn));
    expectTruthfulFrames(drawn, 'help.pageDown', outOfView);
    expect(outOfView(app.frame())).toBe(true);
  });
});

describe('the bulk dialog across a resize', () => {
  const pgDn = keyHintText('bulk.pageDown');
  // The page marked at the short size: every marked line fits the tall one.
  const open = async () => {
    const app = await renderApp({ lines: 40 }, { journal: memoryJournal() });
    await openBulkPreview(app, { mark: 'page', premium: true, size: SHORT });
    await app.waitFrame((f) => f.includes('marked lines by') && f.includes('Total'));
    // A marked line is out of view when its username is not drawn (the dialog fills the body).
    const usernames = app.store.getState().bulk!.job.lines.map((l) => l.username);
    expect(usernames.length).toBeGreaterThan(3);
    return { app, outOfView: (f: string) => usernames.some((u) => !f.includes(u)) };
  };

  it('grown until every line fits: no frame offers PgDn', async () => {
    const { app, outOfView } = await open();
    await app.waitFrame((f) => outOfView(f) && footerOf(f).includes(pgDn));
    const drawn = await resizeAndRead(app, TALL, 'bulk.pageDown', (f) => !outOfView(f));
    expectTruthfulFrames(drawn, 'bulk.pageDown', outOfView);
    expect(footerOf(app.frame())).not.toContain(pgDn);
  });

  it('shrunk until some are out of view: no frame says every line is in view', async () => {
    const { app, outOfView } = await open();
    resize(app, ...TALL);
    await app.waitFrame((f) => !outOfView(f) && !footerOf(f).includes(pgDn));
    const drawn = await resizeAndRead(app, SHORT, 'bulk.pageDown', (f) => footerOf(f).includes(pgDn));
    expectTruthfulFrames(drawn, 'bulk.pageDown', outOfView);
    expect(outOfView(app.frame())).toBe(true);
  });
});

describe('the renewals across a resize', () => {
  it("a page key pressed in the frame after a resize never moves by the old size's page", async () => {
    const app = await renderApp({ lines: 600 });
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    resize(app, 120, 60);
    await app.press('nav.renewals');
    const s = () => app.store.getState();
    await app.waitFrame(() => s().renewals.status === 'ready' && (s().drawn.renewals?.rows ?? 0) > 30);
    expect(selectRenewalsPlan(s())!.rows.length).toBeGreaterThan(100);
    resize(app, 120, 20);
    await app.press('renewals.pageDown');
    // Refused with the reason (the new size's page is not known until the view is drawn at it)…
    expect(s().renewalsCursor).toBe(0);
    expect(s().flash?.text).toMatch(/being drawn at its new size/);
    // …and once it is, a page is the new size's.
    await app.waitFrame(() => command('renewals.pageDown').disabled?.(s()) == null);
    const shown = s().drawn.renewals!.rows;
    expect(shown).toBeLessThan(20);
    await app.press('renewals.pageDown');
    await app.waitFrame(() => s().renewalsCursor === shown - 1);
  });
});
