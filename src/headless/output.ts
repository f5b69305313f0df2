/**
 * Where a headless command writes: data on stdout, messages and progress on stderr. A reader that
 * goes away (`| head -1`: EPIPE) ends the output quietly, never with a crash; progress is drawn only
 * on a terminal, colour only on a terminal without NO_COLOR.
 */

import type { ClientTuning } from '../app/connection';

/** The part of a stream the commands use; process.stdout and a test's collector both fit. */
export interface OutStream {
  write(chunk: string): boolean;
  readonly isTTY?: boolean;
  readonly columns?: number;
  on?(event: 'error', listener: (err: NodeJS.ErrnoException) => void): unknown;
  once?(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
  off?(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
}

export interface HeadlessIo {
  readonly stdout: OutStream;
  readonly stderr: OutStream;
  /** Read only by --stdin. */
  readonly stdin: AsyncIterable<string | Buffer>;
  readonly env: NodeJS.ProcessEnv;
  readonly now?: () => number;
  /** Tests only: shorter pauses between the checks of an unclear outcome, fewer read retries. */
  readonly tune?: {
    readonly sleep?: (ms: number) => Promise<void>;
    readonly client?: ClientTuning;
  };
}

/** What went wrong, as `--json` prints it on stderr: the fields the app's screens show. */
export interface Failure {
  readonly code: string;
  readonly message: string;
  /** The field the message concerns (`["username"]`, `["months"]`), or null. */
  readonly path: readonly string[] | null;
  readonly exit: number;
}

const PROGRESS_EVERY_MS = 100;
const ANSI = {
  red: '\u001b[31m',
  yellow: '\u001b[33m',
  green: '\u001b[32m',
  magenta: '\u001b[35m',
  dim: '\u001b[2m',
  off: '\u001b[0m',
};
export type Tint = keyof Omit<typeof ANSI, 'off'>;

export class Output {
  /** stdout's reader went away: nothing more is written, walks stop. */
  closed = false;
  readonly #io: HeadlessIo;
  readonly #json: boolean;
  readonly #now: () => number;
  #progressAt = 0;
  #progressShown = false;

  constructor(io: HeadlessIo, opts: { readonly json: boolean }) {
    this.#io = io;
    this.#json = opts.json;
    this.#now = io.now ?? Date.now;
    const onError = (err: NodeJS.ErrnoException) => {
      if (err?.code === 'EPIPE' || err?.code === 'ERR_STREAM_DESTROYED') this.closed = true;
    };
    io.stdout.on?.('error', onError);
    // A closed stderr must not crash the process either; messages are then lost, data is not.
    io.stderr.on?.('error', () => {});
  }

  get isTerminal(): boolean {
    return this.#io.stdout.isTTY === true;
  }

  /** Terminal width for tables: the terminal's, else COLUMNS, else 100 (a terminal may say 0). */
  get columns(): number {
    const cols = this.#io.stdout.columns || Number(this.#io.env.COLUMNS) || 100;
    return Math.max(40, cols);
  }

  get colour(): boolean {
    const nc = this.#io.env.NO_COLOR;
    return this.#io.stdout.isTTY === true && (nc === undefined || nc === '');
  }

  tint(text: string, tint: Tint | undefined): string {
    return tint && this.colour ? `${ANSI[tint]}${text}${ANSI.off}` : text;
  }

  /** Data; waits when the reader is slower than us (backpressure), stops quietly once it is gone. */
  async data(text: string): Promise<void> {
    if (this.closed || text === '') return;
    this.clearProgress();
    let ok: boolean;
    try {
      ok = this.#io.stdout.write(text);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EPIPE') this.closed = true;
      else throw err;
      return;
    }
    const s = this.#io.stdout;
    if (!ok && s.once && s.off) {
      await new Promise<void>((resolve) => {
        const done = () => {
          s.off!('drain', done);
          s.off!('close', done);
          s.off!('error', done);
          resolve();
        };
        s.once!('drain', done);
        s.once!('close', done);
        s.once!('error', done);
      });
    }
  }

  /** A message for the person (stderr). Never data. */
  message(text: string, tint?: Tint): void {
    this.clearProgress();
    const s = this.#io.stderr;
    const on = s.isTTY === true && (this.#io.env.NO_COLOR ?? '') === '';
    s.write(`${tint && on ? `${ANSI[tint]}${text}${ANSI.off}` : text}\n`);
  }

  /**
   * One progress line, redrawn in place, at most ten times a second; only on a terminal. A function
   * is called only when the line is drawn (a listing reports each of its 1,000 pages).
   */
  progress(text: string | (() => string), force = false): void {
    if (this.#io.stderr.isTTY !== true) return;
    const now = this.#now();
    if (!force && now - this.#progressAt < PROGRESS_EVERY_MS) return;
    this.#progressAt = now;
    this.#progressShown = true;
    this.#io.stderr.write(`\r${typeof text === 'function' ? text() : text}\u001b[K`);
  }

  clearProgress(): void {
    if (!this.#progressShown) return;
    this.#progressShown = false;
    this.#io.stderr.write('\r\u001b[K');
  }

  /** A failure: JSON on stderr with --json, a sentence otherwise. */
  fail(f: Failure): void {
    this.clearProgress();
    if (this.#json) {
      this.#io.stderr.write(
        `${JSON.stringify({ error: { code: f.code, message: f.message, path: f.path, exit: f.exit } })}\n`,
      );
      return;
    }
    // A message that starts with the option already names it.
    const where = f.path?.length && !f.message.startsWith('--') ? `${f.path.join('.')}: ` : '';
    this.message(`linedesk: ${where}${f.message}`, 'red');
    if (f.exit === 2 && f.code === 'usage')
      this.message("Try 'linedesk --help' or 'linedesk COMMAND --help'.");
  }
}
