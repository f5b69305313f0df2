import { LINE_TYPES, ORDER_BY, ORDER_TYPES } from '../api/contract';
import { STATUS_VIEWS } from './types';

/**
 * One argument of a palette command, typed: a value from a list; one word; a whole number of days;
 * the rest of the line (free text, last only); or a name read when the palette opens (profiles).
 */
export type PaletteArg =
  | readonly string[]
  | 'word'
  | 'days'
  | 'rest'
  | { readonly values: keyof PaletteValues; readonly also?: readonly string[] };

/** Values known only at run time that arguments complete from (read when the palette opens). */
export interface PaletteValues {
  readonly profiles: readonly string[];
}
export const NO_VALUES: PaletteValues = { profiles: [] };

/** The `:` palette's vocabulary. Pure: parsing and completion are tested without a terminal. */
export interface PaletteCommand {
  readonly name: string;
  readonly help: string;
  readonly args: readonly PaletteArg[];
  /** Arguments after the first chosen by the first's value (`profile use NAME`). */
  readonly sub?: Readonly<Record<string, readonly PaletteArg[]>>;
  /** How many arguments must be given (default: none). */
  readonly required?: number;
}

const PROFILE_VERBS = ['list', 'use', 'add', 'rename', 'remove'] as const;

export const PALETTE: readonly PaletteCommand[] = [
  { name: 'lines', help: 'go to the lines browser', args: [] },
  { name: 'account', help: 'go to the account summary', args: [] },
  { name: 'packages', help: 'go to the packages', args: [] },
  { name: 'bouquets', help: 'go to the bouquets', args: [] },
  { name: 'journal', help: 'go to the journal of changes', args: [] },
  { name: 'filter', help: 'status filter', args: [STATUS_VIEWS], required: 1 },
  { name: 'type', help: 'type filter', args: [LINE_TYPES], required: 1 },
  { name: 'sort', help: 'sort column and order', args: [ORDER_BY, ORDER_TYPES] },
  { name: 'search', help: 'search username or id', args: ['rest'] },
  { name: 'renewals', help: 'renewals; DAYS expiring window, DAYS expired window', args: ['days', 'days'] },
  { name: 'lowbalance', help: 'warn below N credits (this profile), or off', args: ['word'] },
  { name: 'unmark', help: 'clear every mark', args: [] },
  { name: 'find', help: 'search every profile for a username or id', args: ['rest'], required: 1 },
  { name: 'notes', help: 'column: show or hide the Note column', args: [['column']], required: 1 },
  {
    name: 'profile',
    help: 'list, use NAME, add, rename OLD NEW, remove NAME',
    args: [PROFILE_VERBS],
    sub: {
      list: [],
      use: [{ values: 'profiles', also: ['sandbox'] }],
      add: ['word'],
      rename: [{ values: 'profiles' }, 'word'],
      remove: [{ values: 'profiles' }],
    },
  },
  { name: 'refresh', help: 'reload what is on screen', args: [] },
  { name: 'help', help: 'show the keys', args: [] },
  { name: 'quit', help: 'leave linedesk', args: [] },
];

/**
 * The names the screens use for values the API spells otherwise (the column is headed EXPIRES and
 * the sort key called expiry; the API says exp_date): both are accepted, the API's name is sent.
 */
const ALIASES: Readonly<Record<string, string>> = {
  expiry: 'exp_date',
  expires: 'exp_date',
  ascending: 'asc',
  descending: 'desc',
};
const aliasesOf = (allowed: readonly string[]) =>
  Object.entries(ALIASES)
    .filter(([, to]) => allowed.includes(to))
    .map(([from]) => from);

/**
 * Splits a line into words as a shell does: blanks separate, '…' and "…" keep blanks inside a
 * word, a backslash keeps the next character. `open` is the word still being typed ('' after a
 * blank), for completion.
 */
export function splitWords(input: string): {
  readonly words: string[];
  readonly open: string | null;
  readonly openAt: number;
} {
  const words: string[] = [];
  let word: string | null = null;
  let openAt = input.length;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < input.length; i++) {
    const ch = input[i]!;
    if (word === null && !/\s/.test(ch)) openAt = i;
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === '\\' && quote === '"' && i + 1 < input.length) word += input[++i]!;
      else word += ch;
    } else if (/\s/.test(ch)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      word ??= '';
    } else if (ch === '\\' && i + 1 < input.length) {
      word = (word ?? '') + input[++i]!;
    } else {
      word = (word ?? '') + ch;
    }
  }
  return {
    words: word === null ? words : [...words, word],
    open: word ?? (input ? '' : null),
    openAt: word === null ? input.length : openAt,
  };
}

export type ParsedPalette =
  | { readonly ok: true; readonly name: string; readonly args: readonly string[] }
  | { readonly ok: false; readonly error: string };

export function parsePalette(input: string): ParsedPalette {
  const { words } = splitWords(input.trim());
  if (!words.length) return { ok: false, error: 'Type a command; Tab completes' };
  const [word, ...rest] = words as [string, ...string[]];
  const exact = PALETTE.find((c) => c.name === word.toLowerCase());
  if (exact) return parseArgsOf(exact, rest);
  const matches = PALETTE.filter((c) => c.name.startsWith(word.toLowerCase()));
  if (matches.length === 1) return parseArgsOf(matches[0]!, rest);
  if (!matches.length) return { ok: false, error: `Unknown command "${word}"` };
  // A short prefix shared by several commands is settled by its arguments: `:f expired` is the
  // filter (a value from its list), `:f smith` the find (filter refuses it). Among those that
  // accept them, a command with a fixed list of values wins over one taking free text.
  // Free text fits only when some is given: `:f` alone stays ambiguous rather than a find of nothing.
  const fits = matches
    .filter((c) => Array.isArray(c.args[0]) || rest.length > 0)
    .map((c) => [c, parseArgsOf(c, rest)] as const)
    .filter(([, r]) => r.ok);
  const fixed = fits.filter(([c]) => Array.isArray(c.args[0]));
  const chosen = fixed.length === 1 ? fixed[0] : fits.length === 1 ? fits[0] : undefined;
  return chosen?.[1] ?? { ok: false, error: `Ambiguous: ${matches.map((m) => m.name).join(', ')}` };
}

/** The arguments `cmd` takes once `given` are typed (a verb chooses the rest). */
function argsOf(cmd: PaletteCommand, given: readonly string[]): readonly PaletteArg[] {
  const sub = cmd.sub?.[given[0]?.toLowerCase() ?? ''];
  return sub ? [cmd.args[0]!, ...sub] : cmd.args;
}

/** How an argument is written in a usage line. */
const usage = (a: PaletteArg): string =>
  Array.isArray(a)
    ? a.join('|')
    : a === 'days'
      ? 'DAYS'
      : a === 'rest'
        ? 'TEXT…'
        : a === 'word'
          ? 'WORD'
          : 'NAME';

function parseArgsOf(cmd: PaletteCommand, rest: readonly string[]): ParsedPalette {
  const specs = argsOf(cmd, rest);
  const restAt = specs.indexOf('rest');
  const words =
    restAt >= 0 && rest.length > restAt ? [...rest.slice(0, restAt), rest.slice(restAt).join(' ')] : rest;
  const form = `${cmd.name} ${specs.map(usage).join(' ')}`.trim();
  if (words.length > specs.length)
    return { ok: false, error: `${cmd.name} takes ${specs.length || 'no'} argument(s): ${form}` };
  if (words.length < (cmd.required ?? 0)) {
    const first = specs[0]!;
    return {
      ok: false,
      error: Array.isArray(first)
        ? `${cmd.name} needs one of: ${first.join(', ')}`
        : `${cmd.name} needs ${form}`,
    };
  }
  const args: string[] = [];
  for (const [i, value] of words.entries()) {
    const spec = specs[i]!;
    if (spec === 'days') {
      if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 365)
        return { ok: false, error: `${cmd.name}: days are whole numbers from 1 to 365 (${cmd.name} 14 30)` };
      args.push(value);
    } else if (Array.isArray(spec)) {
      const v = value.toLowerCase();
      const resolved = !spec.includes(v) && ALIASES[v] && spec.includes(ALIASES[v]) ? ALIASES[v] : v;
      if (!spec.includes(resolved))
        return {
          ok: false,
          error: `${cmd.name}: "${value}" is not one of ${[...spec, ...aliasesOf(spec)].join(', ')}`,
        };
      args.push(resolved);
    } else {
      // Names from the config and free text are passed as typed; the command judges a name.
      args.push(value);
    }
  }
  return { ok: true, name: cmd.name, args };
}

/** The values an argument completes to. */
function choicesOf(spec: PaletteArg | undefined, values: PaletteValues): readonly string[] {
  if (!spec || typeof spec === 'string') return [];
  if (Array.isArray(spec)) return [...spec, ...aliasesOf(spec)];
  const named = spec as Exclude<PaletteArg, string | readonly string[]>;
  return [...values[named.values], ...(named.also ?? [])];
}

/** Candidates for the word being typed. */
export function paletteCandidates(input: string, values: PaletteValues = NO_VALUES): string[] {
  const { open, openAt } = splitWords(input);
  const typed = splitWords(input.slice(0, openAt)).words;
  const partial = open ?? '';
  if (typed.length === 0)
    return PALETTE.map((c) => c.name).filter((n) => n.startsWith(partial.toLowerCase()));
  const cmd = PALETTE.find((c) => c.name === typed[0]!.toLowerCase());
  if (!cmd) return [];
  const given = typed.slice(1);
  const choices = choicesOf(argsOf(cmd, given)[given.length], values);
  // A list's values are lower case; a name is matched as typed, else ignoring case.
  return choices.filter((v) => v.startsWith(partial) || v.toLowerCase().startsWith(partial.toLowerCase()));
}

/** A word as the shell would read it back: quoted when it holds a blank or a quote. */
const quoteWord = (w: string) => (/[\s'"\\]/.test(w) ? `'${w.replaceAll("'", "'\\''")}'` : w);

/** Tab: completes the last word to the candidates' common prefix (and a space when unique). */
export function completePalette(input: string, values: PaletteValues = NO_VALUES): string {
  const candidates = paletteCandidates(input, values);
  if (!candidates.length) return input;
  let prefix = candidates[0]!;
  for (const c of candidates)
    while (!c.toLowerCase().startsWith(prefix.toLowerCase())) prefix = prefix.slice(0, -1);
  const unique = candidates.length === 1;
  // The word being typed is rewritten whole (quoted if it needs to be).
  const head = input.slice(0, splitWords(input).openAt);
  return `${head}${unique ? quoteWord(prefix) : prefix}${unique ? ' ' : ''}`;
}
