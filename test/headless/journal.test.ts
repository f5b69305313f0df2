/**
 * Issue 24, "a journal that answers", for scripts: one account's entries unless asked for all (and a
 * SERVICE column when all), what was bought, totals that count only what was applied, periods of
 * local days, and one entry per operation across processes.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCli } from '../../src/cli-args';
import type { JournalEntry } from '../../src/services/changes/journal';
import { faultProxy } from '../helpers/fault-proxy';
import { headless, homeDirs } from '../helpers/headless';
import { DEMO_KEY, SECOND_KEY, sandbox } from '../helpers/sandbox';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const journalLines = (data: string) =>
  readFileSync(join(data, 'journal.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as JournalEntry);

function twoProfiles(baseUrl: string) {
  const home = homeDirs();
  mkdirSync(home.LINEDESK_CONFIG_DIR, { recursive: true });
  writeFileSync(
    join(home.LINEDESK_CONFIG_DIR, 'config.json'),
    JSON.stringify({
      version: 1,
      defaultProfile: 'shopA',
      profiles: { shopA: { baseUrl, apiKey: DEMO_KEY }, shopB: { baseUrl, apiKey: SECOND_KEY } },
    }),
    { mode: 0o600 },
  );
  const env = { ...home, NO_COLOR: '' };
  return { home, env, run: (...argv: string[]) => headless(argv, { env }) };
}

describe('linedesk journal', () => {
  it('shows the chosen profile only (--profile before or after the command), --all-accounts every one with its service', async () => {
    const { sb, client, second } = await sandbox({ lines: 10 });
    const { run, home } = twoProfiles(sb.baseUrl);
    const a = (await client.listLines({ limit: 5, type: 'premium' })).lines[0]!;
    const b = (await second.listLines({ limit: 5, type: 'premium' })).lines[0]!;
    expect((await run('extend', a.username, '--months', '3', '--yes', '--profile', 'shopA')).code).toBe(0);
    expect((await run('extend', b.username, '--yes', '--profile', 'shopB')).code).toBe(0);

    const onB = await run('journal', '--profile', 'shopB', '--json');
    expect(onB.code).toBe(0);
    const docB = JSON.parse(onB.stdout);
    expect(docB.entries.map((e: JournalEntry) => e.username)).toEqual([b.username]);
    expect(docB.otherAccounts).toBe(1);
    expect(docB.account.service).toMatch(/^shopB · /);
    // Before the command, as the app takes it: the CLI moves it after.
    const before = parseCli(['--profile', 'shopA', 'journal']);
    if (before.kind !== 'headless') throw new Error('not a command');
    const onA = await run(...before.argv, '--json');
    expect(onA.code).toBe(0);
    expect(JSON.parse(onA.stdout).entries.map((e: JournalEntry) => e.username)).toEqual([a.username]);
    // The default profile's account when no flag chooses, and the others said, not shown.
    const table = await run('journal');
    expect(table.stdout).toContain(a.username);
    expect(table.stdout).not.toContain(b.username);
    expect(table.stderr).toMatch(
      /Journal of shopA · .*left out: 1 of other account; --all-accounts shows them/,
    );

    const all = await run('journal', '--all-accounts');
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/SERVICE/);
    expect(all.stdout).toMatch(new RegExp(`shopA\\s[^\\n]*${a.username}`));
    expect(all.stdout).toMatch(new RegExp(`shopB\\s[^\\n]*${b.username}`));

    // What was bought: months, connections, the old and the new expiry, as the server wrote them.
    const entry = journalLines(home.LINEDESK_DATA_DIR).find((e) => e.username === a.username)!;
    const after = (await client.listLines({ search: a.username, limit: 5 })).lines.find((l) => l.id === a.id)!
      .exp_date!.ms;
    expect(entry).toMatchObject({
      months: 3,
      connectionsBefore: a.connections,
      connectionsAfter: a.connections,
      expiryBefore: new Date(a.exp_date!.ms!).toISOString(),
      expiryAfter: new Date(after!).toISOString(),
    });
    expect((await run('journal', '--profile', 'shopA', '--csv')).stdout.split('\n')[0]).toContain(
      'months,connectionsBefore,connectionsAfter,expiryBefore,expiryAfter',
    );
  });

  it('--since/--until take today, yesterday and days; totals count only what was applied', async () => {
    const { sb } = await sandbox({ lines: 1 });
    const { run, home } = twoProfiles(sb.baseUrl);
    const id = JSON.parse((await run('journal', '--json')).stdout).account.id as string;
    const now = new Date(2026, 10, 25, 9, 0).getTime(); // 25 Nov, 09:00 local
    const at = (day: number, h: number) => new Date(2026, 10, day, h).toISOString();
    const e = (time: string, outcome: JournalEntry['outcome'], charged: number | null, n: number) =>
      JSON.stringify({
        opId: `job:${n}`,
        time,
        target: id,
        operation: 'extend',
        lineId: String(n),
        username: `user${n}`,
        quotedCost: 2,
        estimate: true,
        deducedCredits: charged,
        newBalance: null,
        outcome,
      });
    mkdirSync(home.LINEDESK_DATA_DIR, { recursive: true });
    writeFileSync(
      join(home.LINEDESK_DATA_DIR, 'journal.jsonl'),
      `${[
        e(at(23, 23), 'applied', 2, 1), // the day before yesterday, late
        e(at(24, 0), 'applied', 2, 2), // yesterday, just after midnight
        e(at(24, 12), 'applied', 3, 3),
        e(at(24, 13), 'rejected', null, 4),
        e(at(24, 14), 'unknown', null, 5),
        e(at(24, 15), 'not sent', null, 6),
        e(at(25, 8), 'applied', 2, 7), // today
      ].join('\n')}\n`,
    );
    const yesterday = await headless(['journal', '--since', 'yesterday', '--until', 'yesterday', '--json'], {
      env: { ...home },
      now: () => now,
    });
    expect(yesterday.code).toBe(0);
    const doc = JSON.parse(yesterday.stdout);
    expect(doc.entries.map((x: JournalEntry) => x.username)).toEqual([
      'user2',
      'user3',
      'user4',
      'user5',
      'user6',
    ]);
    expect(doc.totals).toMatchObject({ count: 2, credits: 5, notApplied: 2, unknown: 1 });
    const table = await headless(['journal', '--since', 'yesterday', '--until', 'yesterday'], {
      env: { ...home, NO_COLOR: '' },
      now: () => now,
    });
    // Piped: the rows alone on stdout (tab-separated), the totals said on stderr.
    expect(table.stdout).not.toContain('Total');
    expect(table.stderr).toContain(
      'Total: 2 applied · 5 credits charged · 2 not applied (nothing charged) · 1 unknown (not counted)',
    );
    const onTerminal = await headless(['journal', '--since', 'yesterday', '--until', 'yesterday'], {
      env: { ...home, NO_COLOR: '' },
      now: () => now,
      tty: { isTTY: true, columns: 120 },
    });
    expect(onTerminal.stdout).toMatch(/user6[^\n]*\n\nTotal: 2 applied · 5 credits charged/);
    expect(table.stderr).toMatch(/since yesterday until yesterday \(local days\)/);
    const today = JSON.parse(
      (await headless(['journal', '--since', 'today', '--json'], { env: { ...home }, now: () => now }))
        .stdout,
    );
    expect(today.entries.map((x: JournalEntry) => x.username)).toEqual(['user7']);
    const bad = await headless(['journal', '--until', 'next week'], { env: { ...home } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--until takes today, yesterday/);
  });

  it('an outcome that stays unknown is journaled once, however many processes check it', async () => {
    const env0 = await sandbox({ lines: 20 });
    const proxy = await faultProxy(env0.sb.baseUrl, {
      rules: [{ match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'resetBefore' } }],
    });
    cleanups.push(async () => {
      await proxy.landed();
      await proxy.close();
    });
    const home = homeDirs();
    const env = { ...home, LINEDESK_BASE_URL: proxy.baseUrl, LINEDESK_API_KEY: DEMO_KEY, NO_COLOR: '' };
    const line = (await env0.client.listLines({ limit: 20, type: 'premium' })).lines[0]!;
    expect((await headless(['extend', line.username, '--yes'], { env })).code).toBe(3);
    for (let i = 0; i < 3; i++) expect((await headless(['pending'], { env })).code).toBe(3);
    const entries = journalLines(home.LINEDESK_DATA_DIR).filter((e) => e.username === line.username);
    expect(entries.map((e) => e.outcome)).toEqual(['unknown']);
  });
});

describe('one entry per operation, across processes', () => {
  it('a bulk job with one line left unknown: the lines already settled are not journaled again by each check', async () => {
    const env0 = await sandbox({ lines: 20 });
    const proxy = await faultProxy(env0.sb.baseUrl, {
      rules: [{ match: 'PUT /v1/lines/extend', nth: 2, fault: { kind: 'resetBefore' } }],
    });
    cleanups.push(async () => {
      await proxy.landed();
      await proxy.close();
    });
    const home = homeDirs();
    const env = { ...home, LINEDESK_BASE_URL: proxy.baseUrl, LINEDESK_API_KEY: DEMO_KEY, NO_COLOR: '' };
    const [one, two] = (await env0.client.listLines({ limit: 20, type: 'premium' })).lines;
    const run = await headless(['extend', '--stdin', '--yes'], {
      env,
      stdin: `${one!.username}\n${two!.username}\n`,
    });
    expect(run.code).toBe(3); // one applied, one unknown and still open
    for (let i = 0; i < 2; i++) expect((await headless(['pending'], { env })).code).toBe(3);
    const entries = journalLines(home.LINEDESK_DATA_DIR);
    const outcomes = (u: string) => entries.filter((e) => e.username === u).map((e) => e.outcome);
    expect([outcomes(one!.username), outcomes(two!.username)].sort()).toEqual([['applied'], ['unknown']]);
  });
});
