/**
 * One interruption of a running bulk job, end to end: the built app in a real pty against a sandbox
 * process that rate-limits (so the job is slow and meets 429s), interrupted one way, started again,
 * resumed; what was charged is read from the sandbox's own SQLite ledger.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createClient } from '../../src/api/client';
import { type CommandId, command } from '../../src/commands/keymap';
import { keyBytes } from '../helpers/app';
import { runCli, spawnSandbox } from '../helpers/bundle';
import { faultProxy } from '../helpers/fault-proxy';
import { spawnApp } from '../helpers/pty';

/**
 * Not `q`: while a job runs its dialog takes every key but Ctrl-C (Esc is refused until it ends), so
 * `q` cannot end one; it quits through the same `shutdown` as Ctrl-C once the dialog is closed.
 */
export const WAYS = ['Ctrl-C twice', 'SIGINT', 'SIGTERM', 'SIGHUP', 'pty closed', 'kill -9'] as const;
export type Way = (typeof WAYS)[number];

/**
 * When the job is interrupted: `running`, once a few lines are done (some sent, the rest never);
 * `reading`, while its lines are read again before anything is spent (after its intent `begin`,
 * before the engine): nothing sent, every line offered as never sent and charged once on resume.
 */
export const SCHEDULES = ['running', 'reading'] as const;
export type Schedule = (typeof SCHEDULES)[number];

const key = (id: CommandId) => keyBytes(command(id).keys[0]!);

export interface InterruptResult {
  readonly way: Way;
  readonly schedule: Schedule;
  /** Lines the job was started on. */
  readonly lines: number;
  /** Of them, sent before the interruption (charged in the ledger then). */
  readonly sentBefore: number;
  /** What the next start offered: never sent, as the dialog said it. */
  readonly offered: number;
  /** Lines marked again when the job was offered. */
  readonly marked: number;
  /** Ledger rows per line after the resume: every one 1 (0 for an `uncertain` line). */
  readonly chargesPerLine: readonly number[];
  /** Ledger rows for lines outside the job. */
  readonly stray: number;
  /**
   * Lines left uncharged that `linedesk pending` still reports open (unknown): after a kill -9 a
   * line written down as sending may have had its request cut before it reached the server; no
   * check can prove that before the hold window ends, so it stays open and is never re-sent.
   */
  readonly uncertain: number;
  /** Lines left uncharged that nothing reports open: always 0 (a line silently dropped). */
  readonly unaccounted: number;
  /** The first process's exit code (null: killed by a signal the pty reports as such). */
  readonly exit: number | null;
  readonly ms: number;
}

/** Runs one interruption; `cleanups` collects what to stop (the caller runs them after the test). */
export async function interruptAndResume(
  way: Way,
  cleanups: Array<() => void>,
  schedule: Schedule = 'running',
): Promise<InterruptResult> {
  const t0 = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'ld-interrupt-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }));
  const db = join(dir, 'sandbox.sqlite');
  // 8 requests a second (bursts of 16): the job meets 429s and takes seconds, not milliseconds.
  // Not for kill -9: a request the kill caught on its way to a 429 was never applied, but nothing
  // can tell the restart so before the hold window (10 minutes) ends, and it is held, unknown (as it
  // must be). Latency alone: every request in flight at the kill is applied, and seen applied.
  // During the read again nothing is sent: the list requests are held instead (below).
  const slow =
    schedule === 'reading'
      ? []
      : way === 'kill -9'
        ? ['--faults', 'latency=80-160']
        : ['--rate-limit', '8', '--faults', 'latency=30-60'];
  const { child, info } = await spawnSandbox(['--lines', '40', '--db', db, ...slow]);
  cleanups.push(() => child.kill());
  const apiKey = info.accounts[0]!.apiKey;
  // Both starts go through a proxy in front of the sandbox: it holds the job's read again (every
  // list request once the job starts) until the first process has ended, so the interruption lands
  // during the read however slow the machine is; the hold is let go after it, never by a clock.
  const proxy = schedule === 'reading' ? await faultProxy(info.baseUrl) : null;
  let letGo = () => {};
  if (proxy)
    cleanups.push(() => {
      letGo();
      void proxy.close();
    });
  const client = createClient({ baseUrl: info.baseUrl, apiKey });
  cleanups.push(() => void client.close());
  const premium = (await client.listLines({ limit: 100, type: 'premium' })).lines;
  const env = {
    LINEDESK_BASE_URL: proxy?.baseUrl ?? info.baseUrl,
    LINEDESK_API_KEY: apiKey,
    LINEDESK_DATA_DIR: join(dir, 'data'),
    LINEDESK_STATE_DIR: join(dir, 'data'),
  };
  const ledger = () => {
    const sql = new DatabaseSync(db, { readOnly: true });
    try {
      return sql.prepare('SELECT line_id FROM ledger ORDER BY id').all() as Array<{ line_id: string }>;
    } finally {
      sql.close();
    }
  };

  const first = spawnApp([], env);
  cleanups.push(first.cleanup);
  await first.waitFor((s) => /1–\d+ of 40/.test(s), 20_000);
  first.write(key('lines.filterType')); // premium
  await first.waitFor((s) => s.includes('type premium') && !s.includes('loading'), 20_000);
  first.write(key('lines.markAll'));
  await first.waitFor((s) => s.includes(`${premium.length} marked`), 20_000);
  first.write(key('line.extend'));
  await first.waitFor((s) => s.includes('Enter starts'));
  if (proxy) {
    const held = new Promise<void>((r) => {
      letGo = r;
    });
    proxy.set({ onList: () => held }); // counts restart: `received` is the job's own list requests
  }
  first.write(key('bulk.start'));
  if (proxy) {
    // The balance read and the intent `begin` come before the read again: its first list request
    // having reached the sandbox's door, the job is on disk with every line never sent.
    const read = () => (proxy.received.get('GET /v1/lines/all') ?? 0) > 0;
    await first.waitFor(read, 20_000);
  } else await first.waitFor((s) => /done ([3-9]|\d\d) /.test(s), 20_000);
  switch (way) {
    case 'Ctrl-C twice':
      first.write('\u0003');
      await first.waitFor((s) => s.includes('again quits: the job stops after the requests in flight'));
      first.write('\u0003');
      break;
    case 'SIGINT':
    case 'SIGTERM':
    case 'SIGHUP':
      first.child.kill(way);
      break;
    case 'pty closed':
      // The terminal goes away: the kernel hangs up and every read and write fails with EIO.
      (first.child as unknown as { destroy(): void }).destroy();
      break;
    case 'kill -9':
      first.child.kill('SIGKILL');
      break;
  }
  await first.waitExit();
  const exit = first.exitCode();
  // The held reads go on to the sandbox (their client is gone); the next start reads at full speed.
  letGo();
  proxy?.set({});

  const second = spawnApp([], env);
  cleanups.push(second.cleanup);
  await second.waitFor(
    (s) => s.includes('Changes left open') && /\d+ never sent/.test(s) && !s.includes('Checking'),
    20_000,
  );
  const offered = Number(/(\d+) never sent/.exec(second.screen())![1]);
  // Read once the restart has checked the lines in flight: after a kill -9 their requests land a
  // moment after the process is gone (and the check finds them applied).
  const sentBefore = new Set(ledger().map((r) => r.line_id)).size;
  await second.waitFor((s) => new RegExp(`${offered} marked`).test(s), 20_000);
  const marked = offered;
  // Enter only once the dialog offers it (armed): the marks can land before the dialog has been up
  // for its arm delay, and an Enter sooner is held and asked again, as it should be.
  await second.waitFor((s) => /resumes the \d+ lines? never sent/.test(s), 20_000);
  second.write(key('resume.yes'));
  await second.waitFor((s) => s.includes('Finished'), 60_000);
  const rows = ledger();
  const per = new Map<string, number>();
  for (const r of rows) per.set(r.line_id, (per.get(r.line_id) ?? 0) + 1);
  const ids = new Set(premium.map((l) => l.id));
  second.write(key('bulk.close'));
  await second.waitFor((s) => s.includes('USERNAME'));
  second.write('\u0003');
  await second.waitExit();
  const pending = runCli(['pending', '--json'], env);
  const open = new Set(
    (JSON.parse(pending.stdout) as { open: Array<{ id: string; state: string }> }).open
      .filter((r) => r.state !== 'never sent')
      .map((r) => r.id),
  );
  const uncharged = premium.filter((l) => !per.has(l.id));
  return {
    way,
    schedule,
    lines: premium.length,
    sentBefore,
    offered,
    marked,
    chargesPerLine: premium.map((l) => per.get(l.id) ?? 0),
    stray: rows.filter((r) => !ids.has(r.line_id)).length,
    uncertain: uncharged.filter((l) => open.has(l.id)).length,
    unaccounted: uncharged.filter((l) => !open.has(l.id)).length,
    exit,
    ms: Date.now() - t0,
  };
}
