/**
 * Your keys and your own commands on the one command table (commands/user-keys.ts): a remap moves a
 * command's keys for dispatch, footer, help and the keys named in text; a clash, an unknown command
 * or a key linedesk cannot read is named (which command, which scope) and that entry skipped, never
 * fatal; help still lists exactly what dispatch runs, per scope.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  COMMANDS,
  command,
  keyHintText,
  lookup,
  type Scope,
  visibleCommands,
} from '../../src/commands/keymap';
import { keysMarkdown, SCOPE_TITLES, scopeTitle } from '../../src/commands/keys-doc';
import { completePalette, paletteCandidates } from '../../src/commands/palette';
import { activeScopes } from '../../src/commands/text-takes';
import { applyUserKeys, keyOf, resetUserKeys } from '../../src/commands/user-keys';
import { DIALOG_IDS, SCREEN_IDS, type View } from '../../src/store/types';

afterEach(resetUserKeys);

const CUSTOM = { name: 'wa', key: 'W', scope: 'line', program: '/bin/true' };

/** Every scope of the table as it is now: help's rows are exactly the commands dispatch reaches. */
function expectHelpIsDispatch() {
  const scopes = [...new Set(COMMANDS.flatMap((c) => c.scopes)), 'marks' as Scope];
  // Every key any command has now (remapped ones included), the defaults', and every letter.
  const allKeys = new Set(scopes.flatMap((sc) => visibleCommands(sc).flatMap((c) => c.keys)));
  for (const k of COMMANDS.flatMap((c) => c.keys)) allKeys.add(k);
  for (const k of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ') allKeys.add(k);
  for (const scope of scopes) {
    const listed = new Set(visibleCommands(scope).map((c) => c.id));
    const dispatched = new Set(
      [...allKeys].map((k) => lookup(scope, k)?.id).filter((id) => id !== undefined),
    );
    expect([...listed].sort(), scope).toEqual([...dispatched].sort());
  }
}

describe('keys remapped in the config', () => {
  it('a remap moves the command: dispatch, help and the key named in text follow; the old key is free', () => {
    const r = applyUserKeys({ keys: { 'line.extend': 'E', 'lines.down': ['J', 'down'] } });
    expect(r.problems).toEqual([]);
    expect(lookup('lines', 'E')?.id).toBe('line.extend');
    expect(lookup('detail', 'E')?.id).toBe('line.extend');
    expect(lookup('marks', 'E')?.id).toBe('line.extend');
    expect(lookup('lines', 'e')).toBeUndefined();
    expect(keyHintText('line.extend')).toBe('E');
    expect(command('lines.down').keys).toEqual(['J', 'down']);
    expect(visibleCommands('lines').find((c) => c.id === 'line.extend')?.keys).toEqual(['E']);
    expectHelpIsDispatch();
  });

  it("help's headings name the keys as they are now (the defaults stay in docs/KEYS.md's)", () => {
    expect(applyUserKeys({ keys: { 'lines.marks': 'Z', 'note.edit': 'ctrl+n' } }).problems).toEqual([]);
    expect(scopeTitle('marks')).toBe('Marks view (Z)');
    expect(scopeTitle('note')).toBe('Note form (Ctrl-N)');
    expect(SCOPE_TITLES.marks).toBe('Marks view (M)');
  });

  it('two commands can swap their keys', () => {
    const r = applyUserKeys({ keys: { 'help.down': ['k'], 'help.up': ['j'] } });
    expect(r.problems).toEqual([]);
    expect(lookup('help', 'k')?.id).toBe('help.down');
    expect(lookup('help', 'j')?.id).toBe('help.up');
    expectHelpIsDispatch();
  });

  it('a key another command has where both work is named and skipped: the command keeps its own', () => {
    const r = applyUserKeys({ keys: { 'line.extend': 'u' } });
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatch(
      /keys\.line\.extend: u is line\.upgrade's key in lines; line\.extend keeps e/,
    );
    expect(lookup('lines', 'e')?.id).toBe('line.extend');
    expect(lookup('lines', 'u')?.id).toBe('line.upgrade');
    expectHelpIsDispatch();
  });

  it('a screen and the global keys work together: a screen key onto a global one clashes', () => {
    const r = applyUserKeys({ keys: { 'line.extend': '?' } });
    expect(r.problems[0]).toMatch(/\? is app\.help's key in lines/);
    expect(lookup('lines', 'e')?.id).toBe('line.extend');
  });

  it("the clash rule's screens are dispatch's: every screen's keys work with the global ones, no dialog's", () => {
    const scopesWith = (top: View) =>
      activeScopes({
        views: [{ id: 'lines' }, top],
        searchOpen: false,
        form: null,
        action: null,
        bulk: null,
      });
    expect(new Set([...SCREEN_IDS, ...DIALOG_IDS]).size).toBe(SCREEN_IDS.length + DIALOG_IDS.length);
    for (const id of SCREEN_IDS) expect(scopesWith({ id } as View)).toEqual([id, 'global']);
    for (const id of DIALOG_IDS) expect(scopesWith({ id })).toEqual([id]);
    // A screen key moved onto a global one clashes on every screen; a dialog's never does.
    const global = command('app.help').keys[0]!;
    for (const id of SCREEN_IDS) {
      const on = COMMANDS.find((c) => c.scopes.includes(id) && !c.scopes.includes('global'));
      if (!on) continue;
      const { problems } = applyUserKeys({ keys: { [on.id]: global } });
      expect(problems[0]).toMatch(new RegExp(`is app\\.help's key in (${on.scopes.join('|')})\\b`));
      resetUserKeys();
    }
  });

  it('the same key in scopes never up together is no clash (the help overlay and the browser)', () => {
    const r = applyUserKeys({ keys: { 'help.close': ['escape', 'e'] } });
    expect(r.problems).toEqual([]);
    expect(lookup('help', 'e')?.id).toBe('help.close');
    expect(lookup('lines', 'e')?.id).toBe('line.extend');
  });

  it('an unknown command, a key linedesk cannot read, a bad shape: each named, the rest applied', () => {
    const r = applyUserKeys(
      {
        keys: {
          'line.explode': 'X',
          'line.extend': 'F13',
          'app.refresh': 'ctrl+c',
          'lines.up': 42,
          'lines.down': [],
          'line.upgrade': 'Ctrl-G',
        },
      },
      '/cfg.json',
    );
    const text = r.problems.join('\n');
    expect(text).toMatch(/\/cfg\.json: keys\.line\.explode: no command of that id/);
    expect(text).toMatch(/keys\.line\.extend: "F13" is not a key name.*line\.extend keeps e/);
    expect(text).toMatch(/keys\.app\.refresh: Ctrl-C always quits/);
    expect(text).toMatch(/keys\.lines\.up: expected a key or a list of keys/);
    expect(text).toMatch(/keys\.lines\.down: a command needs at least one key/);
    expect(r.problems).toHaveLength(5);
    expect(lookup('lines', 'ctrl+g')?.id).toBe('line.upgrade');
    expect(lookup('lines', 'e')?.id).toBe('line.extend');
    expect(applyUserKeys({ keys: ['x'] }).problems[0]).toMatch(/keys: expected an object/);
    // An id with an escape sequence is named without it acting on the terminal.
    const [named] = applyUserKeys({ keys: { 'x\u001b]52;c;aGk=\u0007': 'E' } }).problems;
    expect(named).toMatch(/no command of that id/);
    expect(named).not.toMatch(/[\u0000-\u001f]/);
  });

  it("the welcome's keys are fixed: it is shown only while there is no config, so a remap of one is named and left out", () => {
    const r = applyUserKeys({ keys: { 'welcome.quit': 'x', 'connect.back': 'ctrl+b' } });
    expect(r.problems).toEqual([
      'keys.welcome.quit: the welcome screen comes before any config, its keys are fixed; left out',
      'keys.connect.back: the welcome screen comes before any config, its keys are fixed; left out',
    ]);
    expect(lookup('welcome', 'q')?.id).toBe('welcome.quit');
    expect(lookup('welcome', 'x')).toBeUndefined();
  });

  it('only printable keys for a command that works while text is typed are refused (they would be typed, never run)', () => {
    const r = applyUserKeys({ keys: { 'palette.close': 'x' } });
    expect(r.problems[0]).toMatch(/x would be typed as text in palette; palette\.close keeps/);
    expect(lookup('palette', 'escape')?.id).toBe('palette.close');
    expect(applyUserKeys({ keys: { 'palette.close': ['ctrl+q', 'x'] } }).problems[0]).toMatch(
      /x would be typed/,
    );
    // A key that is not typed, or a printable key for a command whose own key is printable already: taken.
    expect(applyUserKeys({ keys: { 'palette.close': ['ctrl+q'], 'action.copy': 'Y' } }).problems).toEqual([]);
    expect(lookup('palette', 'ctrl+q')?.id).toBe('palette.close');
    expect(lookup('action', 'Y')?.id).toBe('action.copy');
    // A text field's editing keys come first there: Ctrl-W deletes a word, it would never close.
    expect(applyUserKeys({ keys: { 'palette.close': 'ctrl+w' } }).problems[0]).toMatch(
      /keys\.palette\.close: Ctrl-W edits the text in palette; palette\.close keeps Esc/,
    );
  });

  it('key spellings: characters, the names help shows, Ctrl-letters; never Ctrl-C, Ctrl-I, Ctrl-M', () => {
    expect(keyOf('PgDn')).toEqual({ key: 'pagedown' });
    expect(keyOf('Esc')).toEqual({ key: 'escape' });
    expect(keyOf('Shift-Tab')).toEqual({ key: 'shift+tab' });
    expect(keyOf('ctrl+x')).toEqual({ key: 'ctrl+x' });
    expect(keyOf('é')).toEqual({ key: 'é' });
    // The arrows as help writes them are the arrow keys (docs/CONFIG.md: `↑` or `up`), not a character.
    expect(keyOf('↑')).toEqual({ key: 'up' });
    expect(keyOf('→')).toEqual({ key: 'right' });
    // Ctrl-H and Ctrl-J arrive as Backspace and Enter: a command on them would be shown, never run.
    for (const bad of ['ctrl+c', 'Ctrl-M', 'ctrl+i', 'ctrl+h', 'Ctrl-J', ' ', '\u001b', 'xx', 'F5'])
      expect(keyOf(bad), bad).toHaveProperty('problem');
  });

  it('a remap of the quit command keeps Ctrl-C: Ctrl-C always quits, whatever else quits too', () => {
    expect(applyUserKeys({ keys: { 'app.quit': 'ctrl+q', 'small.quit': 'x' } }).problems).toEqual([]);
    expect(lookup('global', 'ctrl+q')?.id).toBe('app.quit');
    expect(lookup('global', 'ctrl+c')?.id).toBe('app.quit');
    expect(lookup('small', 'x')?.id).toBe('small.quit');
    expect(lookup('small', 'ctrl+c')?.id).toBe('small.quit');
    expectHelpIsDispatch();
  });

  it("the form's text fields edit first: a form command on an editing key is refused, its own keys kept", () => {
    // Ctrl-K in the username field (where Ctrl-G fills one) cuts the text: it would never fill.
    expect(applyUserKeys({ keys: { 'form.generate': 'ctrl+k' } }).problems[0]).toMatch(
      /keys\.form\.generate: Ctrl-K edits the text in form; form\.generate keeps Ctrl-G/,
    );
    expect(lookup('form', 'ctrl+g')?.id).toBe('form.generate');
    // A command's own editing key stays (← chooses on a choice field, moves the caret in a text one).
    expect(applyUserKeys({ keys: { 'form.decrease': ['left', 'pageup'] } }).problems).toEqual([]);
  });

  it('with nothing in the config, and after a reset, the table is the defaults (docs/KEYS.md is generated from them)', () => {
    const before = keysMarkdown();
    applyUserKeys({ keys: { 'line.extend': 'E' }, commands: [CUSTOM] });
    expect(keysMarkdown()).not.toBe(before);
    resetUserKeys();
    expect(keysMarkdown()).toBe(before);
    expect(applyUserKeys({}).problems).toEqual([]);
    expect(keysMarkdown()).toBe(before);
  });
});

describe('commands of yours in the table', () => {
  it('bound in their scope: a line command on the browser and the detail, a marks command on the marks view', () => {
    const r = applyUserKeys({
      commands: [
        CUSTOM,
        { name: 'crm', key: 'ctrl+k', scope: 'marks', program: 'crm-sync', label: 'Sync to CRM' },
      ],
    });
    expect(r.problems).toEqual([]);
    expect(lookup('lines', 'W')?.id).toBe('user.wa');
    expect(lookup('detail', 'W')?.id).toBe('user.wa');
    expect(lookup('marks', 'W')).toBeUndefined();
    expect(lookup('marks', 'ctrl+k')?.label).toBe('Sync to CRM');
    expect(visibleCommands('lines').map((c) => c.id)).toContain('user.wa');
    expectHelpIsDispatch();
  });

  it(':run completes the names of yours', () => {
    const values = { profiles: [], templates: [], commands: ['whatsapp', 'crm'] };
    expect(paletteCandidates('run w', values)).toEqual(['whatsapp']);
    expect(completePalette('run c', values)).toBe('run crm ');
  });

  it('a key that clashes leaves the command without a key (still runnable by :run), named', () => {
    const r = applyUserKeys({ commands: [{ ...CUSTOM, key: 'e' }] });
    expect(r.problems[0]).toMatch(
      /commands wa: e is line\.extend's key in lines; no key \(:run wa runs it\)/,
    );
    expect(r.commands.map((c) => c.name)).toEqual(['wa']);
    expect(lookup('lines', 'e')?.id).toBe('line.extend');
    expect(visibleCommands('lines').map((c) => c.id)).not.toContain('user.wa');
    expectHelpIsDispatch();
  });

  it('two of yours on one key: the later one loses it; a remap made free a key one of yours takes', () => {
    const r = applyUserKeys({
      keys: { 'line.extend': 'E' },
      commands: [
        { ...CUSTOM, key: 'e' },
        { ...CUSTOM, name: 'wa2', key: 'e' },
      ],
    });
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatch(/commands wa2: e is user\.wa's key in lines/);
    expect(lookup('lines', 'e')?.id).toBe('user.wa');
    expect(lookup('lines', 'E')?.id).toBe('line.extend');
  });
});
