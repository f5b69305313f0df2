import type { LineListItem } from '../api/contract';
import { counted } from '../domain/format';
import { endText, type UserCommand } from '../domain/user-commands';
import { lineEnv } from '../present/line-env';
import type { GetState, SetState, StoreDeps } from './deps';
import { selectLinksOf, selectTargetLine } from './selectors';

/** The pager of a command of yours: what it asks, runs, or has shown (or the list of them, `:run`). */
interface UserRun {
  /** Which opening of the pager this is (one more each time it opens): a count of rows drawn for
   *  another run's text is no count for this one (store/drawn-for.ts). */
  readonly run: number;
  readonly name: string;
  readonly label: string;
  readonly phase: 'list' | 'confirm' | 'running' | 'done';
  /** The lines it runs on, as they were when it was asked for. */
  readonly lines: readonly LineListItem[];
  /** Lines finished so far. */
  readonly done: number;
  /**
   * The pager's text, one entry a row: a heading per line run (marked here, so a program's own output
   * can never pass for one), then its output.
   */
  readonly rows: readonly PagerRow[];
}

export interface UserRunSlice {
  /** The config's commands of yours (`commands`), and what was left out of `keys` and `commands`. */
  readonly userCommands: readonly UserCommand[];
  readonly userKeyProblems: readonly string[];
  readonly userRun: UserRun | null;
  /** The screen rows the pager's text takes as last drawn (long lines wrap): how far it scrolls (its
   *  offset is ui-slice `scroll.output`). */
  readonly userRunRows: number;
  /** Runs a command of yours on the line on screen or the marked lines (asks first when it should). */
  runUserCommand: (name: string) => void;
  /** Enter on the question: runs it. */
  confirmUserRun: () => void;
  /** Said by the pager when drawn: how many screen rows its text takes (long lines wrap), so a
   *  scroll can reach the end and the scroll keys are offered only while some are out of view. */
  userRunDrawn: (rows: number) => void;
  /** Esc: stops a run still going (its program is ended) and closes the pager. */
  closeUserRun: () => void;
  /** The app is going away (quit, a profile switch): a program still running is stopped now. */
  stopUserRun: () => void;
  /** `:run` with no name: your commands, their keys, and what the config left out. */
  listUserCommands: (describe: (u: UserCommand) => string) => void;
}

/** A row of the pager: text, or the heading of one line's run and whether it ended well. */
type PagerRow = string | { readonly heading: string; readonly ok: boolean };

/** A heading for one line's run: "── alice (2 of 5): exit 0". */
const heading = (username: string, i: number, n: number, end: string, ok: boolean): PagerRow => ({
  heading: `── ${username}${n > 1 ? ` (${i + 1} of ${n})` : ''}: ${end}`,
  ok,
});

export function createUserRunSlice(set: SetState, get: GetState, deps: StoreDeps): UserRunSlice {
  const now = deps.now ?? Date.now;
  let abort: AbortController | null = null;
  let runs = 0;
  const update = (patch: Partial<UserRun>) => {
    const r = get().userRun;
    if (r) set({ userRun: { ...r, ...patch } });
  };

  async function runAll(u: UserCommand, lines: readonly LineListItem[]): Promise<void> {
    const runner = deps.runProgram;
    const controller = new AbortController();
    abort = controller;
    update({
      phase: 'running',
      rows: [`Running ${JSON.stringify(u.program)} on ${counted(lines.length, 'line')}…`],
    });
    const rows: PagerRow[] = [];
    for (const [i, line] of lines.entries()) {
      if (controller.signal.aborted) break;
      const env = lineEnv(line, {
        nowMs: now(),
        note: get().lineNotes.get(line.id),
        target: deps.target,
        links: selectLinksOf(get(), line),
        index: i + 1,
        count: lines.length,
      });
      const result = runner
        ? await runner({
            program: u.program,
            args: u.args,
            env,
            timeoutMs: u.timeoutMs,
            signal: controller.signal,
          })
        : null;
      if (abort !== controller) return; // closed meanwhile: a new run owns the pager
      const end = result ? endText(result, u.timeoutMs) : 'not started: programs cannot be run here';
      rows.push(heading(line.username, i, lines.length, end, result?.exitCode === 0 && !result.error));
      if (result?.output) rows.push(...result.output.replace(/\n$/, '').split('\n'));
      if (result?.cut) rows.push('… (output cut here: the rest was not kept)');
      update({ done: i + 1, rows: [...rows] });
    }
    if (abort === controller) {
      abort = null;
      update({ phase: 'done' });
    }
  }

  return {
    userCommands: deps.userKeys?.commands ?? [],
    userKeyProblems: deps.userKeys?.problems ?? [],
    userRun: null,
    userRunRows: 0,

    runUserCommand(name) {
      const u = get().userCommands.find((x) => x.name === name);
      if (!u) return get().notify(`No command of yours named "${name}"`, 'error');
      const lines =
        u.scope === 'marks'
          ? [...get().marked.lines()]
          : [selectTargetLine(get())].filter((l): l is LineListItem => l !== undefined);
      if (!lines.length)
        return get().notify(u.scope === 'marks' ? 'No lines marked' : 'No line under the cursor', 'error');
      if (abort) return get().notify('A command of yours is still running', 'error');
      // More than one line always asks first: a sender run on every mark by a slip is not undone.
      const ask = u.confirm || lines.length > 1;
      // A new run's text has not been drawn yet: no count of rows of the last one's.
      set({
        userRunRows: 0,
        userRun: {
          run: ++runs,
          name: u.name,
          label: u.label,
          phase: ask ? 'confirm' : 'running',
          lines,
          done: 0,
          rows: ask
            ? [
                `Runs ${[u.program, ...u.args].map((a) => JSON.stringify(a)).join(' ')}`,
                `once for each of ${counted(lines.length, 'line')}, the line's fields in its environment:`,
                ...lines.slice(0, 200).map((l) => `  ${l.username}`),
                ...(lines.length > 200 ? [`  … and ${counted(lines.length - 200, 'more line')}`] : []),
              ]
            : [],
        },
      });
      get().scrollToStart('output');
      get().pushView({ id: 'output' });
      if (!ask) void runAll(u, lines);
    },

    confirmUserRun() {
      const r = get().userRun;
      const u = r && get().userCommands.find((x) => x.name === r.name);
      if (r?.phase !== 'confirm' || !u) return;
      void runAll(u, r.lines);
    },

    userRunDrawn(rows) {
      if (rows !== get().userRunRows) set({ userRunRows: rows });
    },

    closeUserRun() {
      abort?.abort();
      abort = null;
      set({ userRun: null, userRunRows: 0 });
      get().closeView('output');
    },

    stopUserRun() {
      abort?.abort();
      abort = null;
    },

    listUserCommands(describe) {
      const { userCommands: mine, userKeyProblems: problems } = get();
      set({
        userRunRows: 0,
        userRun: {
          run: ++runs,
          name: '',
          label: 'Your commands',
          phase: 'list',
          lines: [],
          done: 0,
          rows: [
            ...(mine.length
              ? mine.map(describe)
              : ['No commands of yours: docs/CONFIG.md says how to add one.']),
            ...(problems.length ? ['', 'Left out of the config:', ...problems.map((p) => `  ${p}`)] : []),
          ],
        },
      });
      get().scrollToStart('output');
      get().pushView({ id: 'output' });
    },
  };
}
