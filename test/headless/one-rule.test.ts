/**
 * One rule, one answer (issue 23, item 7): every confirm rule refuses through both front-ends with the
 * same sentence — the store (the key's disabled reason, the dialog's confirm, the bulk preview's
 * start) and the headless command against the real sandbox — and the command refuses first and alone:
 * nothing on stdout, no quote or "balance … → …" on stderr, nothing charged, nothing journaled.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LineListItem } from '../../src/api/contract';
import { accountTargetId, intentsDir } from '../../src/app/account-id';
import { fileIntentLog } from '../../src/app/intent-file';
import { command } from '../../src/commands/keymap';
import { RULES } from '../../src/domain/change-rules';
import { buildBody, EMPTY_FORM } from '../../src/domain/line-form';
import { confirmBlocker, type OpenAction, ruleBlocker } from '../../src/store/action-slice';
import type { AppStore } from '../../src/store/app-store';
import { bulkBlocker } from '../../src/store/bulk-slice';
import { loaded } from '../../src/store/types';
import { storeOnSandbox } from '../helpers/app';
import { faultProxy } from '../helpers/fault-proxy';
import { envFor, headless, homeDirs } from '../helpers/headless';
import { books, DEMO_KEY, sandbox } from '../helpers/sandbox';
import { cleanups, until } from '../helpers/wait';

type Env = Awaited<ReturnType<typeof sandbox>>;

const lineOf = async (env: Env, type: 'premium' | 'trial', pick: (l: LineListItem) => boolean = () => true) =>
  (await env.client.listLines({ limit: 100, type })).lines.find(pick)!;

/** A store on the same sandbox, account and catalog loaded, as the app has them before a key. */
async function storeOn(env: Env, deps: Parameters<typeof storeOnSandbox>[1] = {}) {
  const { store } = await storeOnSandbox({}, deps, env);
  await Promise.all([store.getState().loadAccount(), store.getState().loadCatalog()]);
  return store;
}

/** The key's disabled reason for a line (in its detail, as the screen shows it). */
const keyReason = (store: AppStore, id: 'line.extend' | 'line.upgrade', line: LineListItem) => {
  store.getState().openDetail(line);
  return command(id).disabled!(store.getState());
};

/**
 * The dialog: opened as a key opens it, then Enter (confirmAction). Its refusal is the flash line,
 * the dialog stays in review, and the reason equals confirmBlocker's.
 */
async function dialogReason(store: AppStore, open: OpenAction): Promise<string> {
  store.getState().openAction(open);
  await until(() => {
    const a = store.getState().action!;
    return (
      ruleBlocker(a, store.getState()) !== null || a.quote.status === 'ready' || a.quote.status === 'error'
    );
  });
  const blocked = confirmBlocker(
    store.getState().action!,
    loaded(store.getState().account)?.credits,
    store.getState(),
  );
  await store.getState().confirmAction();
  expect(store.getState().action?.phase).toBe('review');
  expect(store.getState().flash?.text).toBe(blocked ?? RULES.readOnly);
  return store.getState().flash!.text;
}

/** The bulk preview's start: its refusal is the flash line; the preview stays. */
async function bulkReason(store: AppStore, lines: readonly LineListItem[], op: 'extend' | 'upgrade') {
  for (const l of lines)
    store.setState({
      marked: store.getState().marked.with([l]),
    });
  store.getState().openBulk(op, undefined, { months: 12 });
  await until(() => store.getState().bulk?.quoting === false);
  const blocked = bulkBlocker(store.getState().bulk!, loaded(store.getState().account)?.credits);
  await store.getState().bulkStart();
  expect(store.getState().bulk?.phase).toBe('preview');
  expect(store.getState().flash?.text).toBe(blocked);
  return blocked!;
}

interface Case {
  readonly name: string;
  readonly credits?: number;
  /** The rule's sentence, as both front-ends must say it. */
  readonly rule: string;
  /** What the store says: every reason it gives (key, dialog, preview). */
  readonly screen: (env: Env) => Promise<readonly (string | null)[]>;
  readonly argv: (env: Env) => Promise<string[]>;
  readonly stdin?: (env: Env) => Promise<string>;
  readonly exit: number;
  readonly path?: readonly string[] | null;
}

/** The form's create (or trial) of a package, as the form would open the dialog. */
async function createOf(env: Env, trial: boolean, duration: number): Promise<readonly (string | null)[]> {
  const store = await storeOn(env);
  const pkg = (loaded(store.getState().packages) ?? []).find(
    (p) => p.is_trial === trial && p.duration === duration,
  )!;
  const body = buildBody(trial, { ...EMPTY_FORM, packageId: pkg.id }, pkg);
  return [await dialogReason(store, { op: trial ? 'trial' : 'create', body, pkg })];
}

const CASES: readonly Case[] = [
  {
    name: 'a trial line extended',
    rule: RULES.trialExtend,
    screen: async (env) => {
      const line = await lineOf(env, 'trial');
      const store = await storeOn(env);
      return [keyReason(store, 'line.extend', line), await dialogReason(store, { op: 'extend', line })];
    },
    argv: async (env) => ['extend', (await lineOf(env, 'trial')).username, '--yes'],
    exit: 1,
  },
  {
    name: 'a trial line upgraded',
    rule: RULES.trialUpgrade,
    screen: async (env) => {
      const line = await lineOf(env, 'trial');
      const store = await storeOn(env);
      return [
        keyReason(store, 'line.upgrade', line),
        await dialogReason(store, { op: 'upgrade', line, connections: 2 }),
      ];
    },
    argv: async (env) => ['upgrade', (await lineOf(env, 'trial')).username, '--connections', '2', '--yes'],
    exit: 1,
  },
  {
    name: 'an extend beyond the balance',
    credits: 2,
    rule: RULES.balanceTooLow,
    screen: async (env) => {
      const line = await lineOf(env, 'premium');
      return [await dialogReason(await storeOn(env), { op: 'extend', line, months: 12 })];
    },
    argv: async (env) => ['extend', (await lineOf(env, 'premium')).username, '--months', '12', '--yes'],
    exit: 1,
  },
  {
    name: 'a create beyond the balance (the "5 → -4" of the issue)',
    credits: 5,
    rule: RULES.balanceTooLow,
    screen: (env) => createOf(env, false, 12),
    argv: async () => ['create', '--months', '12', '--yes'],
    exit: 1,
  },
  {
    name: "a trial below the package's min_balance",
    credits: 5,
    rule: "Balance below the package's minimum of 10 credits",
    screen: (env) => createOf(env, true, 24),
    argv: async () => ['trial', '--hours', '24', '--yes'],
    exit: 1,
  },
  {
    name: 'an upgrade to the connections the line has',
    rule: RULES.sameConnections,
    screen: async (env) => {
      const line = await lineOf(env, 'premium');
      return [await dialogReason(await storeOn(env), { op: 'upgrade', line, connections: line.connections })];
    },
    argv: async (env) => {
      const line = await lineOf(env, 'premium');
      return ['upgrade', line.username, '--connections', String(line.connections), '--yes'];
    },
    exit: 1,
    path: ['connections'],
  },
  {
    name: 'a bulk extend beyond the balance',
    credits: 2,
    rule: RULES.totalExceeds,
    screen: async (env) => {
      const lines = (await env.client.listLines({ limit: 3, type: 'premium' })).lines;
      return [await bulkReason(await storeOn(env), lines, 'extend')];
    },
    argv: async () => ['extend', '--stdin', '--months', '12', '--yes'],
    stdin: async (env) =>
      (await env.client.listLines({ limit: 3, type: 'premium' })).lines.map((l) => l.username).join('\n'),
    exit: 1,
  },
  {
    name: 'a bulk extend of trial lines only',
    rule: RULES.nothingToDo,
    screen: async (env) => {
      const lines = (await env.client.listLines({ limit: 2, type: 'trial' })).lines;
      return [await bulkReason(await storeOn(env), lines, 'extend')];
    },
    argv: async () => ['extend', '--stdin', '--yes'],
    stdin: async (env) =>
      (await env.client.listLines({ limit: 2, type: 'trial' })).lines.map((l) => l.username).join('\n'),
    exit: 1,
  },
  {
    name: 'read-only',
    rule: RULES.readOnly,
    screen: async (env) => {
      const line = await lineOf(env, 'premium');
      const store = await storeOn(env, { readOnly: true });
      return [keyReason(store, 'line.extend', line), await dialogReason(store, { op: 'extend', line })];
    },
    argv: async (env) => ['extend', (await lineOf(env, 'premium')).username, '--read-only', '--yes'],
    // A flag that contradicts the command: a usage error, as the README's table says.
    exit: 2,
    path: ['read-only'],
  },
];

describe('one rule, one answer: the store and the command refuse alike, the command before any quote', () => {
  for (const c of CASES)
    it(c.name, async () => {
      const env = await sandbox({ lines: 40, ...(c.credits !== undefined ? { credits: c.credits } : {}) });
      const home = homeDirs();
      const before = books(env.sb);

      const screen = await c.screen(env);
      for (const reason of screen) expect(reason).toMatch(new RegExp(`^${literal(c.rule)}`));

      for (const json of [false, true]) {
        const argv = [...(await c.argv(env)), ...(json ? ['--json'] : [])];
        const r = await headless(argv, {
          env: envFor(env.sb.baseUrl, DEMO_KEY, home),
          ...(c.stdin ? { stdin: await c.stdin(env) } : {}),
        });
        expect(r.code).toBe(c.exit);
        // Alone: nothing on stdout, no quote on stderr.
        expect(r.stdout).toBe('');
        expect(r.stderr).not.toMatch(/→|quoted by the server|an estimate|COST|run it again with --yes/);
        if (json) {
          const { error } = JSON.parse(r.stderr);
          expect(error.message).toMatch(new RegExp(`^${literal(c.rule)}`));
          expect(error.message).toMatch(/nothing was sent$/);
          expect(error.exit).toBe(c.exit);
          expect(error.path).toEqual(c.path ?? null);
        } else expect(r.stderr).toContain(c.rule);
        // Without --yes the same refusal, not the quote and exit 4.
        const noYes = await headless(
          argv.filter((a) => a !== '--yes'),
          { env: envFor(env.sb.baseUrl, DEMO_KEY, home), ...(c.stdin ? { stdin: await c.stdin(env) } : {}) },
        );
        expect(noYes.code).toBe(c.exit);
        expect(noYes.stdout).toBe('');
      }
      expect(books(env.sb).ledger).toHaveLength(before.ledger.length);
      expect(books(env.sb).balance).toBe(before.balance);
      expect(existsSync(join(home.LINEDESK_DATA_DIR, 'journal.jsonl'))).toBe(false);
    });

  it('a line whose earlier change is still open: the key and the command name the same rule (exit 3)', async () => {
    const env = await sandbox({ lines: 20 });
    // The first extend's reply is a proxy's 504 while its upstream applies it later: held until the
    // test releases it, so the second run meets the change still open however slow the machine is.
    const proxy = await faultProxy(env.sb.baseUrl, {
      rules: [
        { match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'applyLate', ms: 0, answer: 'gateway' } },
      ],
    });
    proxy.hold();
    cleanups.push(async () => {
      proxy.release();
      await proxy.landed();
      await proxy.close();
    });
    // The late change waits until the end (landed): on a busy machine its 400 ms passed before the
    // last command, which then saw it applied and rightly sent a new extend.
    proxy.hold();
    const home = homeDirs();
    const run = (...argv: string[]) => headless(argv, { env: envFor(proxy.baseUrl, DEMO_KEY, home) });
    const line = await lineOf(env, 'premium');
    expect((await run('extend', line.username, '--yes')).code).toBe(3);
    const charged = books(env.sb).ledger.length;

    // The store of the same account on the same data directory, as the app would start.
    const targetId = accountTargetId(new URL(proxy.baseUrl).href, DEMO_KEY);
    const { store } = await storeOnSandbox(
      {},
      {
        intents: fileIntentLog(intentsDir(home.LINEDESK_DATA_DIR, targetId)),
        target: { id: targetId, kind: 'remote', label: 'test', baseUrl: proxy.baseUrl },
      },
      env,
    );
    await store.getState().recoverIntents();
    const reason = keyReason(store, 'line.extend', line)!;
    expect(reason).toMatch(new RegExp(`^${literal(RULES.unknownOutcome)}`));

    for (const json of [false, true]) {
      const again = await run('extend', line.username, '--yes', ...(json ? ['--json'] : []));
      expect(again.code).toBe(3);
      expect(again.stdout).toBe('');
      expect(again.stderr).toContain(`${line.username}: ${RULES.unknownOutcome}`);
      expect(again.stderr).not.toMatch(/→|COST/);
    }
    // Nothing new was sent: whatever the first request charged (it lands late), no second charge.
    expect(books(env.sb).ledger.length).toBe(charged);
    proxy.release();
    await proxy.landed();
    expect(books(env.sb).ledger.filter((r) => r.line_id === line.id)).toHaveLength(1);
  });
});

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
