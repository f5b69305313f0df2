import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineChargeResponse, LinesPage, PackagesResponse, parseServerDate } from '../../src/api/contract';
import { absoluteText, statusOf, unreadableText } from '../../src/domain/format';

const iso = (s: string) => Date.parse(s);

describe('server dates, read liberally but never guessed', () => {
  it.each([
    ['2027-06-02T09:46:43Z', iso('2027-06-02T09:46:43Z'), false],
    ['2027-06-02T09:46:43.5+02:00', iso('2027-06-02T07:46:43.5Z'), false],
    ['2027-06-02 09:46', iso('2027-06-02T09:46:00Z'), false],
    ['2027-06-02', iso('2027-06-02T00:00:00Z'), false],
    ['Tue Dec 03 2024 18:44:34 GMT+0100 (GMT+01:00)', iso('2024-12-03T17:44:34Z'), false],
    [
      'Tue Dec 03 2024 18:44:34 GMT+0100 (Central European Standard Time)',
      iso('2024-12-03T17:44:34Z'),
      false,
    ],
    ['Tue Dec 03 2024 18:44:34 GMT-0800', iso('2024-12-04T02:44:34Z'), false],
    ['Wed Dec 04 2024 00:14:34 GMT+0530 (India Standard Time)', iso('2024-12-03T18:44:34Z'), false],
    ['Wednesday, June 2, 2027 9:46:43 AM', iso('2027-06-02T09:46:43Z'), true],
    ['Wednesday, June 2, 2027 12:00:00 AM', iso('2027-06-02T00:00:00Z'), true],
    ['Wednesday, June 2, 2027 12:30:00 PM', iso('2027-06-02T12:30:00Z'), true],
    ['Wednesday, June 2, 2027 11:59:59 PM', iso('2027-06-02T23:59:59Z'), true],
    ['Thursday, February 1, 2024 1:05:00 pm', iso('2024-02-01T13:05:00Z'), true],
  ])('%s', (raw, ms, approx) => {
    const d = parseServerDate(raw);
    expect(d.ms).toBe(ms);
    expect(Boolean(d.approx)).toBe(approx);
  });

  it.each([
    'Friday, February 30, 2024 9:00:00 AM', // no such day
    'Monday, June 2, 2027 9:46:43 AM', // June 2 2027 is a Wednesday
    'Wednesday, Junk 2, 2027 9:46:43 AM',
    'Wednesday, June 2, 2027 13:46:43 PM',
    'Tue Dec 03 2024 18:44:34', // no zone in the toString form: not that form
    'Mon Dec 03 2024 18:44:34 GMT+0100', // Dec 3 2024 is a Tuesday
    '03/12/2024 18:44', // day/month or month/day: ambiguous
    'yesterday',
    '2027-13-01T00:00:00Z',
    '',
  ])('%s stays unparsed', (raw) => {
    expect(parseServerDate(raw).ms).toBeNull();
  });

  it('any Date, written by Date.toString in any offset, reads back to the same instant', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1990-01-01'), max: new Date('2090-01-01'), noInvalidDate: true }),
        fc.integer({ min: -12 * 60, max: 14 * 60 }).map((m) => m - (m % 15)),
        (date, offsetMin) => {
          const t = Math.floor(date.getTime() / 1000) * 1000;
          const local = new Date(t + offsetMin * 60_000);
          const sign = offsetMin < 0 ? '-' : '+';
          const abs = Math.abs(offsetMin);
          const two = (n: number) => String(n).padStart(2, '0');
          const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
          const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
          const text = `${days[local.getUTCDay()]} ${months[local.getUTCMonth()]} ${two(local.getUTCDate())} ${local.getUTCFullYear()} ${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())} GMT${sign}${two(Math.floor(abs / 60))}${two(abs % 60)} (zone)`;
          expect(parseServerDate(text).ms).toBe(t);
        },
      ),
    );
  });

  it('an expiry that cannot be read is never "active"; an assumed zone is shown with ≈', () => {
    const now = iso('2026-11-22T12:00:00Z');
    expect(statusOf({ enabled: true, exp_date: parseServerDate('someday soon') }, now)).toBe('unknown');
    expect(
      statusOf({ enabled: true, exp_date: parseServerDate('Sunday, November 1, 2026 9:00:00 AM') }, now),
    ).toBe('expired');
    expect(absoluteText(parseServerDate('Wednesday, June 2, 2027 9:46:43 AM'))).toBe(
      '≈ 2027-06-02 09:46 UTC',
    );
  });
});

const line = (over: Record<string, unknown> = {}) => ({
  id: '7f6c1b7e-1111-4222-8333-944445555666',
  hostname: 'host.example',
  username: 'alice00000001',
  password: 'secretsecret01',
  label: '',
  enabled: true,
  connections: 2,
  is_trial: false,
  exp_date: '2027-06-02T09:46:43Z',
  start_date: null,
  created_at: null,
  ...over,
});
const page = (lines: unknown[]) => ({
  offset: '0',
  limit: '20',
  totalHits: String(lines.length),
  totalReturns: lines.length,
  hasNextPage: 'false',
  hasPreviousPage: false,
  nextOffset: null,
  previousOffset: null,
  lines,
});

describe('one bad item never hides the good ones', () => {
  it('numeric strings and "true"/"false" are read; bad lines are named with their field', () => {
    const r = LinesPage.parse(
      page([
        line({ connections: '3', enabled: 'true', is_trial: 'FALSE' }),
        line({ id: undefined, username: 'nobody\u001b]52;c;evil\u0007x' }),
        line({ username: 'bob0000000001', connections: 'three' }),
        line({ username: 'carol00000001', hostname: 42 }),
        line({ username: 'dave000000001', exp_date: 'Tue Dec 03 2024 18:44:34 GMT+0100 (GMT+01:00)' }),
      ]),
    );
    expect(r.lines.map((l) => l.username)).toEqual(['alice00000001', 'dave000000001']);
    expect(r.lines[0]).toMatchObject({ connections: 3, enabled: true, is_trial: false });
    expect(r.lines[1]!.exp_date!.ms).toBe(iso('2024-12-03T17:44:34Z'));
    expect(r.unreadable.map((u) => [u.index, u.field])).toEqual([
      [1, 'id'],
      [2, 'connections'],
      [3, 'hostname'],
    ]);
    // Nothing a server sends acts on the terminal, not even inside an unreadable item.
    expect(r.unreadable[0]!.username).not.toContain('\u001b');
    expect(unreadableText(r.unreadable[1]!)).toMatch(/^unreadable line bob0000000001: connections/);
    expect(r.totalHits).toBe(5);
    expect(r.hasNextPage).toBe(false);
  });

  it('a bad package is left out and named; the others serve the forms', () => {
    const pkg = (over: Record<string, unknown>) => ({
      id: 1,
      package_name: 'Premium 1 month',
      duration: 1,
      is_trial: false,
      credits_cost: 1,
      extra_connection_credits_cost: 1,
      min_balance: 1,
      ...over,
    });
    const r = PackagesResponse.parse({
      packages: [
        pkg({ duration: '1' }),
        pkg({ id: 2, duration: 'one' }),
        pkg({ id: '3', credits_cost: '9' }),
      ],
    });
    expect(r.packages.map((p) => [p.id, p.duration, p.credits_cost])).toEqual([
      [1, 1, 1],
      [3, 1, 9],
    ]);
    expect(r.skipped).toMatchObject([{ index: 1, id: '2', field: 'duration' }]);
  });

  it('a charge reply whose line cannot be read still carries the charge (the proof it applied)', () => {
    const r = LineChargeResponse.parse({
      line: line({ hostname: 42 }),
      deducedCredits: '12',
      newBalance: 988,
    });
    expect(r).toEqual({ line: undefined, deducedCredits: 12, newBalance: 988 });
  });
});
