/** After a change whose rows were replaced in place, is the page still the server's? (issue 27) */
import { describe, expect, it } from 'vitest';
import type { LineListItem, OrderBy } from '../../src/api/contract';
import { LINE_TYPES, ORDER_BY } from '../../src/api/contract/choices';
import { EXPIRING_WITHIN_DAYS } from '../../src/domain/line-status';
import { DEFAULT_QUERY, pageStaysAfter, passesFilters, STATUS_VIEWS } from '../../src/services/lines-query';
import { sandbox } from '../helpers/sandbox';

describe('pageStaysAfter', () => {
  it('an upgrade moves nothing; an extend only where expiry orders or filters; create and delete always', () => {
    const q = DEFAULT_QUERY;
    expect(pageStaysAfter('upgrade', { ...q, orderBy: 'exp_date', status: 'expiring' })).toBe(true);
    expect(pageStaysAfter('extend', q)).toBe(true);
    expect(pageStaysAfter('extend', { ...q, search: 'ann', type: 'premium', orderBy: 'username' })).toBe(
      true,
    );
    expect(pageStaysAfter('extend', { ...q, orderBy: 'exp_date' })).toBe(false);
    for (const status of ['active', 'expiring', 'expired'] as const)
      expect(pageStaysAfter('extend', { ...q, status })).toBe(false);
    expect(pageStaysAfter('unsuspend', q)).toBe(true);
    expect(pageStaysAfter('unsuspend', { ...q, status: 'suspended' })).toBe(false);
    expect(pageStaysAfter('unsuspend', { ...q, orderBy: 'enabled' })).toBe(false);
    for (const op of ['create', 'trial', 'delete'] as const) expect(pageStaysAfter(op, q)).toBe(false);
  });
});

describe('pageStaysAfter against what each change does to a line on the server', () => {
  it('every view it keeps holds the line the server changed as before: the same filters passed, the same sort key', async () => {
    const { sb, client } = await sandbox({ lines: 40 });
    const DAY = 86_400_000;
    const read = async (id: string) =>
      (await client.listLines({ offset: 0, limit: 100, status: 'all', type: 'all' })).lines.find(
        (l) => l.id === id,
      )!;
    const { lines } = await client.listLines({ offset: 0, limit: 100, status: 'all', type: 'all' });
    const premium = lines.find((l) => !l.is_trial)!;
    const trial = lines.find((l) => l.is_trial)!;
    // The value an order sorts by is the field it names (a date by its time): read from the line,
    // not from the rule's own table.
    const sortKey = (l: LineListItem, orderBy: OrderBy): unknown => {
      const v = l[orderBy];
      return v && typeof v === 'object' ? v.ms : v;
    };
    const checked = { extend: 0, upgrade: 0, unsuspend: 0 };
    // Lines of every kind before a change (expired, expiring, running, no expiry; enabled or not;
    // trial or not, where the server changes a trial), changed by the server (the reference).
    for (const op of ['extend', 'upgrade', 'unsuspend'] as const)
      for (const line of op === 'unsuspend' ? [premium, trial] : [premium])
        for (const days of [-3, EXPIRING_WITHIN_DAYS / 2, EXPIRING_WITHIN_DAYS + 30, null])
          for (const enabled of [true, false]) {
            sb.repo.updateLine(line.id, {
              exp_date: days === null ? null : Date.now() + days * DAY,
              enabled: enabled ? 1 : 0,
            });
            const before = await read(line.id);
            if (op === 'extend') await client.extendLine({ id: line.id, duration: 1 });
            else if (op === 'upgrade')
              await client.upgradeLine({ id: line.id, new_connections: before.connections === 1 ? 2 : 1 });
            else await client.unsuspendLine({ id: line.id });
            const after = await read(line.id);
            const now = Date.now();
            for (const status of STATUS_VIEWS)
              for (const type of LINE_TYPES)
                for (const orderBy of ORDER_BY) {
                  const q = { ...DEFAULT_QUERY, status, type, orderBy };
                  if (!pageStaysAfter(op, q)) continue;
                  checked[op]++;
                  const what = `${op} ${JSON.stringify(q)} ${JSON.stringify(before)}`;
                  expect(passesFilters(after, q, now), what).toBe(passesFilters(before, q, now));
                  expect(sortKey(after, orderBy), what).toEqual(sortKey(before, orderBy));
                }
          }
    // Each change was judged in some view (the rule is not vacuously true).
    expect(Object.values(checked).every((n) => n > 0)).toBe(true);
  });
});
