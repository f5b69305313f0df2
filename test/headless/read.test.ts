/**
 * The read commands in-process against the sandbox over HTTP: formats pinned (scripts rely on
 * them), every page with the paging guards, exit codes, and never the key in any output.
 */
import { describe, expect, it } from 'vitest';
import { runHeadless } from '../../src/headless/run';
import { startSandbox } from '../../src/sandbox/index';
import { faultProxy } from '../helpers/fault-proxy';
import { envFor, headless, homeDirs } from '../helpers/headless';
import { sandbox } from '../helpers/sandbox';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const CANARY = 'canary-KEY-7f3a9c1e5b2d';

describe('read commands', () => {
  it('lines: the formats are stable (plain table, JSON, NDJSON, CSV, --fields)', async () => {
    const { sb } = await sandbox({ lines: 12, now: () => NOW, demoKey: CANARY });
    const env = envFor(sb.baseUrl, CANARY);
    const run = (...a: string[]) => headless(a, { env, now: () => NOW });

    const plain = await run('lines', '--limit', '3');
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatchInlineSnapshot(`
      "USERNAME	LABEL	STATUS	TYPE	CONN	EXPIRES	CREATED
      ameliasmith000794	Office	expired	trial	1	today	2026-08-09
      islarossi000666		active	premium	3	in 40 days	2026-10-05
      lucassmith000438	Bar screen	active	premium	2	in 20 days	2026-02-10
      "
    `);

    const csv = await run(
      'lines',
      '--limit',
      '2',
      '--csv',
      '--fields',
      'username,status,exp_date,connections',
    );
    expect(csv.stdout).toMatchInlineSnapshot(`
      "username,status,exp_date,connections
      ameliasmith000794,expired,2026-11-20T08:00:00.000Z,1
      islarossi000666,active,2026-12-30T12:00:00.000Z,3
      "
    `);

    const nd = await run('lines', '--ndjson', '--limit', '1');
    expect(nd.stdout).toMatchInlineSnapshot(`
      "{"id":"01d22b9b-3a5f-4345-8a04-f64ab4bfb1a4","username":"ameliasmith000794","label":"Office","status":"expired","type":"trial","enabled":true,"connections":1,"is_trial":true,"exp_date":"2026-11-20T08:00:00.000Z","start_date":"2026-11-19T08:00:00.000Z","created_at":"2026-08-09T06:21:48.000Z","hostname":"demo.tv.sandbox.linedesk"}
      "
    `);

    const json = JSON.parse((await run('lines', '--json', '--limit', '2', '--sort', 'expiry:desc')).stdout);
    expect(Object.keys(json)).toEqual(['totalHits', 'lines']);
    expect(json.totalHits).toBe(12);
    expect(Object.keys(json.lines[0])).toEqual([
      'id',
      'username',
      'label',
      'status',
      'type',
      'enabled',
      'connections',
      'is_trial',
      'exp_date',
      'start_date',
      'created_at',
      'hostname',
    ]);
    // Sorted by expiry, latest first, as asked.
    expect(Date.parse(json.lines[0].exp_date)).toBeGreaterThanOrEqual(Date.parse(json.lines[1].exp_date));

    // The password only when asked for by name.
    expect(nd.stdout).not.toContain('password');
    expect((await run('lines', '--ndjson', '--limit', '1', '--fields', 'username,password')).stdout).toMatch(
      /^\{"username":"[^"]+","password":"[^"]+"\}\n$/,
    );

    const acct = await run('account', '--json');
    expect(JSON.parse(acct.stdout)).toMatchObject({
      email: 'demo@sandbox.linedesk',
      credits: 1000,
      lines_count: 12,
      server: { hostname: expect.any(String), mag_portal_url: expect.any(String) },
      counts: { all: 12 },
    });
    const pk = await run('packages', '--type', 'premium', '--csv');
    expect(pk.stdout.split('\n')[0]).toBe(
      'id,package_name,duration,is_trial,credits_cost,extra_connection_credits_cost,min_balance',
    );
    expect(pk.stdout).not.toContain('Trial');
    const bq = JSON.parse((await run('bouquets', '--json')).stdout);
    expect(Object.keys(bq)).toEqual(['channels', 'movies']);

    for (const r of [plain, csv, nd, acct, pk]) {
      expect(r.stdout + r.stderr).not.toContain(CANARY);
    }
  });

  it('a table on a terminal is sized to it; colour only without NO_COLOR', async () => {
    const { sb } = await sandbox({ lines: 6, now: () => NOW });
    const home = homeDirs();
    const env = envFor(sb.baseUrl, 'test-demo-key-0123456789', home);
    const tty = { isTTY: true, columns: 70 };
    const r = await headless(['lines', '--limit', '4'], {
      env: { ...env, NO_COLOR: '1' },
      tty,
      now: () => NOW,
    });
    const rows = r.stdout.trimEnd().split('\n');
    expect(rows).toHaveLength(5);
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(70);
    expect(r.stdout).not.toContain('\u001b[');
    const coloured = await headless(['lines', '--limit', '4'], { env, tty, now: () => NOW });
    expect(coloured.stdout).toContain('\u001b[');
    // Piped: never colour, whatever NO_COLOR says.
    expect((await headless(['lines', '--limit', '4'], { env, now: () => NOW })).stdout).not.toContain(
      '\u001b[',
    );
  });

  it('the username column: whole at 50, 80 and 200 columns, never padded far past the longest', async () => {
    const { sb } = await sandbox({ lines: 40, now: () => NOW });
    const env = { ...envFor(sb.baseUrl, 'test-demo-key-0123456789'), NO_COLOR: '1' };
    const names = (
      await headless(['lines', '--limit', '40', '--csv', '--fields', 'username'], { env })
    ).stdout
      .trimEnd()
      .split('\n')
      .slice(1);
    const longest = Math.max(...names.map((n) => n.length));
    expect(longest).toBeGreaterThan(16);
    for (const columns of [50, 80, 200]) {
      const r = await headless(['lines', '--limit', '40'], {
        env,
        tty: { isTTY: true, columns },
        now: () => NOW,
      });
      const rows = r.stdout.trimEnd().split('\n');
      for (const row of rows) expect(row.length).toBeLessThanOrEqual(columns);
      // Each row starts with its whole username, then the gap to the next column.
      expect(rows.slice(1).map((row) => row.split(' ')[0])).toEqual(names);
      const next = rows[0]!.indexOf('STATUS') > 0 ? (rows[0]!.indexOf('LABEL') > 0 ? 'LABEL' : 'STATUS') : '';
      expect(rows[0]!.indexOf(next)).toBeLessThanOrEqual(longest + 2);
    }
  });

  it('a line id given in upper case is the same line (by search, and by the walk when search ignores ids)', async () => {
    const { sb } = await sandbox({ lines: 150 });
    const proxy = await faultProxy(sb.baseUrl, { dialect: { searchIgnoresIds: true } });
    try {
      for (const base of [sb.baseUrl, proxy.baseUrl]) {
        const env = envFor(base, 'test-demo-key-0123456789');
        const all = (await headless(['lines', '--all', '--csv', '--fields', 'id,username'], { env })).stdout
          .trimEnd()
          .split('\n');
        const [id, username] = all.at(-1)!.split(',');
        const r = await headless(['line', id!.toUpperCase(), '--json'], { env });
        expect(r.code).toBe(0);
        expect(JSON.parse(r.stdout).line).toMatchObject({ id, username });
        const q = await headless(['extend', id!.toUpperCase(), '--json'], { env });
        expect(q.code).toBe(4);
        expect(JSON.parse(q.stdout).lines[0]).toMatchObject({ id });
      }
    } finally {
      await proxy.close();
    }
  });

  it('lines --ndjson over 10,000 lines: every line once, as many as the server counts', async () => {
    const { sb } = await sandbox({ lines: 10_000 });
    const r = await headless(['lines', '--ndjson'], { env: envFor(sb.baseUrl, 'test-demo-key-0123456789') });
    expect(r.code).toBe(0);
    const ids = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l).id);
    expect(ids).toHaveLength(10_000);
    expect(new Set(ids).size).toBe(10_000);
  });

  it('a server whose paging repeats itself stops the walk with exit 1 and says why', async () => {
    const { sb } = await sandbox({ lines: 250 });
    const proxy = await faultProxy(sb.baseUrl, {
      rules: [{ match: 'GET /v1/lines/all', nth: 2, fault: { kind: 'stuckOffset' } }],
    });
    try {
      const r = await headless(['lines', '--ndjson'], {
        env: envFor(proxy.baseUrl, 'test-demo-key-0123456789'),
      });
      expect(r.code).toBe(1);
      // Pages overlap by a line (a list that changes is seen): two pages hold 199 lines.
      expect(r.stderr).toMatch(/paging cannot be trusted.*stopped after 199 lines/);
      expect(r.stdout.trimEnd().split('\n')).toHaveLength(199);
    } finally {
      await proxy.close();
    }
  });

  it('a reader that goes away (EPIPE) ends the walk quietly: exit 0, no more pages asked for', async () => {
    const { sb } = await sandbox({ lines: 2000 });
    const proxy = await faultProxy(sb.baseUrl);
    try {
      let onError: ((e: NodeJS.ErrnoException) => void) | undefined;
      let writes = 0;
      const stdout = {
        write: () => {
          if (++writes === 2) onError?.(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
          return true;
        },
        on: (_e: 'error', fn: (e: NodeJS.ErrnoException) => void) => {
          onError = fn;
        },
      };
      const stderr: string[] = [];
      const code = await runHeadless(['lines', '--ndjson'], {
        stdout,
        stderr: { write: (s: string) => stderr.push(s) > 0 },
        stdin: (async function* () {})(),
        env: envFor(proxy.baseUrl, 'test-demo-key-0123456789'),
      });
      expect(code).toBe(0);
      expect(stderr.join('')).toBe('');
      expect(proxy.forwarded.get('GET /v1/lines/all')).toBeLessThanOrEqual(3);
    } finally {
      await proxy.close();
    }
  });

  it('line: the diagnosis and fields; not found is exit 1; the expired view', async () => {
    const { sb } = await sandbox({ lines: 40, now: () => NOW });
    const env = envFor(sb.baseUrl, 'test-demo-key-0123456789');
    const expired = JSON.parse(
      (await headless(['lines', '--status', 'expired', '--json', '--limit', '1'], { env, now: () => NOW }))
        .stdout,
    ).lines[0];
    expect(Date.parse(expired.exp_date)).toBeLessThanOrEqual(NOW);
    const r = await headless(['line', expired.username, '--json'], { env, now: () => NOW });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.line.id).toBe(expired.id);
    expect(doc.line.password).toBeUndefined();
    expect(doc.diagnosis.works).toBe(false);
    expect(doc.diagnosis.why).toMatch(/expired/);
    const byId = await headless(['line', expired.id], { env, now: () => NOW });
    expect(byId.stdout).toMatch(/^Diagnosis\t.*expired/);
    expect(byId.stdout).toContain(`Line id\t${expired.id}`);
    const missing = await headless(['line', 'nobody-at-all-here', '--json'], { env });
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stderr)).toEqual({
      error: {
        code: 'line_not_found',
        message: 'No line answers to "nobody-at-all-here"',
        path: null,
        exit: 1,
      },
    });
  });

  it('usage errors are exit 2 with the option named; JSON errors carry code, message and path', async () => {
    const bad = await headless(['lines', '--status', 'sleepy', '--json']);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr).error).toMatchObject({ code: 'usage', path: ['status'], exit: 2 });
    const fields = await headless(['lines', '--fields', 'username,secret']);
    expect(fields.code).toBe(2);
    expect(fields.stderr).toContain('unknown field "secret"');
    expect((await headless(['lines', '--json', '--csv'])).code).toBe(2);
    expect((await headless(['extend'])).stderr).toContain('ID|USERNAME is missing, or --stdin');
    // Every error about an option names it in the path, as the option is spelled.
    const env = homeDirs();
    const path = async (...argv: string[]) =>
      JSON.parse((await headless([...argv, '--json'], { env })).stderr).error.path;
    expect(await path('lines', '--colour')).toEqual(['colour']);
    expect(await path('lines', '--limit')).toEqual(['limit']);
    expect(await path('create')).toEqual(['months']);
    expect(await path('extend', 'bob', '--months', '2')).toEqual(['months']);
    expect(await path('trial', '--hours', '5')).toEqual(['hours']);
    expect(await path('account', '--profile', 'nope')).toEqual(['profile']);
    expect(await path('account', '--base-url', 'http://panel.example.com')).toEqual(['base-url']);
  });

  it('a service that cannot be reached is exit 5', async () => {
    const sb = await startSandbox({ db: ':memory:', lines: 1 });
    const url = sb.baseUrl;
    await sb.close();
    const r = await headless(['account', '--json'], { env: envFor(url, CANARY) });
    expect(r.code).toBe(5);
    expect(JSON.parse(r.stderr).error.code).toBe('unreachable');
    expect(r.stderr).not.toContain(CANARY);
  });

  it('a wrong key is refused by the server: exit 1, and the key is not in the message', async () => {
    const { sb } = await sandbox({ lines: 1 });
    const r = await headless(['account'], { env: envFor(sb.baseUrl, CANARY) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('The API key was refused');
    expect(r.stderr).not.toContain(CANARY);
  });

  it('completion scripts complete every command', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const r = await headless(['completion', shell]);
      expect(r.code).toBe(0);
      for (const c of ['account', 'lines', 'extend', 'renewals', 'journal', 'ndjson', 'stdin'])
        expect(r.stdout).toContain(c);
    }
    expect((await headless(['completion', 'tcsh'])).code).toBe(2);
  });
});
