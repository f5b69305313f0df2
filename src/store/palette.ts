import { LINE_TYPES, ORDER_BY, ORDER_TYPES } from '../api/contract';
import { STATUS_VIEWS } from './types';

/** The `:` palette's vocabulary. Pure: parsing and completion are tested without a terminal. */
export interface PaletteCommand {
  readonly name: string;
  readonly help: string;
  /** Allowed values of each argument; `null` means free text. */
  readonly args: ReadonlyArray<readonly string[] | null>;
}

export const PALETTE: readonly PaletteCommand[] = [
  { name: 'lines', help: 'go to the lines browser', args: [] },
  { name: 'account', help: 'go to the account summary', args: [] },
  { name: 'packages', help: 'go to the packages', args: [] },
  { name: 'bouquets', help: 'go to the bouquets', args: [] },
  { name: 'filter', help: 'status filter', args: [STATUS_VIEWS] },
  { name: 'type', help: 'type filter', args: [LINE_TYPES] },
  { name: 'sort', help: 'sort column and order', args: [ORDER_BY, ORDER_TYPES] },
  { name: 'search', help: 'search username or id', args: [null] },
  { name: 'renewals', help: 'renewals; DAYS expiring window, DAYS expired window', args: [null, null] },
  { name: 'lowbalance', help: 'warn below N credits (this profile), or off', args: [null] },
  { name: 'unmark', help: 'clear every mark', args: [] },
  { name: 'find', help: 'search every profile for a username or id', args: [null] },
  { name: 'notes', help: 'column: show or hide the Note column', args: [['column']] },
  { name: 'profile', help: 'list, use NAME, add, rename OLD NEW, remove NAME', args: [null] },
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

export type ParsedPalette =
  | { readonly ok: true; readonly name: string; readonly args: readonly string[] }
  | { readonly ok: false; readonly error: string };

export function parsePalette(input: string): ParsedPalette {
  const words = input.trim().split(/\s+/).filter(Boolean);
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
    .filter((c) => c.args[0] !== null || rest.length > 0)
    .map((c) => [c, parseArgsOf(c, rest)] as const)
    .filter(([, r]) => r.ok);
  const fixed = fits.filter(([c]) => c.args[0] !== null && c.args[0] !== undefined);
  const chosen = fixed.length === 1 ? fixed[0] : fits.length === 1 ? fits[0] : undefined;
  return chosen?.[1] ?? { ok: false, error: `Ambiguous: ${matches.map((m) => m.name).join(', ')}` };
}

function parseArgsOf(cmd: PaletteCommand, rest: readonly string[]): ParsedPalette {
  if (cmd.args[0] === null) return { ok: true, name: cmd.name, args: [rest.join(' ')] };
  if (rest.length > cmd.args.length)
    return { ok: false, error: `${cmd.name} takes ${cmd.args.length || 'no'} argument(s)` };
  if (cmd.args.length && rest.length === 0 && cmd.name !== 'sort') {
    return { ok: false, error: `${cmd.name} needs one of: ${cmd.args[0]!.join(', ')}` };
  }
  const args: string[] = [];
  for (const [i, value] of rest.entries()) {
    const allowed = cmd.args[i];
    const v = value.toLowerCase();
    const resolved =
      allowed && !allowed.includes(v) && ALIASES[v] && allowed.includes(ALIASES[v]) ? ALIASES[v] : v;
    if (allowed && !allowed.includes(resolved)) {
      return {
        ok: false,
        error: `${cmd.name}: "${value}" is not one of ${[...allowed, ...aliasesOf(allowed)].join(', ')}`,
      };
    }
    args.push(resolved);
  }
  return { ok: true, name: cmd.name, args };
}

/** Candidates for the word being typed. */
export function paletteCandidates(input: string): string[] {
  const words = input.split(/\s+/);
  if (words.length <= 1)
    return PALETTE.map((c) => c.name).filter((n) => n.startsWith((words[0] ?? '').toLowerCase()));
  const cmd = PALETTE.find((c) => c.name === words[0]!.toLowerCase());
  const allowed = cmd?.args[words.length - 2];
  if (!allowed) return [];
  const partial = words.at(-1)!.toLowerCase();
  return [...allowed, ...aliasesOf(allowed)].filter((v) => v.startsWith(partial));
}

/** Tab: completes the last word to the candidates' common prefix (and a space when unique). */
export function completePalette(input: string): string {
  const candidates = paletteCandidates(input);
  if (!candidates.length) return input;
  let prefix = candidates[0]!;
  for (const c of candidates) while (!c.startsWith(prefix)) prefix = prefix.slice(0, -1);
  const head = input.slice(0, input.length - (input.split(/\s+/).at(-1)?.length ?? 0));
  return `${head}${prefix}${candidates.length === 1 ? ' ' : ''}`;
}
