/**
 * The footer and the keys named in text tell the truth (issue 24): walked through states (the
 * action dialog's phases, read-only mode, nothing marked), every footer hint is a key dispatch runs
 * now, to an enabled command, and named once; a key a sentence names runs its command; a narrow
 * footer keeps the keys used most.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAst } from 'vite';
import { describe, expect, it } from 'vitest';
import { COMMANDS, command, keyLabel, keyNamed, said, visibleCommands } from '../../src/commands/keymap';
import { activeScopes, textTarget } from '../../src/commands/text-takes';
import { resolveKey } from '../../src/keys/dispatch';
import type { AppState } from '../../src/store/app-store';
import { selectDialog, selectScreen } from '../../src/store/view-stack';
import { fitFooter, footerItems } from '../../src/ui/layout/Footer';
import { renderApp } from '../helpers/app';

type App = Awaited<ReturnType<typeof renderApp>>;

/** Every footer hint's key resolves, in this state, to an enabled command; no command named twice. */
function expectFooterTrue(s: AppState, where: string) {
  const texts = footerItems(s).map((h) => h.text);
  expect(new Set(texts).size, `${where}: a hint twice in ${texts.join(' | ')}`).toBe(texts.length);
  for (const text of texts) {
    const label = text.split(' ')[0]!;
    // The table's key names whose label is the one shown.
    const keys = [...new Set(COMMANDS.flatMap((c) => c.keys))].filter((k) => keyLabel(k) === label);
    const cmd = keys.map((k) => resolveKey(s, k)).find(Boolean);
    expect(cmd, `${where}: "${text}" is no key dispatch runs`).toBeDefined();
    expect(cmd!.disabled?.(s) ?? null, `${where}: "${text}" is disabled`).toBeNull();
  }
  // And the other way: a footer command dispatch reaches now on one of its keys is offered.
  for (const scope of activeScopes(s))
    for (const c of visibleCommands(scope)) {
      if (!c.footer || c.disabled?.(s)) continue;
      const reached = c.keys.filter((k) => resolveKey(s, k)?.id === c.id);
      if (!reached.length) continue;
      const shown = texts.some((t) => reached.some((k) => t.startsWith(`${keyLabel(k)} `)));
      expect(shown, `${where}: ${c.id} works on ${reached.join('/')} but is not offered`).toBe(true);
    }
  expectSentencesTrue(s, where);
}

/**
 * A key a sentence names now (keyNamed, said with what it does: the only way a screen or a flash
 * names one) runs its command now: not typed, not refused, not elsewhere.
 */
function expectSentencesTrue(s: AppState, where: string) {
  for (const c of COMMANDS) {
    const text = said(keyNamed(s, c.id), 'does');
    if (text === null) continue;
    const key = c.keys.find((k) => `${keyLabel(k)} does` === text);
    expect(key && resolveKey(s, key)?.id, `${where}: "${text}" (${c.id})`).toBe(c.id);
  }
}

const footer = (s: AppState) => footerItems(s).map((h) => h.text);
const start = async (deps: Parameters<typeof renderApp>[1] = {}) => {
  const app = await renderApp({}, deps);
  await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
  return app;
};
const state = (app: App) => app.store.getState();

describe('the footer lists what dispatch accepts now', () => {
  it('the action dialog: Enter, ←/→ and y only while they do something; after the change, none of them', async () => {
    const app = await start();
    await app.press('lines.filterType'); // premium
    await app.waitFrame((f) => f.includes('type premium') && !f.includes('loading'));
    await app.press('line.extend');
    await app.waitFrame((f) => f.includes('estimate from package prices'));
    expectFooterTrue(state(app), 'review');
    expect(footer(state(app))).toContain('Enter confirm');
    await app.confirm('action.confirm');
    await app.waitFrame((f) => f.includes('Charged'));
    expectFooterTrue(state(app), 'done');
    const done = footer(state(app)).join('  ');
    for (const gone of ['Enter', 'y copy', '← fewer', '→ more']) expect(done).not.toContain(gone);
    expect(app.frame()).not.toMatch(/Enter confirm/);
  });

  it('the marks view with nothing marked offers no unmark keys', async () => {
    const app = await start();
    state(app).openMarks();
    await app.waitFrame(() => selectScreen(state(app)).id === 'marks');
    expectFooterTrue(state(app), 'marks, empty');
    expect(footer(state(app)).join('  ')).not.toMatch(/unmark/i);
  });

  it('the detail names ? once; at 80 columns its footer keeps ?, y and n', async () => {
    const app = await start();
    await app.press('lines.open');
    await app.waitFrame((f) => f.includes('Diagnosis'));
    expectFooterTrue(state(app), 'detail');
    expect(footer(state(app)).filter((h) => h.startsWith('? '))).toHaveLength(1);
    const at80 = fitFooter(footerItems(state(app)), 80);
    expect(at80.length).toBeLessThanOrEqual(80);
    for (const kept of ['? help', 'y copy', 'n edit']) expect(at80, kept).toContain(kept);
    const lines80 = fitFooter(footerItems({ ...state(app), views: [{ id: 'lines' }] }), 80);
    expect(lines80).toContain('? help');
  });
});

describe('keys named in text honour disabled', () => {
  it('read-only: the diagnosis of a suspended line offers no key, the renewals text offers no renewal', async () => {
    const app = await start({ readOnly: true });
    await app.press('lines.filterStatus'); // active
    await app.press('lines.filterStatus'); // suspended
    await app.waitFrame((f) => f.includes('suspended') && !f.includes('loading') && /\d+–\d+ of \d+/.test(f));
    await app.press('lines.open');
    await app.waitFrame((f) => f.includes('Diagnosis'));
    const diagnosis = app
      .frame()
      .split('\n')
      .find((l) => l.includes('Diagnosis'))!;
    expect(diagnosis).not.toMatch(/unsuspends|extends|→/);
    expectFooterTrue(state(app), 'detail, read-only');
    await app.press('nav.renewals');
    await app.waitFrame((f) => /Expiring|expiring/.test(f) && !f.includes('loading'));
    expect(app.frame()).not.toMatch(/renews|marks every/);
    expectFooterTrue(state(app), 'renewals, read-only');
  });
});

describe('the new-line form', () => {
  it('offers ? on a choice field, not in a text field (where ? is typed); Ctrl-G only where it fills', async () => {
    const app = await start();
    await app.press('line.create');
    await app.waitFrame((f) => f.includes('New line —'));
    expectFooterTrue(state(app), 'form, package');
    expect(footer(state(app))).toContain('? help');
    expect(footer(state(app)).join('  ')).not.toContain('Ctrl-G');
    while (state(app).form?.focus !== 'username') await app.press('form.next');
    expectFooterTrue(state(app), 'form, username');
    expect(footer(state(app))).not.toContain('? help');
    expect(footer(state(app)).join('  ')).toContain('Ctrl-G fill');
    await app.type('a?');
    await app.waitFrame(() => state(app).form?.values.username === 'a?');
  });
});

describe('a walk through the screens and menus', () => {
  for (const readOnly of [false, true]) {
    it(`every footer hint dispatches to an enabled command, once (${readOnly ? 'read-only' : 'read-write'})`, async () => {
      const app = await start({ readOnly });
      const visit = async (where: string, go: () => unknown, ready: () => boolean = () => true) => {
        await go();
        await app.waitFrame(ready);
        expectFooterTrue(state(app), where);
      };
      await visit('lines', () => undefined);
      await visit(
        'search',
        () => app.press('lines.search'),
        () => state(app).searchOpen,
      );
      await visit(
        'lines again',
        () => app.press('search.clear'),
        () => !state(app).searchOpen,
      );
      await visit(
        'palette',
        () => app.press('app.palette'),
        () => selectDialog(state(app)) === 'palette',
      );
      await visit(
        'palette closed',
        () => app.press('palette.close'),
        () => selectDialog(state(app)) === null,
      );
      await visit(
        'copy menu',
        () => app.press('line.copy'),
        () => selectDialog(state(app)) === 'copy',
      );
      await visit(
        'copy closed',
        () => app.press('copy.close'),
        () => selectDialog(state(app)) === null,
      );
      await visit(
        'message picker',
        async () => {
          await app.press('line.copy');
          await app.waitFrame(() => selectDialog(state(app)) === 'copy');
          await app.press('copy.message');
        },
        () => selectDialog(state(app)) === 'message' && state(app).drawn.message !== undefined,
      );
      await visit(
        'message picker closed',
        () => app.press('message.close'),
        () => selectDialog(state(app)) === null,
      );
      // A pager (here the list of your commands, `:run`) whose text is all in view: no scroll key.
      await visit(
        'output pager',
        async () => {
          await app.press('app.palette');
          await app.type('run');
          await app.press('palette.run');
        },
        () => selectDialog(state(app)) === 'output' && state(app).drawn.output !== undefined,
      );
      await visit(
        'output pager closed',
        () => app.press('output.close'),
        () => selectDialog(state(app)) === null,
      );
      await visit(
        'help',
        () => app.press('app.help'),
        () => selectDialog(state(app)) === 'help',
      );
      await visit(
        'help closed',
        () => app.press('help.close'),
        () => selectDialog(state(app)) === null,
      );
      await visit(
        'detail',
        () => app.press('lines.open'),
        () => selectScreen(state(app)).id === 'detail',
      );
      await visit(
        'note form',
        () => app.press('note.edit'),
        () => selectDialog(state(app)) === 'note',
      );
      await visit(
        'note closed',
        () => app.press('note.cancel'),
        () => selectDialog(state(app)) === null,
      );
      for (const nav of [
        'nav.account',
        'nav.packages',
        'nav.bouquets',
        'nav.journal',
        'nav.renewals',
      ] as const)
        await visit(
          nav,
          () => app.press(nav),
          () => state(app).views.length === 2,
        );
      if (!readOnly) {
        await visit(
          'lines',
          () => app.press('nav.lines'),
          () => state(app).views.length === 1,
        );
        await visit(
          'one marked',
          () => app.press('lines.mark'),
          () => state(app).marked.size === 1,
        );
        await visit(
          'marks view',
          () => app.press('lines.marks'),
          () => selectScreen(state(app)).id === 'marks',
        );
      }
    });
  }
});

describe('the bulk dialog', () => {
  it('preview, then done: every footer hint dispatches to an enabled command; no Start once done', async () => {
    const app = await start();
    await app.press('lines.filterType'); // premium
    await app.waitFrame((f) => f.includes('type premium') && !f.includes('loading'));
    await app.press('lines.mark');
    await app.press('lines.down');
    await app.press('lines.mark');
    await app.waitFrame(() => state(app).marked.size === 2);
    await app.press('line.extend');
    await app.waitFrame(() => state(app).bulk?.phase === 'preview' && selectDialog(state(app)) === 'bulk');
    expectFooterTrue(state(app), 'bulk preview');
    // Ctrl-C quits from a dialog too: a flash that names it ("Ctrl-C again quits") may.
    expect(resolveKey(state(app), 'ctrl+c')?.id).toBe('app.quit');
    expect(keyNamed(state(app), 'app.quit')).toBe(keyLabel('ctrl+c'));
    await app.confirm('bulk.start');
    await app.waitFrame(() => state(app).bulk?.phase === 'done', 10_000);
    expectFooterTrue(state(app), 'bulk done');
    expect(footer(state(app)).join('  ')).not.toMatch(/Enter start/i);
  });
});

describe('where text is typed, the keys it takes are not offered as commands', () => {
  /** A printable key shown in the footer here: the field would take it (none may be). */
  const printableHints = (s: AppState) =>
    footer(s).filter((t) => {
      const label = t.split(' ')[0]!;
      return [...label].length === 1;
    });

  it('the delete preview types its count: no x export, no a; Esc and Enter stay', async () => {
    const app = await start();
    await app.press('lines.mark');
    await app.press('lines.down');
    await app.press('lines.mark');
    await app.waitFrame(() => state(app).marked.size === 2);
    await app.press('line.delete');
    await app.waitFrame((f) => f.includes('Type the number of lines to confirm'));
    expect(textTarget(state(app))).toBe('store');
    expectFooterTrue(state(app), 'bulk delete preview');
    const shown = footer(state(app)).join('  ');
    expect(shown).not.toMatch(/\bx export/);
    expect(printableHints(state(app))).toEqual([]);
    expect(shown).toContain('Esc ');
    expect(resolveKey(state(app), 'x')).toBeUndefined();
    await app.type('2');
    await app.waitFrame(() => state(app).bulk?.typed === '2');
    expectFooterTrue(state(app), 'bulk delete preview, count typed');
    expect(footer(state(app)).join('  ')).toContain('Enter ');
    await app.press('bulk.close');
    await app.waitFrame(() => selectDialog(state(app)) === null);
    // An extend's preview types nothing: its printable keys are commands, offered.
    await app.press('line.extend');
    await app.waitFrame(() => state(app).bulk?.phase === 'preview' && selectDialog(state(app)) === 'bulk');
    expectFooterTrue(state(app), 'bulk extend preview');
    expect(footer(state(app)).join('  ')).toMatch(/\bx export/);
  });

  it('the single delete, search, palette, note and the form on a text field offer no key they type', async () => {
    const app = await start();
    const check = async (where: string, go: () => unknown, ready: () => boolean, back: () => unknown) => {
      await go();
      await app.waitFrame(ready);
      expect(textTarget(state(app)), where).not.toBeNull();
      expectFooterTrue(state(app), where);
      expect(printableHints(state(app)), where).toEqual([]);
      expect(footer(state(app)).join('  '), where).toMatch(/Enter |Esc /);
      await back();
      await app.waitFrame(() => selectDialog(state(app)) === null && !state(app).searchOpen);
    };
    await check(
      'single delete',
      () => app.press('line.delete'),
      () => state(app).action?.op === 'delete' && state(app).action?.phase === 'review',
      () => app.press('action.cancel'),
    );
    await check(
      'search',
      () => app.press('lines.search'),
      () => state(app).searchOpen,
      () => app.press('search.clear'),
    );
    await check(
      'palette',
      () => app.press('app.palette'),
      () => selectDialog(state(app)) === 'palette',
      () => app.press('palette.close'),
    );
    await check(
      'form, username',
      async () => {
        await app.press('line.create');
        await app.waitFrame((f) => f.includes('New line —'));
        while (state(app).form?.focus !== 'username') await app.press('form.next');
      },
      () => state(app).form?.focus === 'username',
      () => app.press('form.cancel'),
    );
    await app.press('lines.open');
    await app.waitFrame(() => selectScreen(state(app)).id === 'detail');
    await check(
      'note',
      () => app.press('note.edit'),
      () => selectDialog(state(app)) === 'note',
      () => app.press('note.cancel'),
    );
  });
});

describe('a sentence of the screen names a key only while it works there', () => {
  /** The frame, with the screen's text under the dialog just opened. */
  const under = async (app: App, open: 'app.palette' | 'line.copy', dialog: 'palette' | 'copy') => {
    await app.press(open);
    await app.waitFrame(() => selectDialog(state(app)) === dialog);
    return app.frame();
  };

  it('the detail’s password and note hints, the renewals title and the empty search say no key under the palette or copy menu', async () => {
    const app = await start();
    const password = `(${keyLabel(command('detail.password').keys[0]!)} shows)`;
    const note = `(${keyLabel(command('note.edit').keys[0]!)} adds one)`;
    await app.press('lines.open');
    await app.waitFrame((f) => f.includes(password) && f.includes(note));
    expectSentencesTrue(state(app), 'detail');
    for (const [open, dialog, close] of [
      ['app.palette', 'palette', 'palette.close'],
      ['line.copy', 'copy', 'copy.close'],
    ] as const) {
      const f = await under(app, open, dialog);
      expect(f, dialog).toContain('Password');
      expect(f, dialog).not.toContain(password);
      expect(f, dialog).not.toContain(note);
      expectSentencesTrue(state(app), `detail under ${dialog}`);
      await app.press(close);
      await app.waitFrame((fr) => selectDialog(state(app)) === null && fr.includes(password));
    }
    await app.press('nav.renewals');
    const change = `(${keyLabel(command('renewals.shorter').keys[0]!)}/${keyLabel(command('renewals.longer').keys[0]!)} change it)`;
    await app.waitFrame((f) => f.includes(change));
    const f = await under(app, 'app.palette', 'palette');
    expect(f).toMatch(/Renewals — expiring within/);
    expect(f).not.toContain(change);
    expectSentencesTrue(state(app), 'renewals under the palette');
  });

  it('"Clear the search" names its keys only while they work', async () => {
    const app = await start();
    await app.press('lines.search');
    await app.type('zzzznothing');
    await app.waitFrame((f) => f.includes('No lines match'));
    await app.press('search.apply');
    await app.waitFrame((f) => !state(app).searchOpen && f.includes('No lines match'));
    const search = keyLabel(command('lines.search').keys[0]!);
    expect(app.frame()).toContain(`Clear the search (${search} opens it)`);
    const f = await under(app, 'app.palette', 'palette');
    expect(f).toContain('Clear the search');
    expect(f).not.toContain(`Clear the search (${search}`);
  });

  it('no screen or overlay names a key by a text that looks at no state (keyHintText)', () => {
    const dirs = ['src/ui/screens', 'src/ui/components', 'src/ui/layout', 'src/ui/overlays'];
    for (const dir of dirs)
      for (const file of readdirSync(dir)) {
        const text = readFileSync(join(dir, file), 'utf8');
        expect(text, `${dir}/${file}`).not.toMatch(/\bkeyHintText\(/);
      }
  });
});

/** Where flash messages and refusal reasons are written: the keys, the commands, the store, the services. */
const FLASH_SOURCES = ['src/keys', 'src/commands/areas', 'src/store', 'src/services'];
const FLASH_FILES = ['src/commands/palette.ts', 'src/commands/palette-commands.ts'];

/**
 * A key named by hand in a text: a named key as the screen writes it (Enter, Esc, PgDn, Ctrl-G, ↑…),
 * "press" with a key after it, or one character after a space then what it does ("c cancels", "? is
 * typed"; "a" alone is the article, "N" a number to give). A key named through the rule is an
 * expression (`${…}`), not in the text.
 */
const HAND_NAMED =
  /\b(?:Enter|Esc|Space|Tab|Shift-Tab|PgUp|PgDn|Home|End|Backspace|Ctrl-[A-Za-z])\b|[↑↓←→]|\b[Pp]ress [^\s]|[\s(][`'"“]?(?:[^\s\w$]|[b-zA-MO-Z])[`'"”]? [a-z]+s\b/;

// biome-ignore lint/suspicious/noExplicitAny: a syntax tree walked by node type
type Node = any;

/** The texts a file writes, with their lines: string literals and template parts, not a command's own id, keys or title. */
function textsOf(file: string): { text: string; line: number }[] {
  const source = readFileSync(file, 'utf8');
  const out: { text: string; line: number }[] = [];
  const lineOf = (n: Node) => source.slice(0, n.start).split('\n').length;
  const visit = (n: Node): void => {
    if (!n || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (const x of n) visit(x);
      return;
    }
    // c(id, keys, scope, group, title, run, options): the title is the registry's own words (help).
    if (n.type === 'CallExpression' && n.callee?.type === 'Identifier' && n.callee.name === 'c') {
      n.arguments.slice(5).forEach(visit);
      return;
    }
    if (n.type === 'Literal' && typeof n.value === 'string') out.push({ text: n.value, line: lineOf(n) });
    if (n.type === 'TemplateElement') out.push({ text: n.value.cooked ?? '', line: lineOf(n) });
    for (const [k, v] of Object.entries(n)) if (k !== 'parent' && v && typeof v === 'object') visit(v);
  };
  visit(parseAst(source, { lang: 'ts' }));
  return out;
}

const tsFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );

describe('a flash names a key only by the keys rule', () => {
  it('no flash or refusal names a key by hand, or by a text that looks at no state (keyHintText)', () => {
    const files = [...FLASH_SOURCES.flatMap(tsFiles), ...FLASH_FILES];
    expect(files.length).toBeGreaterThan(20);
    const found: string[] = [];
    for (const file of files) {
      if (/\bkeyHintText\(/.test(readFileSync(file, 'utf8'))) found.push(`${file}: keyHintText(…)`);
      for (const { text, line } of textsOf(file))
        if (HAND_NAMED.test(text)) found.push(`${file}:${line}: ${JSON.stringify(text)}`);
    }
    expect(found).toEqual([]);
  });

  it('the check finds a key named by hand', () => {
    for (const text of [
      'The job is running: c cancels it first',
      'Ctrl-G fills it',
      'press q again',
      'In a text field ? is typed',
      'Esc closes',
    ])
      expect(HAND_NAMED.test(text), text).toBe(true);
    for (const text of ['Press ', 'No saved views yet', 'a line is marked', ' again to quit ('])
      expect(HAND_NAMED.test(text), text).toBe(false);
  });
});
