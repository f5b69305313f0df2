import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { statusGroups } from '../../src/domain/status-groups';
import { envFor, headless } from '../helpers/headless';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';

describe('the account summary by status', () => {
  it('property: when the counts nest as the service names them, the groups are disjoint and add up to the lines', () => {
    fc.assert(
      fc.property(
        fc.nat(50),
        fc.nat(50),
        fc.nat(50),
        fc.nat(50),
        fc.nat(80),
        (running, expiring, suspended, rest, expired) => {
          const c = {
            all: running + expiring + suspended + rest,
            active: running + expiring,
            suspended,
            expiring,
            expired,
          };
          const g = statusGroups(c);
          expect(g.disjoint).toBe(true);
          expect(g.groups.reduce((n, x) => n + x.count, 0)).toBe(c.all);
          expect(g.note).toContain(`${expired} past their expiry date`);
        },
      ),
    );
  });

  it('counts that do not nest are given as the service counts them, with which contains which', () => {
    const g = statusGroups({ all: 10, active: 8, suspended: 5, expiring: 2, expired: 1 });
    expect(g.disjoint).toBe(false);
    expect(g.note).toMatch(/overlap/);
  });

  it("against the sandbox, the account command's groups add up to its lines", async () => {
    const env = await sandbox({ lines: 300 });
    const r = await headless(['account', '--json'], { env: envFor(env.sb.baseUrl, DEMO_KEY) });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    const sum = doc.statusGroups.groups.reduce((n: number, g: { count: number }) => n + g.count, 0);
    expect(doc.statusGroups.disjoint).toBe(true);
    expect(sum).toBe(doc.counts.all);
    const table = await headless(['account'], { env: envFor(env.sb.baseUrl, DEMO_KEY) });
    const counted = [
      ...table.stdout.matchAll(
        /^(Active|Expiring within 7 days|Suspended|Expired, not suspended)\s+([\d,]+)/gm,
      ),
    ];
    expect(counted.map((m) => m[1])).toHaveLength(4);
    expect(counted.reduce((n, m) => n + Number(m[2]!.replace(/,/g, '')), 0)).toBe(doc.counts.all);
  });
});
