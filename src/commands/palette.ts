/**
 * The `:` palette: a line split as a shell splits it, its command found by name or prefix, its
 * arguments read by the one parser (args.ts) against the command's spec, the same way the command
 * line reads them; Tab completes from the same specs. Pure but for `runPalette`, which runs the
 * parsed command on the store (palette-commands.ts has the commands).
 */
import type { AppState } from '../store/app-store';
import {
  type ArgsSpec,
  candidatesOf,
  NO_VALUES,
  type PositionalSpec,
  parseWords,
  placeholder,
  type RunValues,
  type Values,
} from './args';
import type { UiEffects } from './effects';
import { joined, keyNamed, said } from './hints';
import { PALETTE, type PaletteCommand, runKey } from './palette-commands';

export { PALETTE } from './palette-commands';

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

type ParsedPalette =
  | {
      readonly ok: true;
      readonly name: string;
      readonly args: readonly string[];
      readonly values: Values;
    }
  | { readonly ok: false; readonly error: string };

/** The positionals `cmd` takes once `given` are typed (a verb chooses the rest). */
function positionalsOf(cmd: PaletteCommand, given: readonly string[]): readonly PositionalSpec[] {
  const sub = cmd.sub?.[given[0]?.toLowerCase() ?? ''];
  return sub ? [cmd.positionals[0]!, ...sub] : cmd.positionals;
}

const paletteOptions = (cmd: PaletteCommand) => cmd.options.filter((o) => !o.cliOnly);

/** The form a usage error shows: `renewals [DAYS] [DAYS] [--within DAYS] [--expired DAYS]`. */
export function paletteUsage(cmd: PaletteCommand, given: readonly string[] = []): string {
  const pos = positionalsOf(cmd, given).map((p, i) =>
    i < cmd.required ? placeholder(p) : `[${placeholder(p)}]`,
  );
  const opts = paletteOptions(cmd).map(
    (o) => `[--${o.name}${o.type === 'string' ? ` ${o.value ?? 'X'}` : ''}]`,
  );
  return [cmd.name, ...pos, ...opts].join(' ');
}

function parseArgsOf(cmd: PaletteCommand, rest: readonly string[]): ParsedPalette {
  const spec: ArgsSpec = { ...cmd, positionals: positionalsOf(cmd, rest) };
  const r = parseWords(spec, rest, 'palette', paletteUsage(cmd, rest));
  return r.ok
    ? { ok: true, name: cmd.name, args: r.positionals, values: r.values }
    : { ok: false, error: r.message };
}

const hasFixedList = (c: PaletteCommand) => c.positionals[0]?.arg.kind === 'choice';

export function parsePalette(input: string): ParsedPalette {
  const { words } = splitWords(input.trim());
  if (!words.length) return { ok: false, error: 'Type a command' };
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
    .filter((c) => hasFixedList(c) || rest.length > 0)
    .map((c) => [c, parseArgsOf(c, rest)] as const)
    .filter(([, r]) => r.ok);
  const fixed = fits.filter(([c]) => hasFixedList(c));
  const chosen = fixed.length === 1 ? fixed[0] : fits.length === 1 ? fits[0] : undefined;
  return chosen?.[1] ?? { ok: false, error: `Ambiguous: ${matches.map((m) => m.name).join(', ')}` };
}

/** Candidates for the word being typed: a command, an option, an option's value, an argument. */
export function paletteCandidates(input: string, values: RunValues = NO_VALUES): string[] {
  const { open, openAt } = splitWords(input);
  const typed = splitWords(input.slice(0, openAt)).words;
  const partial = open ?? '';
  if (typed.length === 0)
    return PALETTE.map((c) => c.name).filter((n) => n.startsWith(partial.toLowerCase()));
  const cmd = PALETTE.find((c) => c.name === typed[0]!.toLowerCase());
  if (!cmd) return [];
  const options = paletteOptions(cmd);
  // Options may come anywhere; a value follows its option; the rest are arguments in order.
  const given: string[] = [];
  let awaiting: (typeof options)[number] | undefined;
  for (const w of typed.slice(1)) {
    if (awaiting) awaiting = undefined;
    else if (w.startsWith('--')) {
      const o = options.find((x) => x.name === w.slice(2).split('=')[0]);
      if (o?.type === 'string' && !w.includes('=')) awaiting = o;
    } else given.push(w);
  }
  const choices = awaiting
    ? candidatesOf(awaiting.arg, values)
    : partial.startsWith('-')
      ? options.map((o) => `--${o.name}`)
      : candidatesOf(positionalsOf(cmd, given)[given.length]?.arg, values);
  // A list's values are lower case; a name is matched as typed, else ignoring case.
  return choices.filter((v) => v.startsWith(partial) || v.toLowerCase().startsWith(partial.toLowerCase()));
}

/** A word as the shell would read it back: quoted when it holds a blank or a quote. */
const quoteWord = (w: string) => (/[\s'"\\]/.test(w) ? `'${w.replaceAll("'", "'\\''")}'` : w);

/** Tab: completes the last word to the candidates' common prefix (and a space when unique). */
export function completePalette(input: string, values: RunValues = NO_VALUES): string {
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

/** The names the palette completes to now: the profiles read when it opened, the config's templates
 *  and saved views. */
const runValues = (s: AppState): RunValues => ({
  profiles: s.paletteValues.profiles,
  templates: s.templates.map((t) => t.id),
  views: s.savedViews.map((v) => v.name),
  commands: s.userCommands.map((u) => u.name),
});

/** Tab in the palette. */
export function completePaletteInput(s: AppState): void {
  s.setPaletteInput(completePalette(s.paletteInput, runValues(s)));
}

/** Enter in the palette: a line that parses is kept in the history and run; otherwise why not. */
export function runPalette(s: AppState, fx: UiEffects): void {
  const parsed = parsePalette(s.paletteInput);
  if (!parsed.ok) {
    const complete = s.paletteInput.trim() ? null : said(keyNamed(s, 'palette.complete'), 'completes');
    s.notify(joined([parsed.error, complete], '; '), 'error');
    return;
  }
  s.paletteAccepted(s.paletteInput);
  const cmd = PALETTE.find((c) => c.name === parsed.name)!;
  if (cmd.run) cmd.run(s, { values: parsed.values, positionals: parsed.args }, fx);
  else if (cmd.key) runKey(s, cmd.key, fx);
}
