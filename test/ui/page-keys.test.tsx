/**
 * The page keys of the find screen, the message picker, a command's output pager, the journal and help
 * move by a page
 * of what the view drew (its rows in view less one kept in sight, ui-slice `pageRows`), not by a fixed
 * count; pressed in the frame after a resize they wait for the view drawn at the new size (never a page
 * of the size before); and they are offered only while some of the list is out of view.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findAcrossApi } from '../../src/app/find-across';
import { runProgram } from '../../src/app/run-program';
import { type CommandId, command, keyHintText } from '../../src/commands/keymap';
import { applyUserKeys } from '../../src/commands/user-keys';
import { loadTemplates } from '../../src/domain/templates';
import { memoryJournal } from '../../src/services/changes/journal';
import { cursorIndex } from '../../src/services/find-lines';
import type { AppState } from '../../src/store/app-store';
import { selectFindRows } from '../../src/store/find-slice';
import { loaded } from '../../src/store/types';
import { type PagedArea, pageRows } from '../../src/store/ui-slice';
import { renderApp } from '../helpers/app';
import { appliedJournal } from '../helpers/journal';
import { resize } from '../helpers/resize';
import { sandbox } from '../helpers/sandbox';

type App = Awaited<ReturnType<typeof renderApp>>;

const footerOf = (f: string) => f.trimEnd().split('\n').at(-1) ?? '';
const why = (app: App, id: CommandId) => command(id).disabled?.(app.store.getState()) ?? null;

/** The rows `area` was last drawn with (its count in the store), once drawn at the size now. */
async function drawnRows(app: App, area: PagedArea, pageDown: CommandId): Promise<number> {
  await app.waitFrame(() => why(app, pageDown) === null);
  return app.store.getState().drawn[area]!.rows;
}

/**
 * At a small terminal: PgDn moves `at` by the drawn rows less one (not by ten), PgUp back. Then after
 * a resize: a PgDn in the frame before the view is drawn at the new size moves nothing and says why;
 * once drawn, it moves by the new size's page.
 */
async function pagesByDrawnRows(
  app: App,
  area: PagedArea,
  keys: { readonly down: CommandId; readonly up: CommandId },
  at: (s: AppState) => number,
  /** The terminal's rows after the resize. */
  resizedTo = 30,
) {
  const s = () => app.store.getState();
  const shown = await drawnRows(app, area, keys.down);
  // A page that a fixed count of ten would also move by proves nothing.
  expect(shown - 1).not.toBe(10);
  expect(shown).toBeGreaterThan(2);
  const from = at(s());
  await app.press(keys.down);
  await app.waitFrame(() => at(s()) === from + shown - 1);
  await app.press(keys.up);
  await app.waitFrame(() => at(s()) === from);

  resize(app, 100, resizedTo);
  // The store has the new size; the view has not been drawn at it yet.
  expect(why(app, keys.down)).toMatch(/being drawn at its new size/);
  await app.press(keys.down);
  expect(at(s())).toBe(from);
  expect(s().flash?.text).toMatch(/being drawn at its new size/);
  const taller = await drawnRows(app, area, keys.down);
  expect(taller).toBeGreaterThan(shown);
  expect(taller - 1).not.toBe(10);
  await app.press(keys.down);
  await app.waitFrame(() => at(s()) === from + taller - 1);
}

describe('the find screen', () => {
  /** The app with one service to find in (the sandbox in use), at 100 × 16. */
  async function findApp() {
    const env = await sandbox({ lines: 120 });
    const app = await renderApp(
      {},
      {
        findAcross: findAcrossApi({
          userAgent: 'linedesk-test',
          current: { profile: 'alpha', label: 'alpha', baseUrl: env.sb.baseUrl, client: env.client },
          configPath: join(mkdtempSync(join(tmpdir(), 'ld-pages-find-')), 'config.json'),
        }),
      },
      env,
    );
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    resize(app, 100, 16);
    const find = async (text: string) => {
      await app.press('app.palette');
      await app.type(`find ${text}`);
      await app.press('palette.run');
      await app.waitFrame((f) => f.includes(`Find "${text}"`) && !f.includes('searching…'));
    };
    return { app, find };
  }
  const cursorAt = (s: AppState) => cursorIndex(selectFindRows(s), s.findCursor);

  it('PgDn/PgUp move the cursor by the rows drawn, at a small size and after a resize', async () => {
    const { app, find } = await findApp();
    // Every seeded username holds its number padded with zeros: a hundred matches.
    await find('00');
    const matches = selectFindRows(app.store.getState()).length;
    expect(matches).toBeGreaterThanOrEqual(20);
    // Grown a little: a page there still ends among the matches.
    await pagesByDrawnRows(app, 'find', { down: 'find.pageDown', up: 'find.pageUp' }, cursorAt, 20);
    expect(cursorAt(app.store.getState())).toBeLessThan(matches - 1);
  });

  it('PgDn over groups with a heading and a note each draws every match: a page is of rows drawn, not of matches', async () => {
    const { app, find } = await findApp();
    await find('00');
    const s = () => app.store.getState();
    // Groups of three matches, each under its heading and a note: a page of matches would move the
    // view by more than the rows it draws, and the matches between never show.
    const lines = loaded(s().lines)!.lines.slice(0, 24);
    const groups = Array.from({ length: 8 }, (_, g) => ({
      source: { id: `s${g}`, name: `service ${g}`, host: 'h', profile: null, isCurrent: g === 0 },
      load: {
        status: 'ready' as const,
        data: { lines: lines.slice(g * 3, g * 3 + 3), total: 3, note: `a note of group ${g}` },
      },
    }));
    app.store.setState({ findGroups: groups, findCursor: null });
    const seen = new Set<string>();
    const cursorLine = (f: string) => f.split('\n').find((l) => l.trimStart().startsWith('›')) ?? '';
    let previous = -1;
    for (let i = 0; i < 20 && cursorAt(s()) !== previous; i++) {
      previous = cursorAt(s());
      const name = selectFindRows(s())[previous]!.line.username;
      await app.waitFrame((f) => cursorLine(f).includes(name));
      for (const l of lines) if (app.frame().includes(l.username)) seen.add(l.username);
      if (why(app, 'find.pageDown') !== null) await app.waitFrame(() => why(app, 'find.pageDown') === null);
      await app.press('find.pageDown');
    }
    expect(cursorAt(s())).toBe(lines.length - 1);
    expect(lines.filter((l) => !seen.has(l.username)).map((l) => l.username)).toEqual([]);
  });

  it('with every match in view the page keys are not offered', async () => {
    const { app, find } = await findApp();
    const first = loaded(app.store.getState().lines)!.lines[0]!.username;
    await find(first);
    await app.waitFrame(() => app.store.getState().drawn.find !== undefined);
    expect(why(app, 'find.pageDown')).toMatch(/in view: nothing to/);
    expect(why(app, 'find.pageUp')).toMatch(/in view: nothing to/);
  });
});

describe('the message picker', () => {
  const many = loadTemplates(
    Array.from({ length: 30 }, (_, i) => ({
      id: `t${i}`,
      name: `Template ${i}`,
      body: `Hello {USERNAME} ${i}`,
    })),
  );
  const open = async (templates: ReturnType<typeof loadTemplates>, rows = 16) => {
    const app = await renderApp({ lines: 40 }, { templates });
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    resize(app, 100, rows);
    await app.press('line.copy');
    await app.waitFrame((f) => f.includes('Copy to the clipboard'));
    await app.press('copy.message');
    await app.waitFrame((f) => f.includes('Customer message for') && f.includes('Preview'));
    return app;
  };

  it('PgDn/PgUp move by the templates drawn, at a small size and after a resize', async () => {
    const app = await open(many);
    await pagesByDrawnRows(
      app,
      'message',
      { down: 'message.pageDown', up: 'message.pageUp' },
      (s) => s.messages?.cursor ?? -1,
    );
  });

  it('with every template in view the page keys are not offered', async () => {
    // One of yours beside the defaults, at a size where all of them fit.
    const few = loadTemplates([{ id: 'a', name: 'Only one', body: 'Hi {USERNAME}' }]);
    const app = await open(few, 60);
    expect(app.store.getState().templates.length).toBeLessThan(10);
    await app.waitFrame(() => app.store.getState().drawn.message !== undefined);
    expect(why(app, 'message.pageDown')).toMatch(/in view: nothing to/);
  });
});

describe("a command's output pager", () => {
  const open = async (lines: number) => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-pages-out-'));
    const file = join(dir, 'print.cjs');
    writeFileSync(file, `for (let i = 0; i < ${lines}; i++) console.log('row ' + i);`);
    const userKeys = applyUserKeys(
      { commands: [{ name: 'rows', key: 'W', scope: 'line', program: process.execPath, args: [file] }] },
      'config.json',
    );
    const app = await renderApp({ lines: 40 }, { userKeys, runProgram });
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    resize(app, 100, 16);
    app.ui.stdin.write('W');
    await app.waitFrame((f) => f.includes('exit 0'));
    return app;
  };

  it('PgDn/PgUp scroll by the rows drawn, at a small size and after a resize', async () => {
    const app = await open(120);
    await pagesByDrawnRows(app, 'output', { down: 'output.pageDown', up: 'output.pageUp' }, (s) =>
      s.userRun ? s.scroll.output : -1,
    );
  });

  it("a new run never pages on the last run's count: the keys wait for its own output drawn", async () => {
    const app = await open(120);
    const s = () => app.store.getState();
    await drawnRows(app, 'output', 'output.pageDown');
    await app.press('output.pageDown');
    await app.waitFrame(() => s().scroll.output > 0);
    await app.press('output.close');
    await app.waitFrame(() => s().userRun === null);
    // The next run opens (the same size of output): its first frame has not been drawn yet.
    s().runUserCommand('rows');
    expect(s().scroll.output).toBe(0);
    expect(why(app, 'output.pageDown')).toMatch(/being drawn/);
    await app.press('output.pageDown');
    expect(s().scroll.output).toBe(0);
    await app.waitFrame((f) => f.includes('exit 0'));
    expect(s().scroll.output).toBe(0);
  });

  it('with all of the output in view PgDn is not offered, nor the scroll keys named', async () => {
    const app = await open(2);
    await app.waitFrame((f) => f.includes('row 1'));
    await app.waitFrame(() => app.store.getState().drawn.output !== undefined);
    expect(why(app, 'output.pageDown')).toMatch(/in view: nothing to/);
    expect(footerOf(app.frame())).not.toContain(keyHintText('output.pageDown'));
    expect(app.frame()).not.toContain(`${keyHintText('output.down')}/${keyHintText('output.up')} scroll`);
  });
});

describe('the renewals', () => {
  it('with every line in view the page keys are not offered', async () => {
    const app = await renderApp({ lines: 40 });
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    resize(app, 120, 100);
    await app.press('nav.renewals');
    const s = () => app.store.getState();
    await app.waitFrame(() => s().renewals.status === 'ready' && s().drawn.renewals !== undefined);
    expect(why(app, 'renewals.pageDown')).toMatch(/in view: nothing to/);
    expect(why(app, 'renewals.pageUp')).toMatch(/in view: nothing to/);
  });
});

describe('the journal and help', () => {
  it('journal: PgDn/PgUp scroll by the entries drawn, at a small size and after a resize', async () => {
    const app = await renderApp({ lines: 40 }, { journal: appliedJournal(60) });
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    resize(app, 100, 16);
    await app.press('nav.journal');
    await app.waitFrame((f) => f.includes('60 entries'));
    await pagesByDrawnRows(
      app,
      'journal',
      { down: 'journal.pageDown', up: 'journal.pageUp' },
      (s) => s.scroll.journal,
    );
  });

  it('journal: a flash that takes a second row of the body is a resize: PgDn waits for the view drawn without it', async () => {
    const app = await renderApp({ lines: 40 }, { journal: appliedJournal(60) });
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    resize(app, 100, 16);
    await app.press('nav.journal');
    await app.waitFrame((f) => f.includes('60 entries'));
    const shown = await drawnRows(app, 'journal', 'journal.pageDown');
    // Longer than the width: the flash takes two rows, the body one less.
    app.store.getState().notify(`A long notice ${'that goes on '.repeat(10)}to its end`);
    // The store has the flash; the view has not been drawn a row shorter yet: no page of the last count.
    expect(why(app, 'journal.pageDown')).toMatch(/being drawn/);
    expect(pageRows(app.store.getState(), 'journal')).toBe(0);
    const shorter = await drawnRows(app, 'journal', 'journal.pageDown');
    expect(shorter).toBe(shown - 1);
    await app.press('journal.pageDown');
    await app.waitFrame(() => app.store.getState().scroll.journal === shorter - 1);
  });

  it('help: PgDn/PgUp scroll by the keys drawn, at a small size and after a resize', async () => {
    const app = await renderApp({ lines: 40 }, { journal: memoryJournal() });
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    resize(app, 100, 16);
    await app.press('app.help');
    await app.waitFrame((f) => f.includes('Keys — lines screen'));
    await pagesByDrawnRows(app, 'help', { down: 'help.pageDown', up: 'help.pageUp' }, (s) => s.scroll.help);
  });
});
