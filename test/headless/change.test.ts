/**
 * The change commands in-process against the sandbox over HTTP: nothing is charged without --yes,
 * a charge happens once, a lost reply is checked and never re-sent (exit 0 or 3 as the check
 * proves), an open intent is checked by the next run, and a bad line of stdin does not stop the rest.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { intentsDir } from '../../src/app/account-id';
import { faultProxy, lostReplyThenReadsFail } from '../helpers/fault-proxy';
import { envFor, headless, homeDirs } from '../helpers/headless';
import { books, DEMO_KEY, SECOND_KEY, sandbox } from '../helpers/sandbox';

const premium = async (env: NodeJS.ProcessEnv, n: number) =>
  (
    await headless(['lines', '--type', 'premium', '--status', 'active', '--ndjson', '--limit', String(n)], {
      env,
    })
  ).stdout
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as { id: string; username: string; exp_date: string; connections: number });

const journal = (home: ReturnType<typeof homeDirs>) => {
  try {
    return readFileSync(join(home.LINEDESK_DATA_DIR, 'journal.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
  } catch {
    return [];
  }
};

describe('change commands', () => {
  it('extend: without --yes a quote and exit 4, nothing charged; with --yes one charge', async () => {
    const { sb } = await sandbox({ lines: 30 });
    const home = homeDirs();
    const env = envFor(sb.baseUrl, DEMO_KEY, home);
    const [line] = await premium(env, 1);
    const quote = await headless(['extend', line!.username, '--months', '3', '--json'], { env });
    expect(quote.code).toBe(4);
    const q = JSON.parse(quote.stdout);
    expect(q).toMatchObject({ op: 'extend', sent: false, estimate: true, balance: 1000 });
    expect(q.lines[0]).toMatchObject({ id: line!.id, change: '+3 months' });
    // The shapes scripts read are pinned.
    expect(Object.keys(q)).toEqual([
      'op',
      'target',
      'sent',
      'estimate',
      'total',
      'balance',
      'balanceAfter',
      'lines',
    ]);
    expect(q.target).toEqual({ kind: 'remote', label: new URL(sb.baseUrl).host });
    expect(Object.keys(q.lines[0])).toEqual(['id', 'username', 'change', 'cost', 'skipped', 'note']);
    expect(quote.stderr).toContain('--yes');
    expect(books(sb).ledger).toHaveLength(0);
    expect(journal(home)).toHaveLength(0);

    const done = await headless(['extend', line!.id, '--months', '3', '--yes', '--json'], { env });
    expect(done.code).toBe(0);
    const r = JSON.parse(done.stdout);
    expect(r.lines[0]).toMatchObject({ id: line!.id, outcome: 'applied', charge: 'reply' });
    expect(Object.keys(r)).toEqual(['op', 'target', 'sent', 'lines', 'notFound']);
    expect(r.target).toEqual({ kind: 'remote', label: new URL(sb.baseUrl).host });
    expect(Object.keys(r.lines[0])).toEqual([
      'id',
      'username',
      'outcome',
      'charged',
      'charge',
      'newBalance',
      'detail',
    ]);
    expect(books(sb).ledger).toHaveLength(1);
    expect(r.lines[0].charged).toBe(books(sb).ledger[0]!.amount);
    expect(journal(home)).toMatchObject([{ operation: 'extend', outcome: 'applied', lineId: line!.id }]);
  });

  it('a lost reply is checked, never re-sent: applied on the proof (exit 0), one charge', async () => {
    const { sb } = await sandbox({ lines: 30 });
    const proxy = await faultProxy(sb.baseUrl, {
      rules: [{ match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'replyLost' } }],
    });
    try {
      const env = envFor(proxy.baseUrl, DEMO_KEY);
      const [line] = await premium(env, 1);
      const r = await headless(['extend', line!.username, '--yes'], { env });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/Applied: the server shows the change/);
      expect(proxy.forwarded.get('PUT /v1/lines/extend')).toBe(1);
      expect(books(sb).ledger).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it('a lost reply the checks cannot settle: exit 3, kept open; the next run checks it first', async () => {
    const { sb } = await sandbox({ lines: 30 });
    const proxy = await lostReplyThenReadsFail(sb.baseUrl);
    const home = homeDirs();
    try {
      const [line] = await premium(envFor(sb.baseUrl, DEMO_KEY, home), 1);
      const env = envFor(proxy.baseUrl, DEMO_KEY, home);
      const r = await headless(['extend', line!.username, '--yes', '--json'], { env });
      expect(r.code).toBe(3);
      expect(JSON.parse(r.stdout).lines[0]).toMatchObject({ id: line!.id, outcome: 'unknown' });
      expect(r.stderr).toMatch(/Nothing is re-sent.*intent log/);
      expect(proxy.forwarded.get('PUT /v1/lines/extend')).toBe(1);
      expect(books(sb).ledger).toHaveLength(1);
      const intents = readdirSync(home.LINEDESK_DATA_DIR).filter((d) => d.startsWith('intents-'));
      expect(intents.some((d) => readdirSync(join(home.LINEDESK_DATA_DIR, d)).length > 0)).toBe(true);

      // The next change command, quote only, checks the open change before anything else.
      proxy.set({});
      const next = await headless(['extend', line!.username], { env });
      expect(next.code).toBe(4);
      expect(next.stderr).toMatch(/An earlier extend .* checked with the server: 1 applied/);
      // Still the one request of the first run: the check never re-sends it.
      expect(proxy.forwarded.get('PUT /v1/lines/extend')).toBe(1);
      expect(books(sb).ledger).toHaveLength(1);
      const ops = journal(home).filter((e) => e.lineId === line!.id);
      expect(ops.at(-1)).toMatchObject({ outcome: 'applied' });
    } finally {
      await proxy.close();
    }
  });

  /** Moves the open job under an account id no key here has, as a changed key leaves it. */
  const rotateKey = (data: string) => {
    const dir = readdirSync(data).find(
      (d) => d.startsWith('intents-') && readdirSync(join(data, d)).some((f) => f.endsWith('.jsonl')),
    )!;
    const file = readdirSync(join(data, dir)).find((f) => f.endsWith('.jsonl'))!;
    const [head, ...rest] = readFileSync(join(data, dir, file), 'utf8').split('\n');
    const job = JSON.parse(head!).job;
    const rotated = job.target.replace(/#.*/, '#0000000000000000');
    mkdirSync(intentsDir(data, rotated), { recursive: true });
    writeFileSync(
      join(intentsDir(data, rotated), file),
      [JSON.stringify({ job: { ...job, target: rotated } }), ...rest].join('\n'),
    );
    rmSync(join(data, dir), { recursive: true });
  };

  it.each([
    ['as it was left', () => {}],
    ['under an earlier key of the same account', rotateKey],
  ])(
    'an open change %s is checked by its own account only, never by another on the same service',
    async (_, move) => {
      const { sb } = await sandbox({ lines: 30 });
      const proxy = await lostReplyThenReadsFail(sb.baseUrl);
      const home = homeDirs();
      const lastOutcome = (id: string) =>
        journal(home)
          .filter((e) => e.lineId === id)
          .at(-1)?.outcome;
      try {
        const [mine] = await premium(envFor(sb.baseUrl, DEMO_KEY, home), 1);
        const [theirs] = await premium(envFor(sb.baseUrl, SECOND_KEY, home), 1);
        const first = await headless(['extend', mine!.username, '--yes'], {
          env: envFor(proxy.baseUrl, DEMO_KEY, home),
        });
        expect(first.code).toBe(3);
        proxy.set({});
        move(home.LINEDESK_DATA_DIR);
        // The other account cannot see the line, and its balance says nothing of this account's charge:
        // judging the change with them would call an applied extend "not applied". It is said, and held.
        const other = await headless(['extend', theirs!.username], {
          env: envFor(proxy.baseUrl, SECOND_KEY, home),
        });
        expect(other.code).toBe(4);
        expect(other.stderr).not.toMatch(/checked with the server/);
        expect(other.stderr).toMatch(
          /under another key or account .* not this account's .* nothing is re-sent/,
        );
        expect(lastOutcome(mine!.id)).toBe('unknown');
        // The account that made it is shown the line: the job is its own, and checked.
        const again = await headless(['extend', mine!.username], {
          env: envFor(proxy.baseUrl, DEMO_KEY, home),
        });
        expect(again.stderr).toMatch(/An earlier extend .* checked with the server: 1 applied/);
        expect(lastOutcome(mine!.id)).toBe('applied');
        expect(proxy.forwarded.get('PUT /v1/lines/extend')).toBe(1);
        expect(books(sb).ledger).toHaveLength(1);
      } finally {
        await proxy.close();
      }
    },
  );

  it('--stdin: a line not found is named and the others go on; exit 6 (partly done), never 1', async () => {
    const { sb } = await sandbox({ lines: 30 });
    const env = envFor(sb.baseUrl, DEMO_KEY);
    const [a, b] = await premium(env, 2);
    const stdin = `${a!.username}\nno-such-line-here\n${b!.id}\n`;
    const quote = await headless(['extend', '--stdin'], { env, stdin });
    expect(quote.code).toBe(4);
    expect(books(sb).ledger).toHaveLength(0);
    const r = await headless(['extend', '--stdin', '--yes'], { env, stdin });
    // 1 says "nothing charged"; two lines were: a script retrying on 1 would charge them again.
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('stdin line 2: no line answers to "no-such-line-here"');
    expect(r.stdout).toMatch(new RegExp(`${a!.username}\\tapplied`));
    expect(r.stdout).toMatch(new RegExp(`${b!.username}\\tapplied`));
    expect(books(sb).ledger).toHaveLength(2);
  });

  it('--stdin: the balance cannot be read, so nothing is sent; a clear message and exit 1', async () => {
    // There is no "affordable only" flag: a bulk command reads the balance before anything else (its
    // job is judged against it), and without one it goes no further.
    const { sb } = await sandbox({ lines: 30 });
    const [a, b] = await premium(envFor(sb.baseUrl, DEMO_KEY), 2);
    const proxy = await faultProxy(sb.baseUrl, {
      rules: [{ match: 'GET /v1/me', fault: { kind: 'error5xx', status: 503 } }],
    });
    try {
      const r = await headless(['extend', '--stdin', '--yes'], {
        env: envFor(proxy.baseUrl, DEMO_KEY),
        stdin: `${a!.username}\n${b!.username}\n`,
      });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain('The balance could not be read, so nothing was sent:');
      expect(r.stderr).toContain('Injected by the proxy');
      expect(r.stdout).toBe('');
      expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(0);
      expect(books(sb).ledger).toHaveLength(0);
    } finally {
      await proxy.close();
    }
  });

  it('create: the form rules with the field path; then one charge and the new credentials', async () => {
    const { sb } = await sandbox({ lines: 5 });
    const env = envFor(sb.baseUrl, DEMO_KEY);
    const bad = await headless(['create', '--months', '1', '--parental-code', '12a4', '--json'], { env });
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr).error).toMatchObject({ code: 'invalid_field', path: ['parental_code'] });
    const noMonths = await headless(['create', '--json'], { env });
    expect(JSON.parse(noMonths.stderr).error).toMatchObject({ path: ['months'], exit: 2 });
    const ok = await headless(
      ['create', '--months', '1', '--username', 'scriptedline01', '--yes', '--json'],
      { env },
    );
    expect(ok.code).toBe(0);
    const doc = JSON.parse(ok.stdout);
    expect(doc.line).toMatchObject({ username: 'scriptedline01', password: expect.any(String) });
    expect(books(sb).ledger).toHaveLength(1);
    const taken = await headless(['create', '--months', '1', '--username', 'scriptedline01', '--json'], {
      env,
    });
    expect(taken.code).toBe(1);
    expect(JSON.parse(taken.stderr).error).toMatchObject({ code: 'conflict', path: ['username'] });
  });

  it('delete: nothing without --yes; with it the line is gone', async () => {
    const { sb, client } = await sandbox({ lines: 5 });
    const env = envFor(sb.baseUrl, DEMO_KEY);
    const [line] = await premium(env, 1);
    expect((await headless(['delete', line!.username], { env })).code).toBe(4);
    expect((await client.listLines({ search: line!.username })).lines).toHaveLength(1);
    expect((await headless(['delete', line!.username, '--yes'], { env })).code).toBe(0);
    expect((await client.listLines({ search: line!.username })).lines).toHaveLength(0);
  });

  it('trial, upgrade (the server quote) and unsuspend', async () => {
    const { sb, client } = await sandbox({ lines: 40 });
    const env = envFor(sb.baseUrl, DEMO_KEY);
    const trial = await headless(['trial', '--hours', '24', '--label', 'Try me', '--yes', '--json'], { env });
    expect(trial.code).toBe(0);
    expect(JSON.parse(trial.stdout).line).toMatchObject({ type: 'trial', label: 'Try me' });

    const line = (await premium(env, 20)).find((l) => l.connections < 6)!;
    const to = String(line.connections + 1);
    const quote = JSON.parse(
      (await headless(['upgrade', line.username, '--connections', to, '--json'], { env })).stdout,
    );
    expect(quote).toMatchObject({ op: 'upgrade', estimate: false });
    const { cost } = await client.simulateUpgrade({ id: line.id, new_connections: Number(to) });
    expect(quote.total).toBe(cost);
    const before = books(sb).ledger.length;
    expect((await headless(['upgrade', line.username, '--connections', to, '--yes'], { env })).code).toBe(0);
    expect(books(sb).ledger).toHaveLength(before + 1);
    expect((await client.listLines({ search: line.username })).lines[0]!.connections).toBe(Number(to));

    const suspended = JSON.parse(
      (await headless(['lines', '--status', 'suspended', '--ndjson', '--limit', '1'], { env })).stdout,
    );
    expect((await headless(['unsuspend', suspended.id, '--yes'], { env })).code).toBe(0);
    expect((await client.listLines({ search: suspended.username })).lines[0]!.enabled).toBe(true);
  });

  it('progress goes to stderr only when it is a terminal', async () => {
    const { sb } = await sandbox({ lines: 250 });
    const env = envFor(sb.baseUrl, DEMO_KEY);
    const tty = await headless(['lines', '--ndjson'], { env, stderrTty: true });
    expect(tty.stderr).toMatch(/\r100 of 250 lines…/);
    expect(tty.stdout).not.toContain('lines…');
    expect((await headless(['lines', '--ndjson'], { env })).stderr).toBe('');
  });

  it('with nothing configured, the embedded sandbox', async () => {
    const home = homeDirs();
    const r = await headless(['account', '--json'], { env: home });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ email: 'demo@sandbox.linedesk', credits: 1000 });
    expect(readdirSync(home.LINEDESK_DATA_DIR)).toContain('sandbox.sqlite');
  });

  it('what the app would not send is refused, --yes or not: a trial extended, a balance too low', async () => {
    const { sb } = await sandbox({ lines: 40, credits: 0 });
    const env = envFor(sb.baseUrl, DEMO_KEY);
    const trial = JSON.parse(
      (await headless(['lines', '--type', 'trial', '--ndjson', '--limit', '1'], { env })).stdout,
    );
    const t = await headless(['extend', trial.username, '--json'], { env });
    expect(t.code).toBe(1);
    expect(JSON.parse(t.stderr).error).toMatchObject({
      code: 'refused',
      message: expect.stringMatching(/^Trial lines cannot be extended/),
    });
    const [line] = await premium(env, 1);
    const poor = await headless(['extend', line!.username, '--yes'], { env });
    expect(poor.code).toBe(1);
    expect(poor.stderr).toContain('Balance too low: nothing was sent');
    const many = await headless(['extend', '--stdin', '--yes'], { env, stdin: `${line!.username}\n` });
    expect(many.code).toBe(1);
    expect(many.stderr).toContain('The total exceeds the balance: nothing was sent');
    expect(books(sb).ledger).toHaveLength(0);
  });
});

describe('a single change reads its line once', () => {
  it('extend --yes: the lookup is the only read of the line (the change service does not read it again)', async () => {
    const { sb } = await sandbox({ lines: 30 });
    const home = homeDirs();
    const [line] = await premium(envFor(sb.baseUrl, DEMO_KEY, home), 1);
    const proxy = await faultProxy(sb.baseUrl, {});
    try {
      const r = await headless(['extend', line!.id, '--yes'], { env: envFor(proxy.baseUrl, DEMO_KEY, home) });
      expect(r.code).toBe(0);
      expect(proxy.forwarded.get('PUT /v1/lines/extend')).toBe(1);
      // One search by its id: the lookup; nothing read again before sending, nothing checked after.
      expect(proxy.forwarded.get('GET /v1/lines/all')).toBe(1);
    } finally {
      await proxy.close();
    }
  });
});
