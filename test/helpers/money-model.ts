/**
 * A model-based check of the money promise: a schedule of user actions (single changes, bulk jobs,
 * cancels, a kill and restart, and the user's retry after whatever the app reports) runs against
 * the real sandbox over HTTP with a fault schedule; the server's ledger is the judge.
 *
 * The user wants each line changed once: each line takes part in at most one action. So the
 * invariants are: no line charged twice; a line the app reported "not applied" has no charge unless a
 * later retry applied it; the journal's totals equal the ledger (where every amount is known). A line
 * another client changes between the marking and the sending (`meddle`) carries that client's charge
 * too: it is left out of those sums, and a job's "applied" of such a line needs a charge of its own.
 */

import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { createClient } from '../../src/api/client';
import type { LineListItem } from '../../src/api/contract';
import { fileIntentLog } from '../../src/app/intent-file';
import { startTimeOf } from '../../src/app/process-owner';
import { type BulkLine, retryable, toBulkLine } from '../../src/domain/bulk';
import { Marks } from '../../src/domain/marks';
import { prng } from '../../src/sandbox/prng';
import type { IntentLog } from '../../src/services/changes/intent-log';
import { collapse, type JournalEntry, memoryJournal } from '../../src/services/changes/journal';
import type { AppStore } from '../../src/store/app-store';
import { storeOnSandbox } from './app';
import { type Dialect, type FaultRule, faultProxy } from './fault-proxy';
import { books, chargesPerLine, DEMO_KEY, sandbox } from './sandbox';

export type Action =
  | { readonly kind: 'single'; readonly op: 'extend' | 'upgrade' | 'unsuspend'; readonly n: number }
  | { readonly kind: 'create'; readonly trial: boolean }
  | {
      readonly kind: 'bulk';
      readonly op: 'extend' | 'upgrade';
      readonly n: number;
      readonly cancelAfter: number | null;
    }
  | {
      readonly kind: 'kill';
      readonly op: 'extend' | 'upgrade';
      readonly n: number;
      readonly after: number;
      /** The killed job's intent file is then damaged: its last N bytes torn off. */
      readonly tear: number;
    }
  /**
   * A second linedesk (another process) runs a bulk extend at the same time, on overlapping lines.
   * `thereFirst`: its job begins first, so this one's first question (which lines another job is
   * changing) is asked while that job is on disk (and, with `blindAt` 0, while it cannot be read).
   */
  | { readonly kind: 'race'; readonly n: number; readonly overlap: number; readonly thereFirst: boolean }
  /**
   * Another client (another panel) changes a marked line between the marking and the sending: it
   * extends it (the plan stands) or gives it a connection more (the plan changes). `closed`: another
   * job of the account is spending meanwhile, so the job's balance window is closed.
   */
  | {
      readonly kind: 'meddle';
      readonly n: number;
      readonly change: 'extend' | 'connections';
      readonly closed: boolean;
    };

export interface Schedule {
  /** How the server speaks (through the fault-and-dialect proxy). */
  readonly dialect: Dialect;
  readonly faults: string;
  /** Changes the service applies after the client gave up (held past the deadline, after a proxy's
   *  504, answered with a 303): the probability per mutation. */
  readonly late: number;
  /** A write of the intent log fails as a full disk would (the probability per record). */
  readonly diskFull: number;
  /**
   * This linedesk's intent log cannot list its directory (EACCES) once N records of an action are
   * written (0: from the action's start, its first question too), until that action ends (null: it
   * always reads): its questions about other jobs cannot be answered.
   */
  readonly blindAt: number | null;
  readonly actions: readonly Action[];
  readonly concurrency: number;
}

export const scheduleArb: fc.Arbitrary<Schedule> = fc.record({
  dialect: fc.record({
    dates: fc.constantFrom('iso' as const, 'toString' as const, 'long' as const),
    strings: fc.boolean(),
    searchIgnoresIds: fc.boolean(),
    searchLag: fc.constantFrom(0, 0, 2),
  }),
  faults: fc
    .record({
      seed: fc.integer({ min: 1, max: 1_000_000 }),
      resetBefore: fc.constantFrom(0, 0.1, 0.25),
      resetAfter: fc.constantFrom(0, 0.1, 0.25, 0.5),
      error500: fc.constantFrom(0, 0.05, 0.15),
      error429: fc.constantFrom(0, 0.1, 0.2),
      malformed: fc.constantFrom(0, 0.1),
    })
    .map((f) =>
      Object.entries(f)
        .map(([k, v]) => `${k}=${v}`)
        .join(','),
    ),
  late: fc.constantFrom(0, 0, 0.15, 0.3),
  diskFull: fc.constantFrom(0, 0, 0.05),
  blindAt: fc.option(fc.integer({ min: 0, max: 6 }), { nil: null, freq: 3 }),
  concurrency: fc.integer({ min: 1, max: 4 }),
  actions: fc.array(
    fc.oneof(
      fc.record({
        kind: fc.constant('single' as const),
        op: fc.constantFrom('extend' as const, 'upgrade' as const, 'unsuspend' as const),
        n: fc.constant(1),
      }),
      fc.record({ kind: fc.constant('create' as const), trial: fc.boolean() }),
      fc.record({
        kind: fc.constant('bulk' as const),
        op: fc.constantFrom('extend' as const, 'upgrade' as const),
        n: fc.integer({ min: 2, max: 6 }),
        cancelAfter: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
      }),
      fc.record({
        kind: fc.constant('kill' as const),
        op: fc.constantFrom('extend' as const, 'upgrade' as const),
        n: fc.integer({ min: 2, max: 6 }),
        after: fc.integer({ min: 1, max: 8 }),
        tear: fc.constantFrom(0, 0, 1, 7, 40),
      }),
      fc.record({
        kind: fc.constant('race' as const),
        n: fc.integer({ min: 2, max: 6 }),
        overlap: fc.integer({ min: 1, max: 3 }),
        thereFirst: fc.boolean(),
      }),
      fc.record({
        kind: fc.constant('meddle' as const),
        n: fc.integer({ min: 1, max: 4 }),
        change: fc.constantFrom('extend' as const, 'connections' as const),
        closed: fc.boolean(),
      }),
    ),
    { minLength: 1, maxLength: 4 },
  ),
});

/** The hold window of the model: longer than any late change takes to land. */
const HOLD_MS = 1_500;

/**
 * An intent log on disk (a directory of its own) and a journal, that a "kill" freezes: a dead process
 * writes nothing more. `diskFull` makes a record's write fail as ENOSPC would. `blindAt`: once this
 * many records of an action are written (0: from its start; `see` starts an action), the directory
 * cannot be listed.
 */
function killable(dir: string, diskFull: number, random: () => number, blindAt: number | null = null) {
  let blind = false;
  let records = 0;
  const intents = fileIntentLog(dir, undefined, {
    fs: {
      readdirSync: ((...args: Parameters<typeof readdirSync>) => {
        if (blind && String(args[0]) === dir)
          throw Object.assign(new Error(`EACCES: permission denied, scandir '${dir}'`), {
            code: 'EACCES',
            path: dir,
          });
        return readdirSync(...args);
      }) as typeof readdirSync,
    },
  });
  const record = () => {
    if (blindAt !== null && ++records >= blindAt) blind = true;
  };
  const journal = memoryJournal();
  let dead = false;
  let writes = 0;
  let killAt = Number.POSITIVE_INFINITY;
  let onKill: () => void = () => {};
  const tick = () => {
    if (++writes >= killAt && !dead) {
      dead = true;
      onKill();
    }
  };
  const full = () => {
    if (diskFull > 0 && random() < diskFull) throw new Error('ENOSPC: no space left on device, write');
  };
  const log: IntentLog = {
    begin: (j) => {
      if (dead) return;
      full();
      intents.begin(j);
      record();
    },
    line: (id, l) => {
      if (dead) return;
      full();
      intents.line(id, l);
      tick();
      record();
    },
    end: (id) => !dead && intents.end(id),
    open: () => intents.open(),
    closeBalanceWindow: (id) => !dead && intents.closeBalanceWindow(id),
    openBalanceWindow: (id, balance) => {
      if (dead) return;
      full();
      intents.openBalanceWindow(id, balance);
      tick(); // a kill may land between the window's opening and the first request
    },
    // The killed session and the next are the same process here: its jobs are taken over as the
    // next start would take over a dead process's.
    heldElsewhere: (id) => intents.heldElsewhere(id),
    claim: (id) => intents.claim(id),
    release: (id) => !dead && intents.release(id),
    settled: () => intents.settled?.() ?? [],
    damaged: () => intents.damaged?.() ?? [],
    openWithDamage: (expected) => intents.openWithDamage!(expected),
    current: (ids) => intents.current!(ids),
  };
  return {
    log,
    journal: { ...journal, append: (e: JournalEntry) => !dead && journal.append(e) },
    entries: journal.entries,
    arm(after: number, kill: () => void) {
      writes = 0;
      killAt = after;
      onKill = kill;
    },
    revive() {
      dead = false;
      killAt = Number.POSITIVE_INFINITY;
    },
    disarm() {
      killAt = Number.POSITIVE_INFINITY;
    },
    get dead() {
      return dead;
    },
    /** An action starts: the directory reads again, and `blindAt` counts from here. */
    see() {
      records = 0;
      blind = blindAt === 0;
    },
    /** No more blindness (the network heals, the last start). */
    heal() {
      blindAt = null;
      blind = false;
    },
  };
}

const wait = async (check: () => boolean) => {
  for (let i = 0; i < 4_000 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
};

export interface Outcome {
  readonly charges: ReadonlyMap<string, number>;
  readonly spent: number;
  readonly journalKnown: number;
  readonly journalUnknownCharges: number;
  readonly reportedNotApplied: ReadonlySet<string>;
  readonly appliedByJournal: ReadonlySet<string>;
  readonly unknownLeft: number;
  /**
   * Lines two clients both asked to change (a race's overlap): each may be charged once per client
   * that sent it after the other's change was settled; never more.
   */
  readonly askedTwice: ReadonlySet<string>;
  /** Lines claimed applied (without "possibly by another client") more times than they were charged. */
  readonly overclaimed: readonly string[];
  /** Lines another client changed between marking and sending: the charges that client made. */
  readonly meddled: ReadonlyMap<string, number>;
  /** Credits that other client spent (not this machine's: no journal has them). */
  readonly otherSpent: number;
}

/** Runs one schedule; returns what the ledger and the journal say, for the invariants. */
export async function runSchedule(s: Schedule): Promise<Outcome> {
  const env = await sandbox({ lines: 40, credits: 1_000_000 });
  const proxy = await faultProxy(env.sb.baseUrl, { dialect: s.dialect });
  // A short deadline: a change held past it (and applied later) takes a fraction of a second.
  const clientFor = () =>
    createClient({
      baseUrl: proxy.baseUrl,
      apiKey: DEMO_KEY,
      deadlineMs: 400,
      retry: { maxAttempts: 6, baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 5 },
    });
  const client = clientFor();
  const dir = mkdtempSync(join(tmpdir(), 'ld-model-'));
  const seeded = prng(Number(/seed=(\d+)/.exec(s.faults)?.[1] ?? 1));
  const k = killable(dir, s.diskFull, seeded, s.blindAt);
  const sleep = () => new Promise<void>((r) => setTimeout(r, 2));
  const retry = { maxDelayMs: 5, maxRetryAfterMs: 5 };
  // The clock jumps past the hold window at the end, once every late change has landed.
  let skew = 0;
  const now = () => Date.now() + skew;
  const deps = {
    intents: k.log,
    journal: k.journal,
    client,
    sleep,
    retry,
    now,
    holdMs: HOLD_MS,
    bulkConcurrency: s.concurrency,
  };
  let { store } = await storeOnSandbox({}, deps, env);
  await store.getState().loadCatalog();
  const pool: LineListItem[] = (await client.listLines({ limit: 100, type: 'premium' })).lines.filter(
    (l) => l.enabled,
  );
  const suspended = (await client.listLines({ limit: 100, status: 'suspended' })).lines;
  const take = (n: number) => pool.splice(0, n);
  const reportedNotApplied = new Set<string>();
  /** Lines each linedesk claims it applied (not "possibly by another client"). */
  const claims = { here: new Set<string>(), there: new Set<string>() };
  const askedTwice = new Set<string>();
  /** Lines a bulk job here claimed applied (not "possibly by another client"). */
  const bulkClaims = new Set<string>();
  const meddled = new Map<string, number>();
  let otherSpent = 0;
  const noteClaims = (lines: readonly BulkLine[]) => {
    for (const l of lines) if (l.state === 'done' && !l.maybeOther) bulkClaims.add(l.id);
  };
  const otherEntries: JournalEntry[] = [];
  let created = 0;
  env.sb.faults.set(s.faults);
  proxy.set({ dialect: s.dialect, seed: seeded() * 1e9, rules: lateRules(s.late) });

  const markOnly = (lines: readonly LineListItem[]) =>
    store.setState({
      marked: Marks.of(lines),
    });
  /** What the app says of a line last counts: "not sent" then a retry whose outcome is unknown is unknown. */
  const noteFailed = (lines: readonly BulkLine[]) => {
    for (const l of lines)
      if (l.state === 'failed' && l.provenNotApplied) reportedNotApplied.add(l.id);
      else if (l.state === 'done' || l.state === 'unknown' || l.state === 'sending')
        reportedNotApplied.delete(l.id);
  };

  /** A single change the way a user does it: confirm; on "not applied" or a refusal, try again. */
  const single = async (open: () => void) => {
    for (let attempt = 0; attempt < 3; attempt++) {
      open();
      await wait(
        () =>
          store.getState().action?.quote.status !== 'loading' &&
          store.getState().action?.quote.status !== 'idle',
      );
      const a = store.getState().action!;
      if (a.quote.status !== 'ready') {
        store.getState().closeAction();
        continue;
      }
      await store.getState().confirmAction();
      let after = store.getState().action!;
      if (after.phase === 'unknown') {
        await store.getState().recheckAction(); // the user's "check again"
        after = store.getState().action!;
      }
      if (after.job) noteFailed(after.job.lines);
      store.getState().closeAction();
      if (after.phase !== 'failed') return;
    }
  };

  /** A bulk job: preview, start, maybe cancel; then "retry the failed ones" once. */
  const bulk = async (
    op: 'extend' | 'upgrade',
    lines: readonly LineListItem[],
    cancelAfter: number | null,
    /** Between the preview and the start (another client's change of a marked line). */
    between?: () => Promise<void>,
  ) => {
    markOnly(lines);
    store.getState().openBulk(op);
    if (op === 'upgrade') store.getState().bulkAdjust(1);
    await wait(() => store.getState().bulk?.quoting === false);
    await between?.();
    const running = store.getState().bulkStart();
    if (cancelAfter !== null) {
      await wait(
        () =>
          (store.getState().bulk?.progress.done ?? 0) >= cancelAfter ||
          store.getState().bulk?.phase === 'done',
      );
      store.getState().bulkCancel();
    }
    await running;
    noteFailed(store.getState().bulk?.job.lines ?? []);
    noteClaims(store.getState().bulk?.job.lines ?? []);
    if (store.getState().bulk?.job.lines.some((l) => l.state === 'unknown'))
      await store.getState().bulkRecheck();
    noteClaims(store.getState().bulk?.job.lines ?? []);
    if (store.getState().bulk?.job.lines.some(retryable)) {
      store.getState().bulkRetryFailed();
      await wait(() => store.getState().bulk?.quoting === false);
      await store.getState().bulkStart();
      noteFailed(store.getState().bulk?.job.lines ?? []);
      noteClaims(store.getState().bulk?.job.lines ?? []);
    }
    store.getState().bulkClose();
  };

  /** Starts over on the same disk: open intents are checked first; unsent lines are resumed. */
  const restart = async () => {
    k.revive();
    ({ store } = await storeOnSandbox({}, deps, env));
    await store.getState().start();
    await wait(() => store.getState().packages.status !== 'loading');
    for (const r of store.getState().recovery?.jobs ?? []) noteFailed(r.job.lines);
    if (store.getState().recovery?.jobs.some((r) => r.unsent > 0)) {
      await store.getState().resumeJob();
      noteFailed(store.getState().bulk?.job.lines ?? []);
      store.getState().bulkClose();
    } else if (store.getState().recovery) store.getState().dismissRecovery();
  };

  for (const a of s.actions) {
    k.see();
    if (a.kind === 'single') {
      const line = a.op === 'unsuspend' ? suspended.shift() : take(1)[0];
      if (!line) continue;
      await single(() => store.getState().openAction({ op: a.op, line }));
    } else if (a.kind === 'create') {
      const pkg = (
        store.getState().packages as { data?: { is_trial: boolean; duration: number; id: number }[] }
      ).data?.find((p) => p.is_trial === a.trial);
      if (!pkg) continue;
      const username = `modeluser${String(++created).padStart(5, '0')}`;
      const body = { duration: pkg.duration as 1, username, password: 'model-password-01' };
      await single(() =>
        store.getState().openAction({ op: a.trial ? 'trial' : 'create', body, pkg: pkg as never }),
      );
    } else if (a.kind === 'bulk') {
      const lines = take(a.n);
      if (lines.length) await bulk(a.op, lines, a.cancelAfter);
    } else if (a.kind === 'meddle') {
      const lines = take(a.n);
      const target = lines[0];
      if (!target) continue;
      // Another job of this account spending meanwhile (a request of it in flight): the window closes.
      const spending = `meddle-${created++}`;
      if (a.closed)
        fileIntentLog(dir).begin({
          id: spending,
          op: 'extend',
          months: 1,
          connections: 1,
          target: 'sandbox:test',
          createdAt: new Date(now()).toISOString(),
          balanceBefore: 1,
          lines: [
            { ...toBulkLine({ ...target, id: `${spending}-line`, username: spending }), state: 'sending' },
          ],
        });
      await bulk('extend', lines, null, async () => {
        // The other client: straight to the service (its own faults apply), judged by the ledger.
        const before = books(env.sb);
        await (a.change === 'extend'
          ? env.client.extendLine({ id: target.id, duration: 1 })
          : env.client.upgradeLine({ id: target.id, new_connections: target.connections + 1 })
        ).catch(() => null);
        const after = books(env.sb);
        const theirs = after.ledger.slice(before.ledger.length).filter((r) => r.line_id === target.id);
        if (theirs.length) meddled.set(target.id, theirs.length);
        otherSpent += theirs.reduce((n, r) => n + r.amount, 0);
      });
      if (a.closed) fileIntentLog(dir).end(spending);
    } else if (a.kind === 'race') {
      const mine = take(a.n);
      const theirs = [...mine.slice(0, a.overlap), ...take(a.n - a.overlap)];
      if (!mine.length) continue;
      for (const l of mine.slice(0, a.overlap)) askedTwice.add(l.id);
      // Another linedesk: its own process (identity), client and journal, the same data directory.
      const otherClient = clientFor();
      const otherJournal = memoryJournal();
      const { store: there } = await storeOnSandbox(
        {},
        {
          ...deps,
          client: otherClient,
          journal: otherJournal,
          intents: fileIntentLog(dir, { pid: process.ppid, start: startTimeOf(process.ppid) }),
        },
        env,
      );
      await there.getState().loadCatalog();
      markOnly(mine);
      there.setState({
        marked: Marks.of(theirs),
      });
      store.getState().openBulk('extend');
      there.getState().openBulk('extend');
      // Begun in this order (a job's intent is on disk before its start's first await).
      const [first, second] = a.thereFirst ? [there, store] : [store, there];
      await Promise.all([first.getState().bulkStart(), second.getState().bulkStart()]);
      for (const [st, set] of [
        [store, claims.here],
        [there, claims.there],
      ] as const) {
        if (st.getState().bulk?.job.lines.some((l) => l.state === 'unknown'))
          await st.getState().bulkRecheck();
        const lines = st.getState().bulk?.job.lines ?? [];
        noteFailed(lines);
        for (const l of lines) if (l.state === 'done' && !l.maybeOther) set.add(l.id);
        st.getState().bulkClose();
      }
      otherEntries.push(...otherJournal.entries);
      await otherClient.close();
    } else {
      const lines = take(a.n);
      if (!lines.length) continue;
      const old: AppStore = store;
      // dead: no more sending (the job running then), nothing written
      k.arm(a.after, () => old.getState().cancelChange(old.getState().bulk?.job.id ?? ''));
      markOnly(lines);
      old.getState().openBulk(a.op);
      if (a.op === 'upgrade') old.getState().bulkAdjust(1);
      await wait(() => old.getState().bulk?.quoting === false);
      await old.getState().bulkStart(); // requests in flight at the kill still reach the server
      k.disarm(); // the job ended before the kill: this process lives on
      if (k.dead) {
        if (a.tear) tearNewest(dir, a.tear); // and its file was damaged since
        await restart();
      } else old.getState().bulkClose();
    }
  }
  // The faults stop (the network heals), every late change lands, the hold window passes; one more
  // start checks whatever is still open.
  env.sb.faults.set('');
  k.heal();
  proxy.set({ dialect: s.dialect });
  await proxy.landed();
  skew += HOLD_MS;
  await restart();
  const unknownLeft = k.log
    .open()
    .reduce((n, j) => n + j.lines.filter((l) => l.state === 'unknown' || l.state === 'sending').length, 0);
  await client.close();
  await proxy.close();
  rmSync(dir, { recursive: true, force: true });

  const b = books(env.sb);
  const charges = chargesPerLine(env.sb);
  const ops = collapse([...k.entries, ...otherEntries]);
  const appliedByJournal = new Set(
    ops.filter((e) => e.outcome === 'applied' && e.lineId).map((e) => e.lineId!),
  );
  return {
    charges,
    spent: b.spent,
    journalKnown: ops.reduce((sum, e) => sum + (e.outcome === 'applied' ? (e.deducedCredits ?? 0) : 0), 0),
    journalUnknownCharges: ops.filter((e) => e.charge === 'unknown' || e.outcome === 'unknown').length,
    reportedNotApplied,
    appliedByJournal,
    unknownLeft,
    askedTwice,
    overclaimed: [
      ...[...new Set([...claims.here, ...claims.there])].filter(
        (id) => Number(claims.here.has(id)) + Number(claims.there.has(id)) > (charges.get(id) ?? 0),
      ),
      // A line another client changed: this job's "applied" needs a charge beyond that client's.
      ...[...meddled.keys()].filter(
        (id) => bulkClaims.has(id) && (charges.get(id) ?? 0) - (meddled.get(id) ?? 0) < 1,
      ),
    ],
    meddled,
    otherSpent,
    ...(process.env.MODEL_DEBUG ? { entries: [...k.entries, ...otherEntries], ledger: b.ledger } : {}),
  };
}

/** Late changes on every credit-spending route: held past the deadline, after a 504 page, a 303. */
function lateRules(p: number): FaultRule[] {
  if (!p) return [];
  const routes = ['POST /v1/lines', 'POST /v1/lines/trial', 'PUT /v1/lines/extend', 'PUT /v1/lines/upgrade'];
  return routes.flatMap((match) => [
    { match, p: p / 3, fault: { kind: 'applyLate', ms: 700, answer: 'hold' } as const },
    { match, p: p / 2, fault: { kind: 'applyLate', ms: 300, answer: 'gateway' } as const },
    { match, p: p / 1, fault: { kind: 'applyLate', ms: 0, answer: 'seeOther' } as const },
  ]);
}

/** The newest job file loses its last `bytes` (a torn record, as a disk fault leaves it). */
function tearNewest(dir: string, bytes: number): void {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => join(dir, f));
  const newest = files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  if (!newest) return;
  const size = readFileSync(newest).length;
  truncateSync(newest, Math.max(1, size - bytes));
}
