/**
 * `linedesk runway` against the sandbox over HTTP: the days the balance covers, the lines that would
 * lapse first, exit 0 when the balance covers the window and 7 when it does not.
 */
import { describe, expect, it } from 'vitest';
import { envFor, headless } from '../helpers/headless';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const DAY = 86_400_000;

interface RunwayJson {
  days: number;
  balance: number;
  estimate: boolean;
  covers: boolean;
  coveredDays: number;
  needed: number;
  renewals: number;
  lapsing: { username: string; exp_date: string; cost: number; covered: boolean }[];
  rows: { username: string; exp_date: string; cost: number | null; covered: boolean }[];
  trials: { username: string }[];
  suspended: number;
}

describe('linedesk runway', () => {
  it('covers the window: exit 0, every renewal counted, trials set apart', async () => {
    const { sb } = await sandbox({ lines: 40, credits: 100_000, now: () => NOW });
    const env = envFor(sb.baseUrl, DEMO_KEY);
    const r = await headless(['runway', '--json'], { env, now: () => NOW });
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as RunwayJson;
    expect(j).toMatchObject({ days: 30, balance: 100_000, estimate: true, covers: true, coveredDays: 30 });
    expect(j.renewals).toBeGreaterThan(1);
    expect(j.lapsing).toEqual([]);
    // Soonest first, all within the window, the total is what they cost.
    const times = j.rows.map((x) => Date.parse(x.exp_date));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times.every((t) => t > NOW && t <= NOW + 30 * DAY)).toBe(true);
    expect(j.needed).toBe(j.rows.reduce((n, x) => n + (x.cost ?? 0), 0));
    // Trials are never among the renewals (they cannot be extended).
    const trials = new Set(j.trials.map((t) => t.username));
    expect(j.rows.some((x) => trials.has(x.username))).toBe(false);

    const plain = await headless(['runway'], { env, now: () => NOW });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('covers the next 30 days of renewals');
  });

  it('falls short: exit 7, the days up to the first line it cannot renew, the lines that lapse first', async () => {
    const { sb } = await sandbox({ lines: 40, credits: 100_000, now: () => NOW });
    const env = envFor(sb.baseUrl, DEMO_KEY);
    const full = JSON.parse(
      (await headless(['runway', '--json'], { env, now: () => NOW })).stdout,
    ) as RunwayJson;
    expect(full.rows.length).toBeGreaterThan(2);
    // A balance that pays for the first renewal only (the sandbox's packages have no min_balance above it).
    const first = full.rows[0]!.cost!;
    const second = full.rows[1]!;
    const sbSmall = await sandbox({ lines: 40, credits: first + second.cost! - 1, now: () => NOW });
    const small = envFor(sbSmall.sb.baseUrl, DEMO_KEY);
    const r = await headless(['runway', '--json'], { env: small, now: () => NOW });
    expect(r.code).toBe(7);
    const j = JSON.parse(r.stdout) as RunwayJson;
    expect(j.covers).toBe(false);
    expect(j.lapsing[0]!.username).toBe(second.username);
    expect(j.coveredDays).toBe(Math.floor((Date.parse(second.exp_date) - NOW) / DAY));
    expect(j.lapsing.length).toBe(full.rows.length - 1);

    const plain = await headless(['runway'], { env: small, now: () => NOW });
    expect(plain.code).toBe(7);
    expect(plain.stdout).toContain(j.coveredDays ? `covers ${j.coveredDays} day` : 'covers less than a day');
    expect(plain.stdout).toContain('First to lapse');
    expect(plain.stdout).toContain(second.username);

    // A shorter window that ends before the second line expires is covered.
    const days = Math.max(1, Math.floor((Date.parse(second.exp_date) - NOW) / DAY));
    if (
      Date.parse(second.exp_date) > NOW + days * DAY &&
      Date.parse(full.rows[0]!.exp_date) <= NOW + days * DAY
    ) {
      const short = await headless(['runway', '--days', String(days)], { env: small, now: () => NOW });
      expect(short.code).toBe(0);
    }
  });

  it('a bad window is a usage error naming the option', async () => {
    const r = await headless(['runway', '--days', '0', '--json'], { env: {} });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('days');
  });
});
