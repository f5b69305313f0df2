/**
 * The `:` palette's commands. Those the command line has too (`:lines --status expiring`, `:line
 * USER`, `:renewals 14 30`, `:extend --months 3`) take their arguments from its spec (spec.ts),
 * parsed by the one parser; the rest are the screens' own. A command bound to a key runs that key's
 * command (`key`): its `disabled` reason is asked first, as a key press does, so `:extend` on a trial
 * line says what `e` says, and a change only opens its dialog: the dialog and its confirm gate decide.
 */
import { LINE_TYPES, type LineListItem, ORDER_TYPES } from '../api/contract';
import type { Months } from '../domain/steps';
import { type UserCommand, userCommandId } from '../domain/user-commands';
import { DEFAULT_VIEW } from '../present/saved-views';
import type { AppState } from '../store/app-store';
import { placeholdersText } from '../store/messages-slice';
import { selectTargetLine } from '../store/selectors';
import { STATUS_VIEWS } from '../store/types';
import { selectScreen } from '../store/view-stack';
import { copyAndSay, type LineOp, openChange } from './areas/line';
import type { ArgType, OptionSpec, PositionalSpec, Values } from './args';
import { parseDays, sortOf } from './args';
import type { UiEffects } from './effects';
import { commandById, findCommand, keyLabel } from './hints';
import { COMMANDS as CLI, type CommandName, SORT, SORT_ALIASES } from './spec';

interface PaletteArgs {
  readonly values: Values;
  readonly positionals: readonly string[];
}

export interface PaletteCommand {
  readonly name: string;
  /** What the palette says beside a completion. */
  readonly help: string;
  readonly positionals: readonly PositionalSpec[];
  readonly required: number;
  readonly options: readonly OptionSpec[];
  /** Arguments after the first chosen by the first's value (`profile use NAME`). */
  readonly sub?: Readonly<Record<string, readonly PositionalSpec[]>>;
  /** The key command it is (its `disabled` reason first, then its `run`), or its own handler. */
  readonly key?: string;
  readonly run?: (s: AppState, args: PaletteArgs, fx: UiEffects) => void;
}

const choice = (values: readonly string[], aliases?: Readonly<Record<string, string>>): ArgType => ({
  kind: 'choice',
  values,
  ...(aliases ? { aliases } : {}),
});
const ORDER_ALIASES = { ascending: 'asc', descending: 'desc' };
const TEXT: PositionalSpec = { name: 'TEXT', arg: { kind: 'text' } };

/** Runs a key command as its key would: its reason when it cannot run now, in the flash. */
export function runKey(s: AppState, id: string, fx: UiEffects): void {
  const cmd = commandById(id);
  const why = cmd.disabled?.(s);
  if (why) s.notify(why, 'error');
  else cmd.run(s, fx);
}

/** A command of the command line's, on the palette: its arguments are the spec's, the palette's part. */
const fromCli = (
  name: CommandName,
  help: string,
  how: Pick<PaletteCommand, 'key' | 'run'> & { readonly positionals?: readonly PositionalSpec[] },
): PaletteCommand => {
  const spec = CLI[name];
  return {
    name,
    help,
    positionals: how.positionals ?? spec.positionals,
    required: spec.required,
    options: spec.options,
    ...(how.key ? { key: how.key } : {}),
    ...(how.run ? { run: how.run } : {}),
  };
};

/** A change opens its dialog on the line under the cursor (the detail's line) or the marked lines. */
const change =
  (op: LineOp) =>
  (s: AppState, { values }: PaletteArgs): void => {
    const cmd = commandById(`line.${op}`);
    // Where its key works, and nowhere else: elsewhere the cursor's line is not on screen.
    const here = selectScreen(s).id;
    const why = cmd.scopes.includes(here)
      ? cmd.disabled?.(s)
      : `:${op} works where its key does (${cmd.scopes.join(', ')}), not on ${here}`;
    if (why) {
      s.notify(why, 'error');
      return;
    }
    openChange(s, op, {
      ...(values.months !== undefined ? { months: Number(values.months) as Months } : {}),
      ...(values.connections !== undefined ? { connections: Number(values.connections) } : {}),
    });
  };

/** A command of yours as `:run` lists it: name, key, scope, what it runs. */
function describeUserCommand(u: UserCommand): string {
  const cmd = findCommand(userCommandId(u.name));
  // A listing, as help names keys: the key as bound, wherever it works (no sentence offers it here).
  const key = cmd?.keys[0] ? keyLabel(cmd.keys[0]) : 'no key';
  const where = u.scope === 'line' ? 'the line' : 'the marked lines';
  return `${u.name} (${key}, on ${where}): ${u.label} · ${[u.program, ...u.args].map((a) => JSON.stringify(a)).join(' ')}`;
}

/** The screens' changes act on what is on screen; a script names its lines. */
const ON_SCREEN: PositionalSpec[] = [];

export const PALETTE: readonly PaletteCommand[] = [
  fromCli('lines', 'the lines browser; --view, --status, --type, --search, --sort as linedesk lines', {
    run: (s, { values: v }) => {
      s.navigate('lines');
      // The view first; the options given override its filter, search and sort.
      if (typeof v.view === 'string' && !s.applyView(v.view)) return; // it said which views there are
      const sort = typeof v.sort === 'string' ? sortOf(SORT, v.sort) : null;
      const search = typeof v.search === 'string' ? v.search : undefined;
      if (search !== undefined) s.setSearchDraft(search);
      if (v.status === undefined && v.type === undefined && search === undefined && !sort) return;
      s.setQuery({
        ...(typeof v.status === 'string' ? { status: v.status as AppState['query']['status'] } : {}),
        ...(typeof v.type === 'string' ? { type: v.type as AppState['query']['type'] } : {}),
        ...(search !== undefined ? { search: search.trim() } : {}),
        ...(sort
          ? {
              orderBy: sort.orderBy as AppState['query']['orderBy'],
              orderType: sort.orderType,
            }
          : {}),
      });
    },
  }),
  fromCli('line', 'open a line by username or id', {
    run: (s, { positionals: [text = ''] }) =>
      void s.lookupLine(text).then((line) => line && s.openDetail(line)),
  }),
  fromCli('account', 'the account summary', { key: 'nav.account' }),
  fromCli('packages', 'the packages', { key: 'nav.packages' }),
  fromCli('bouquets', 'the bouquets', { key: 'nav.bouquets' }),
  fromCli('journal', 'the journal of changes', { key: 'nav.journal' }),
  fromCli('renewals', 'renewals; DAYS expiring window, DAYS expired window (or --within, --expired)', {
    run: (s, { values: v }, fx) => {
      const within = typeof v.within === 'string' ? parseDays(v.within) : null;
      const expired = typeof v.expired === 'string' ? parseDays(v.expired) : null;
      if (within === null && expired === null) return runKey(s, 'nav.renewals', fx);
      s.navigate('renewals');
      s.setRenewalsWindow({
        ...(within ? { withinDays: within } : {}),
        ...(expired ? { expiredDays: expired } : {}),
      });
    },
  }),
  fromCli('runway', 'the account screen with the runway over DAYS (or --days; default 30)', {
    run: (s, { values: v }, fx) => {
      const days = typeof v.days === 'string' ? parseDays(v.days) : null;
      if (days !== null) void s.loadRunway(days);
      else if (s.runway.status === 'error') void s.loadRunway();
      runKey(s, 'nav.account', fx);
    },
  }),
  fromCli('create', 'the new line form', { key: 'line.create' }),
  fromCli('trial', 'the new trial line form', { key: 'line.trial' }),
  fromCli('extend', 'extend the line or the marked lines; --months N (confirmed first)', {
    positionals: ON_SCREEN,
    run: change('extend'),
  }),
  fromCli('upgrade', 'change connections of the line or the marked lines; --connections N', {
    positionals: ON_SCREEN,
    run: change('upgrade'),
  }),
  fromCli('unsuspend', 'unsuspend the line or the marked lines', {
    positionals: ON_SCREEN,
    run: change('unsuspend'),
  }),
  fromCli('delete', 'delete the line or the marked lines (the username confirms)', {
    positionals: ON_SCREEN,
    run: change('delete'),
  }),
  fromCli('message', "copy a template's message for the line (or the one named)", {
    run: (s, { positionals: [id = '', named] }, fx) => {
      const template = s.templates.find((t) => t.id === id);
      if (!template)
        return s.notify(
          `${id ? `No template "${id}"` : 'Name a template'}: ${s.templates.map((t) => t.id).join(', ')}`,
          'error',
        );
      // As the message picker copies it (message.pick).
      const copy = (line: LineListItem) => {
        const { text, missing } = s.messageFor(template, line);
        const what = `the "${template.name}" message for ${line.username}`;
        copyAndSay(missing.length ? `${what} (no value for ${placeholdersText(missing)})` : what, text)(
          s,
          fx,
        );
      };
      if (named) return void s.lookupLine(named).then((line) => line && copy(line));
      const line = selectTargetLine(s);
      if (!line) return s.notify('No line under the cursor: name one (message TEMPLATE USERNAME)', 'error');
      copy(line);
    },
  }),

  // The screens' own
  {
    name: 'view',
    help: 'NAME: a saved view (filter, search, sort, columns); save NAME, delete NAME; alone: the list',
    positionals: [
      { name: 'NAME', arg: { kind: 'known', values: 'views', also: [DEFAULT_VIEW, 'save', 'delete'] } },
    ],
    required: 0,
    options: [],
    sub: {
      save: [{ name: 'NAME', arg: { kind: 'known', values: 'views' } }],
      delete: [{ name: 'NAME', arg: { kind: 'known', values: 'views' } }],
    },
    run: (s, { positionals: [first = '', name] }) => {
      const verb = first.toLowerCase();
      if (verb === 'save' || verb === 'delete') {
        if (!name) return s.notify(`Name the view: view ${verb} NAME`, 'error');
        return verb === 'save' ? s.saveView(name) : s.deleteView(name);
      }
      if (!first)
        return s.notify(
          s.savedViews.length
            ? `Views: ${[DEFAULT_VIEW, ...s.savedViews.map((v) => v.name)].join(', ')}${s.viewName ? ` (now ${s.viewName})` : ''}`
            : 'No saved views yet: view save NAME saves this one',
          'info',
        );
      s.navigate('lines');
      s.applyView(first);
    },
  },
  {
    name: 'filter',
    help: 'status filter',
    positionals: [{ name: 'STATUS', arg: choice(STATUS_VIEWS) }],
    required: 1,
    options: [],
    run: (s, { positionals: [status] }) => {
      s.navigate('lines');
      s.setQuery({ status: status as AppState['query']['status'] });
    },
  },
  {
    name: 'type',
    help: 'type filter',
    positionals: [{ name: 'TYPE', arg: choice(LINE_TYPES) }],
    required: 1,
    options: [],
    run: (s, { positionals: [type] }) => {
      s.navigate('lines');
      s.setQuery({ type: type as AppState['query']['type'] });
    },
  },
  {
    name: 'sort',
    help: 'sort column and order',
    positionals: [
      { name: 'FIELD', arg: choice(SORT.fields, SORT_ALIASES) },
      { name: 'ORDER', arg: choice(ORDER_TYPES, ORDER_ALIASES) },
    ],
    required: 0,
    options: [],
    run: (s, { positionals: [by, order] }) => {
      s.navigate('lines');
      s.setQuery({
        ...(by ? { orderBy: by as AppState['query']['orderBy'] } : {}),
        ...(order ? { orderType: order as AppState['query']['orderType'] } : {}),
      });
    },
  },
  {
    name: 'search',
    help: 'search username or id',
    positionals: [TEXT],
    required: 0,
    options: [],
    run: (s, { positionals: [text = ''] }) => {
      s.navigate('lines');
      s.setSearchDraft(text);
      s.setQuery({ search: text.trim() });
    },
  },
  {
    name: 'lowbalance',
    help: 'warn below N credits (this profile), or off',
    positionals: [{ name: 'N|off', arg: { kind: 'word' } }],
    required: 0,
    options: [],
    run: (s, { positionals: [text = ''] }) => s.setLowBalanceText(text),
  },
  { name: 'unmark', help: 'clear every mark', positionals: [], required: 0, options: [], key: 'marks.clear' },
  {
    name: 'find',
    help: 'search every profile for a username or id',
    positionals: [TEXT],
    required: 1,
    options: [],
    run: (s, { positionals: [text = ''] }) => void s.findAcross(text),
  },
  {
    name: 'notes',
    help: 'column: show or hide the Note column',
    positionals: [{ name: 'column', arg: choice(['column']) }],
    required: 1,
    options: [],
    run: (s, _args, fx) => {
      s.navigate('lines');
      runKey(s, 'note.column', fx);
    },
  },
  {
    name: 'profile',
    help: 'list, use NAME, add, rename OLD NEW, remove NAME',
    positionals: [{ name: 'VERB', arg: choice(['list', 'use', 'add', 'rename', 'remove']) }],
    required: 0,
    options: [],
    sub: {
      list: [],
      use: [{ name: 'NAME', arg: { kind: 'known', values: 'profiles', also: ['sandbox'] } }],
      add: [{ name: 'NAME', arg: { kind: 'word' } }],
      rename: [
        { name: 'OLD', arg: { kind: 'known', values: 'profiles' } },
        { name: 'NEW', arg: { kind: 'word' } },
      ],
      remove: [{ name: 'NAME', arg: { kind: 'known', values: 'profiles' } }],
    },
    run: (s, { positionals }) => s.profileCommand(positionals.join(' ')),
  },
  {
    name: 'run',
    help: "a command of yours (the config's commands) on the line or the marks; alone, lists them",
    positionals: [{ name: 'NAME', arg: { kind: 'known', values: 'commands' } }],
    required: 0,
    options: [],
    run: (s, { positionals: [name] }, fx) => {
      if (!name) return s.listUserCommands(describeUserCommand);
      const u = s.userCommands.find((x) => x.name === name);
      if (!u) {
        const names = s.userCommands.map((x) => x.name).join(', ');
        return s.notify(`No command of yours named "${name}"${names ? ` (yours: ${names})` : ''}`, 'error');
      }
      // Where its key works, and nowhere else: elsewhere its line is not on screen.
      const cmd = findCommand(userCommandId(name));
      if (!cmd) return s.runUserCommand(name);
      const here = selectScreen(s).id;
      const why = cmd.scopes.includes(here)
        ? cmd.disabled?.(s)
        : `:run ${name} works on ${u.scope === 'line' ? 'a line (the lines browser, a line detail)' : 'the marks view'}, not on ${here}`;
      if (why) return s.notify(why, 'error');
      cmd.run(s, fx);
    },
  },
  {
    name: 'refresh',
    help: 'reload what is on screen',
    positionals: [],
    required: 0,
    options: [],
    key: 'app.refresh',
  },
  { name: 'help', help: 'show the keys', positionals: [], required: 0, options: [], key: 'app.help' },
  {
    name: 'quit',
    help: 'leave linedesk',
    positionals: [],
    required: 0,
    options: [],
    run: (s) => s.quit(),
  },
];
