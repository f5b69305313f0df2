import { describe, expect, it } from 'vitest';
import { deletedPaidTimeText, planLine, toBulkLine } from '../../src/domain/bulk';
import { DAY_MS } from '../../src/domain/pricing';
import { envFor, headless } from '../helpers/headless';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';

const NOW = Date.UTC(2026, 10, 25, 12);

describe('a delete names the paid time it throws away', () => {
  it('pure: per line and in all, by the one day rule', () => {
    const line = (id: string, expMs: number | null, enabled = true) =>
      toBulkLine({
        id,
        username: id,
        label: null,
        enabled,
        is_trial: false,
        connections: 1,
        exp_date: expMs === null ? null : { ms: expMs, raw: new Date(expMs).toISOString() },
      } as never);
    const plan = (l: ReturnType<typeof line>) =>
      planLine(l, 'delete', { months: 1, connections: 1 }, [], NOW);
    const lines = [
      line('a', NOW + 150 * DAY_MS),
      line('b', NOW - DAY_MS),
      line('c', NOW + 2 * 3_600_000),
      line('d', null),
    ].map(plan);
    expect(lines.map((l) => [l.cost, l.detail ?? ''])).toEqual([
      [0, 'loses 150 paid days'],
      [0, ''],
      [0, 'loses the paid time left today'],
      [0, 'loses its paid time (never expires)'],
    ]);
    expect(deletedPaidTimeText(lines, NOW)).toBe(
      'No refund: 3 of 4 lines still have paid time, 150 paid days in all, 1 never expiring',
    );
    expect(deletedPaidTimeText([lines[1]!], NOW)).toBeNull();
  });

  it('headless: the bulk and the single delete quotes say the days per line and in all', async () => {
    const now = Date.now();
    const env = await sandbox({ lines: 30, now: () => now });
    const rows = env.sb.repo.db
      .prepare('SELECT id, username FROM lines WHERE account_id = 1 AND is_trial = 0 ORDER BY id LIMIT 2')
      .all() as { id: string; username: string }[];
    const set = env.sb.repo.db.prepare('UPDATE lines SET enabled = 1, exp_date = ? WHERE id = ?');
    set.run(now + 150 * DAY_MS + 60_000, rows[0]!.id);
    set.run(now - 3 * DAY_MS, rows[1]!.id);
    const e = envFor(env.sb.baseUrl, DEMO_KEY);
    const bulk = await headless(['delete', '--stdin', '--json'], {
      env: e,
      now: () => now,
      stdin: `${rows[0]!.username}\n${rows[1]!.username}\n`,
    });
    expect(bulk.code).toBe(4);
    const q = JSON.parse(bulk.stdout) as {
      total: number;
      lost: string;
      lines: { username: string; note: string | null }[];
    };
    expect(q.total).toBe(0);
    const days = (d: number) => new RegExp(`loses ${d} paid days`);
    const lost = Math.floor((now + 150 * DAY_MS + 60_000) / DAY_MS) - Math.floor(now / DAY_MS);
    expect(q.lines.find((l) => l.username === rows[0]!.username)?.note).toMatch(days(lost));
    expect(q.lines.find((l) => l.username === rows[1]!.username)?.note ?? '').not.toMatch(/loses/);
    expect(q.lost).toBe(`No refund: 1 of 2 lines still has paid time, ${lost} paid days in all`);

    const one = await headless(['delete', rows[0]!.username], { env: e, now: () => now });
    expect(one.code).toBe(4);
    expect(one.stdout + one.stderr).toMatch(days(lost));
    expect(one.stderr).toMatch(/No refund: 1 of 1 line still has paid time/);
  });
});
