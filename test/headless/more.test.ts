/** renewals, message and journal in-process against the sandbox over HTTP. */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envFor, headless, homeDirs } from '../helpers/headless';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const DAY = 86_400_000;

describe('renewals, message, journal', () => {
  it('renewals --within 3d: the lines expiring within it, priced as an estimate; the saved window untouched', async () => {
    const { sb } = await sandbox({ lines: 200, now: () => NOW });
    const home = homeDirs();
    const env = envFor(sb.baseUrl, DEMO_KEY, home);
    const r = await headless(['renewals', '--within', '3d', '--json'], { env, now: () => NOW });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({
      window: { withinDays: 3, expiredDays: 30 },
      months: 1,
      estimate: true,
      balance: 1000,
    });
    const expiring = doc.rows.filter((x: { group: string }) => x.group === 'expiring');
    expect(expiring.length).toBeGreaterThan(0);
    for (const x of expiring) {
      const at = Date.parse(x.exp_date);
      expect(at).toBeGreaterThan(NOW);
      expect(at).toBeLessThanOrEqual(NOW + 3 * DAY);
    }
    expect(doc.total).toBe(
      doc.rows
        .filter((x: { group: string }) => x.group !== 'trial')
        .reduce((n: number, x: { cost: number }) => n + (x.cost ?? 0), 0),
    );
    // A script's window is not saved over the app's.
    expect(existsSync(join(home.LINEDESK_CONFIG_DIR, 'config.json'))).toBe(false);
    const wider = JSON.parse(
      (await headless(['renewals', '--within', '14', '--json'], { env, now: () => NOW })).stdout,
    );
    expect(wider.rows.filter((x: { group: string }) => x.group === 'expiring').length).toBeGreaterThan(
      expiring.length,
    );
    const csv = await headless(['renewals', '--csv'], { env, now: () => NOW });
    expect(csv.stdout.split('\n')[0]).toBe('group,id,username,label,status,connections,exp_date,cost');
    expect(csv.stderr).toContain('an estimate from the package prices');
    expect((await headless(['renewals', '--within', 'soon'], { env })).code).toBe(2);
  });

  it('message: a template filled for a line; the config’s own templates; an unknown one named', async () => {
    const { sb } = await sandbox({ lines: 10, now: () => NOW });
    const home = homeDirs();
    const env = envFor(sb.baseUrl, DEMO_KEY, home);
    const line = JSON.parse(
      (await headless(['lines', '--status', 'active', '--ndjson', '--limit', '1'], { env, now: () => NOW }))
        .stdout,
    );
    const r = await headless(['message', 'reminder', line.username], { env, now: () => NOW });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`your line ${line.username}`);
    expect(r.stdout).toContain(`it expires ${line.exp_date.slice(0, 10)}`);

    mkdirSync(home.LINEDESK_CONFIG_DIR, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(home.LINEDESK_CONFIG_DIR, 'config.json'),
      JSON.stringify({
        version: 1,
        defaultProfile: null,
        profiles: {},
        templates: [{ id: 'short', name: 'Short', body: '{USERNAME} until {EXPDATE}' }],
      }),
      { mode: 0o600 },
    );
    const mine = await headless(['message', 'short', line.id, '--json'], { env, now: () => NOW });
    expect(JSON.parse(mine.stdout)).toEqual({
      template: 'short',
      id: line.id,
      username: line.username,
      message: `${line.username} until ${line.exp_date.slice(0, 10)}`,
    });
    const list = await headless(['message', '--list'], { env });
    expect(list.stdout).toMatch(/^details\t.*\nreminder\t.*\nrenewed\t.*\nshort\tShort\n$/);
    const unknown = await headless(['message', 'nope', line.id, '--json'], { env });
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stderr).error).toMatchObject({ code: 'invalid_field', path: ['template'] });
  });

  it('journal: one entry per operation, as CSV or JSON, from a day on', async () => {
    const { sb } = await sandbox({ lines: 10 });
    const home = homeDirs();
    const env = envFor(sb.baseUrl, DEMO_KEY, home);
    expect((await headless(['journal'], { env })).stderr).toContain('The journal is empty');
    const line = JSON.parse(
      (await headless(['lines', '--type', 'premium', '--ndjson', '--limit', '1'], { env })).stdout,
    );
    expect((await headless(['extend', line.username, '--yes'], { env })).code).toBe(0);
    const csv = await headless(['journal', '--csv'], { env });
    const rows = csv.stdout.trimEnd().split('\n');
    expect(rows[0]).toBe(
      'opId,time,target,operation,lineId,username,quotedCost,estimate,deducedCredits,newBalance,charge,outcome,detail,service,months,connectionsBefore,connectionsAfter,expiryBefore,expiryAfter',
    );
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain(`extend,${line.id},${line.username}`);
    const json = JSON.parse((await headless(['journal', '--json', '--since', '2000-01-01'], { env })).stdout);
    expect(json.entries).toHaveLength(1);
    expect(
      JSON.parse((await headless(['journal', '--json', '--since', '2999-01-01'], { env })).stdout).entries,
    ).toEqual([]);
    const bad = await headless(['journal', '--since', 'last week'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since takes today, yesterday, a day');
  });
});
