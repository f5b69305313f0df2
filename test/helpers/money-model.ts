/**
 * A model-based check of the money promise: a schedule of user actions (single changes, bulk jobs,
 * cancels, a kill and restart, and the user's retry after whatever the app reports) runs against
 * the real sandbox over HTTP with a fault schedule; the server's ledger is the judge.
 *
 * The user wants each line changed once: each line takes part in at most one action. So the
 * invariants are: no line charged twice; a line the app reported "not applied" has no charge unless a
 * later retry applied it; the journal's totals equal the ledger (where every amount is known).
 */
import fc from 'fast-check';
import { createClient } from '../../src/api/client';
import type { LineListItem } from '../../src/api/contract';
import type { BulkLine } from '../../src/domain/bulk';
import type { AppStore } from '../../src/store/app-store';
import { type IntentLog, memoryIntentLog } from '../../src/store/intent-log';
import { collapse, type JournalEntry, memoryJournal } from '../../src/store/journal';
import { storeOnSandbox } from './app';
import { type Dialect, faultProxy } from './fault-proxy';
import { books, DEMO_KEY, sandbox } from './sandbox';

export type Action =
  | { readonly kind: 'single'; readonly op: 'extend' | 'upgrade' | 'unsuspend'; readonly n: number }
  | { readonly kind: 'create'; readonly trial: boolean }
  | {
      readonly kind: 'bulk';
      readonly op: 'extend' | 'upgrade';
      readonly n: number;
      readonly cancelAfter: number | null;
    }
  | { readonly kind: 'kill'; readonly op: 'extend' | 'upgrade'; readonly n: number; readonly after: number };

export interface Schedule {
  /** How the server speaks (through the fault-and-dialect proxy). */
  readonly dialect: Dialect;
  readonly faults: string;
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
      }),
    ),
    { minLength: 1, maxLength: 4 },
  ),
});

/** An intent log and journal that a "kill" freezes: a dead process writes nothing more. */
function killable() {
  const intents = memoryIntentLog();
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
  const log: IntentLog = {
    begin: (j) => !dead && intents.begin(j),
    line: (id, l) => {
      if (dead) return;
      intents.line(id, l);
      tick();
    },
    end: (id) => !dead && intents.end(id),
    open: () => intents.open(),
    closeBalanceWindow: (id) => !dead && intents.closeBalanceWindow(id),
    // One process in the model: a killed session's jobs are taken over by the next.
    heldElsewhere: () => null,
    claim: () => true,
    release() {},
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
}

/** Runs one schedule; returns what the ledger and the journal say, for the invariants. */
export async function runSchedule(s: Schedule): Promise<Outcome> {
  const env = await sandbox({ lines: 40, credits: 1_000_000 });
  const proxy = await faultProxy(env.sb.baseUrl, { dialect: s.dialect });
  const client = createClient({
    baseUrl: proxy.baseUrl,
    apiKey: DEMO_KEY,
    retry: { maxAttempts: 6, baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 5 },
  });
  const k = killable();
  const sleep = () => new Promise<void>((r) => setTimeout(r, 2));
  const retry = { maxDelayMs: 5, maxRetryAfterMs: 5 };
  const deps = { intents: k.log, journal: k.journal, client, sleep, retry, bulkConcurrency: s.concurrency };
  let { store } = await storeOnSandbox({}, deps, env);
  await store.getState().loadCatalog();
  const pool: LineListItem[] = (await client.listLines({ limit: 100, type: 'premium' })).lines.filter(
    (l) => l.enabled,
  );
  const suspended = (await client.listLines({ limit: 100, status: 'suspended' })).lines;
  const take = (n: number) => pool.splice(0, n);
  const reportedNotApplied = new Set<string>();
  let created = 0;
  env.sb.faults.set(s.faults);

  const markOnly = (lines: readonly LineListItem[]) =>
    store.setState({
      marked: new Map(lines.map((l) => [l.id, { id: l.id, username: l.username, line: l }])),
    });
  const noteFailed = (lines: readonly BulkLine[]) => {
    for (const l of lines) if (l.state === 'failed' && l.provenNotApplied) reportedNotApplied.add(l.id);
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
  ) => {
    markOnly(lines);
    store.getState().openBulk(op);
    if (op === 'upgrade') store.getState().bulkAdjust(1);
    await wait(() => store.getState().bulk?.quoting === false);
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
    if (store.getState().bulk?.job.lines.some((l) => l.state === 'unknown'))
      await store.getState().bulkRecheck();
    if (
      store
        .getState()
        .bulk?.job.lines.some((l) => (l.state === 'failed' && l.provenNotApplied) || l.state === 'cancelled')
    ) {
      store.getState().bulkRetryFailed();
      await wait(() => store.getState().bulk?.quoting === false);
      await store.getState().bulkStart();
      noteFailed(store.getState().bulk?.job.lines ?? []);
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
    } else {
      const lines = take(a.n);
      if (!lines.length) continue;
      const old: AppStore = store;
      k.arm(a.after, () => old.getState().cancelChange()); // dead: no more sending, nothing written
      markOnly(lines);
      old.getState().openBulk(a.op);
      if (a.op === 'upgrade') old.getState().bulkAdjust(1);
      await wait(() => old.getState().bulk?.quoting === false);
      await old.getState().bulkStart(); // requests in flight at the kill still reach the server
      k.disarm(); // the job ended before the kill: this process lives on
      if (k.dead) await restart();
      else old.getState().bulkClose();
    }
  }
  // The faults stop (the network heals); one more start checks whatever is still open.
  env.sb.faults.set('');
  await restart();
  const unknownLeft = k.log
    .open()
    .reduce((n, j) => n + j.lines.filter((l) => l.state === 'unknown' || l.state === 'sending').length, 0);
  await client.close();
  await proxy.close();

  const b = books(env.sb);
  const charges = new Map<string, number>();
  for (const r of b.ledger) charges.set(r.line_id, (charges.get(r.line_id) ?? 0) + 1);
  const ops = collapse(k.entries);
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
    ...(process.env.MODEL_DEBUG ? { entries: k.entries, ledger: b.ledger } : {}),
  };
}
