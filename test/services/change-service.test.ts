/**
 * The change service against the real sandbox over HTTP (through the fault proxy, which counts what
 * reaches the service): a refusal by code before any quote, the quote (the server's, or extend's
 * labelled estimate), a change sent to its typed outcome, an unknown outcome kept on disk and settled
 * by a later process, a bulk job over lines; and the headless change path, which builds no store
 * and so touches no dialog state.
 */
import { describe, expect, it, vi } from 'vitest';
import type { LineListItem } from '../../src/api/contract';
import { fileIntentLog } from '../../src/app/intent-file';
import { toBulkLine } from '../../src/domain/bulk';
import { RULES } from '../../src/domain/change-rules';
import { memoryJournal } from '../../src/services/changes/journal';
import { type ChangeEvent, createChangeService } from '../../src/services/changes/service';
import type { Change } from '../../src/services/changes/validate';
import type { FaultRule } from '../helpers/fault-proxy';
import { envFor, headless } from '../helpers/headless';
import { books, DEMO_KEY, sandbox } from '../helpers/sandbox';
import { proxiedSandbox } from './proxied-sandbox';

const built = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/store/app-store', async (original) => {
  const m = await original<typeof import('../../src/store/app-store')>();
  return {
    ...m,
    createAppStore: (...a: Parameters<typeof m.createAppStore>) => {
      built.count++;
      return m.createAppStore(...a);
    },
  };
});

/** A service on a sandbox behind the fault proxy, with its intent log in a directory of its own. */
async function setup(rules: readonly FaultRule[] = [], lines = 30) {
  const { env, proxy, client, dir } = await proxiedSandbox({ lines, rules });
  const journal = memoryJournal();
  const make = () =>
    createChangeService({
      client,
      target: { id: 'sandbox:test', label: 'SANDBOX' },
      intents: fileIntentLog(dir),
      journal,
      sleep: async () => {},
    });
  const changes = make();
  const events: ChangeEvent[] = [];
  changes.subscribe((e) => events.push(e));
  const all = (await env.client.listLines({ limit: 100 })).lines;
  const premium = all.filter((l) => !l.is_trial && l.enabled);
  const trial = all.find((l) => l.is_trial)!;
  const packages = (await env.client.packages()).packages;
  return { env, proxy, client, dir, journal, changes, make, events, premium, trial, packages };
}

const change = (op: Change['op'], line: LineListItem, p: Partial<Change> = {}): Change => ({
  op,
  line,
  body: null,
  months: 1,
  connections: line.connections,
  ...p,
});

const simulated = (proxy: { forwarded: Map<string, number> }) =>
  [...proxy.forwarded].filter(([route]) => route.includes('simulate')).reduce((n, [, c]) => n + c, 0);

describe('the change service', () => {
  it('refuses by code before any quote: the rule, its one message, its field', async () => {
    const { changes, proxy, trial, premium } = await setup();
    expect(changes.validate(change('extend', trial))).toEqual({
      code: 'trialExtend',
      message: RULES.trialExtend,
      field: null,
    });
    expect(changes.validate(change('upgrade', trial, { connections: 2 }))?.code).toBe('trialUpgrade');
    expect(changes.validate(change('upgrade', premium[0]!))).toEqual({
      code: 'sameConnections',
      message: RULES.sameConnections,
      field: 'connections',
    });
    // The balance rules wait for a cost, then refuse by their own code.
    const ok = change('extend', premium[0]!);
    expect(changes.validate(ok, { balance: 0 })).toBeNull();
    expect(changes.validate(ok, { balance: 0, cost: 5 })?.code).toBe('balanceTooLow');
    expect(simulated(proxy)).toBe(0);
  });

  it('quotes: the server for an upgrade, a labelled estimate for extend', async () => {
    const { changes, proxy, premium, packages } = await setup();
    const line = premium.find((l) => l.connections < 6)!;
    const up = await changes.quote(change('upgrade', line, { connections: line.connections + 1 }), packages);
    expect('quote' in up && up.quote.estimate).toBe(false);
    expect('quote' in up && up.quote.cost).toBeGreaterThan(0);
    expect(simulated(proxy)).toBe(1);
    const ext = await changes.quote(change('extend', line, { months: 3 }), packages);
    expect('quote' in ext && ext.quote.estimate).toBe(true);
    expect('quote' in ext && ext.quote.pkg?.duration).toBe(3);
    expect(simulated(proxy)).toBe(1);
  });

  it('sends a change to a typed outcome: applied, charged, journaled, nothing left open', async () => {
    const { changes, env, journal, dir, events, premium, packages } = await setup();
    const line = premium[0]!;
    const c = change('extend', line);
    const q = await changes.quote(c, packages);
    if (!('quote' in q)) throw new Error(q.failure);
    const sent = await changes.send(c, q.quote.cost);
    expect(sent.outcome).toBe('applied');
    expect(sent.line.newBalance).toBe(books(env.sb).balance);
    expect(sent.server?.id).toBe(line.id);
    expect(journal.entries.map((e) => [e.username, e.outcome])).toEqual([[line.username, 'applied']]);
    expect(fileIntentLog(dir).open()).toEqual([]);
    expect(events.some((e) => e.type === 'line' && e.line.state === 'done')).toBe(true);
    expect(events.some((e) => e.type === 'finished')).toBe(true);
  });

  it('keeps an unknown outcome on disk and refuses a new change to its line; a later process settles it', async () => {
    const { changes, make, proxy, dir, premium, env } = await setup([
      { match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'applyLate', ms: 1, answer: 'gateway' } },
    ]);
    proxy.hold(); // the change lands only when the test says
    const line = premium[0]!;
    const sent = await changes.send(change('extend', line), 1);
    expect(sent.outcome).toBe('unknown');
    expect(sent.message).toMatch(/^Outcome unknown/);
    const onDisk = fileIntentLog(dir).open();
    expect(onDisk.map((j) => j.lines.map((l) => [l.id, l.state]))).toEqual([[[line.id, 'unknown']]]);
    expect(changes.open().unsettled.has(line.id)).toBe(true);
    expect(changes.validate(change('extend', line))?.code).toBe('unknownOutcome');
    const charged = books(env.sb).ledger.length;
    await proxy.landed();
    expect(books(env.sb).ledger.length).toBe(charged + 1);
    // The next process checks it first (never re-sends) and finds it applied.
    const later = make();
    const recovered = await later.recoverIntents();
    expect(recovered.map((r) => r.job.lines[0]!.state)).toEqual(['done']);
    expect(later.open().unsettled.has(line.id)).toBe(false);
    expect(books(env.sb).ledger.length).toBe(charged + 1);
  });

  it('the recovery at start looks no line up to mark again: that is the screens’ (a command marks nothing)', async () => {
    const { make, proxy, dir, premium } = await setup();
    // An interrupted job: its lines never sent, one left marked to review (changed since marked).
    fileIntentLog(dir).begin({
      id: 'job-int',
      op: 'extend',
      months: 1,
      connections: 1,
      target: 'sandbox:test',
      createdAt: new Date().toISOString(),
      lines: [
        toBulkLine(premium[0]!),
        toBulkLine(premium[1]!),
        {
          ...toBulkLine(premium[2]!),
          state: 'skipped',
          notSentAsRead: 'changed',
          detail: 'not sent: changed',
        },
      ],
    });
    proxy.set({});
    const recovered = await make().recoverIntents();
    expect(recovered.map((r) => r.unsent)).toEqual([2]);
    expect(proxy.received.get('GET /v1/lines/all') ?? 0).toBe(0);
  });

  it('a line another job changed lately, sent again from the same stale view and lost, is not called applied', async () => {
    // The second extend's request never reaches the service (the connection drops before it).
    const { changes, env, premium, packages } = await setup([
      { match: 'PUT /v1/lines/extend', nth: 2, fault: { kind: 'resetBefore' } },
    ]);
    // Both jobs start from the line as it was first read (a mark kept across both).
    const stale = [toBulkLine(premium[0]!)];
    const plan = () => changes.plan('extend', stale, { months: 1, connections: 1 }, packages);
    const first = await changes.runChange(plan(), { bulk: true });
    expect(first.lines[0]!.state).toBe('done');
    const charged = books(env.sb).ledger.length;
    const second = await changes.runChange(plan(), { bulk: true });
    expect(books(env.sb).ledger.length).toBe(charged);
    // The line shows the first job's change; the balance shows no charge since this job began.
    expect(second.lines[0]!.state).not.toBe('done');
  });

  it('runs a bulk job over lines: planned (a trial line left out by its rule), quoted, per-line outcomes', async () => {
    const { changes, premium, trial, packages } = await setup();
    const lines = [premium[0]!, trial, premium[1]!].map(toBulkLine);
    const planned = await changes.quoteJob(
      changes.plan('extend', lines, { months: 1, connections: 1 }, packages),
    );
    expect(planned.lines.map((l) => l.state)).toEqual(['pending', 'skipped', 'pending']);
    expect(planned.lines[1]!.detail).toBe(RULES.trialExtend);
    expect(changes.validateJob(planned, { balance: 0 })?.code).toBe('totalExceeds');
    expect(changes.validateJob(planned, { balance: 1_000_000 })).toBeNull();
    // The balance not known (not read yet, or its read failed): "only the affordable ones" cannot
    // pick any line, so the job is refused; all of them may go (the service refuses what it does not cover).
    expect(changes.validateJob(planned, { balance: undefined, onlyAffordable: true })?.code).toBe(
      'balanceUnknown',
    );
    expect(changes.validateJob(planned, { balance: undefined, onlyAffordable: false })).toBeNull();
    expect(changes.validateJob(planned, { balance: 0, onlyAffordable: true })).toBeNull();
    const progress: number[] = [];
    const final = await changes.runChange(planned, {
      bulk: true,
      onProgress: (j) => progress.push(j.lines.filter((l) => l.state === 'done').length),
    });
    expect(final.lines.map((l) => l.state)).toEqual(['done', 'skipped', 'done']);
    expect(progress.at(-1)).toBe(2);
  });
});

describe('the headless change path', () => {
  it('builds no store (so no dialog state) for extend --yes and extend --stdin --yes', async () => {
    const env = await sandbox({ lines: 20 });
    const cmdEnv = envFor(env.sb.baseUrl, DEMO_KEY);
    const premium = (await env.client.listLines({ limit: 100, type: 'premium' })).lines;
    built.count = 0;
    const one = await headless(['extend', premium[0]!.username, '--yes', '--json'], { env: cmdEnv });
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout).lines[0].outcome).toBe('applied');
    const many = await headless(['extend', '--stdin', '--yes', '--json'], {
      env: cmdEnv,
      stdin: `${premium[1]!.username}\n${premium[2]!.username}\n`,
    });
    expect(many.code).toBe(0);
    expect(JSON.parse(many.stdout).lines.map((l: { outcome: string }) => l.outcome)).toEqual([
      'applied',
      'applied',
    ]);
    expect(built.count).toBe(0);
  });
});
