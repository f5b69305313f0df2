import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { ServerDate } from '../../src/api/contract';
import { daysUntil, daysWords, ENGLISH_DAYS, expiryText } from '../../src/domain/format';
import { fillTemplate, loadTemplates, parseTemplate, type Template } from '../../src/domain/templates';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const date = (ms: number): ServerDate => ({ ms, raw: new Date(ms).toISOString() }) as ServerDate;
const tpl: Template = { id: 't', name: 'T', body: '{EXPDATE}|{DAYS}|{DAYSTEXT}' };
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Instants where a wall clock jumps (DST in Europe, the US, New Zealand) or a month or year ends. */
const EDGES = [
  Date.UTC(2026, 2, 29, 1), // Europe springs forward
  Date.UTC(2026, 9, 25, 1), // Europe falls back
  Date.UTC(2026, 2, 8, 7), // US springs forward
  Date.UTC(2026, 10, 1, 6), // US falls back
  Date.UTC(2026, 3, 4, 14), // New Zealand falls back
  Date.UTC(2026, 0, 31, 23, 59, 59, 999),
  Date.UTC(2026, 1, 28, 23, 59, 59, 999),
  Date.UTC(2028, 1, 29, 0),
  Date.UTC(2026, 3, 30, 23),
  Date.UTC(2026, 11, 31, 23, 59, 59, 999),
  Date.UTC(2027, 0, 1, 0),
];
const instant = fc.oneof(
  fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2035, 0, 1) }),
  fc.constantFrom(...EDGES).chain((e) => fc.integer({ min: -2 * DAY, max: 2 * DAY }).map((d) => e + d)),
);
/** An expiry a few hours, days or a year from `now`, either way. */
const pair = fc
  .tuple(
    instant,
    fc.oneof(fc.integer({ min: -3 * DAY, max: 3 * DAY }), fc.integer({ min: -400 * DAY, max: 400 * DAY })),
  )
  .map(([now, d]) => ({ now, exp: now + d }));

const zone = process.env.TZ;
afterAll(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe('the one day rule', () => {
  it('counts the days between the UTC dates: the count always lands on the date shown', () => {
    fc.assert(
      fc.property(pair, ({ now, exp }) => {
        const days = daysUntil(exp, now);
        // now's date + days is the expiry's date, as {EXPDATE} and the detail write it.
        expect(utcDate(Date.UTC(1970, 0, 1) + (Math.floor(now / DAY) + days) * DAY)).toBe(utcDate(exp));
        // Never "today" for a line that expires after midnight, never "in 1 day" for one that ends today.
        if (days === 0) expect(utcDate(exp)).toBe(utcDate(now));
      }),
      { numRuns: 2000 },
    );
  });

  it('words: today, tomorrow, yesterday, in N days, N days ago', () => {
    expect([0, 1, -1, 2, 191, -3, -1000].map((d) => daysWords(d))).toEqual([
      'today',
      'tomorrow',
      'yesterday',
      'in 2 days',
      'in 191 days',
      '3 days ago',
      '1,000 days ago',
    ]);
    const now = Date.UTC(2026, 10, 25, 12);
    expect(expiryText(date(now + 2 * HOUR), now)).toBe('today');
    expect(expiryText(date(now - 2 * HOUR), now)).toBe('today');
    expect(expiryText(date(now + 14 * HOUR), now)).toBe('tomorrow');
    expect(expiryText(date(now + 30 * DAY), now)).toBe('in 30 days');
    expect(expiryText(date(now - 57 * DAY), now)).toBe('57 days ago');
    expect(expiryText(date(now - DAY), now)).toBe('yesterday');
  });

  it('every display agrees: the list and detail text and the message say the same days, in any local zone', () => {
    for (const tz of ['UTC', 'Europe/Madrid', 'America/New_York', 'Pacific/Auckland']) {
      process.env.TZ = tz;
      fc.assert(
        fc.property(pair, ({ now, exp }) => {
          const days = daysUntil(exp, now);
          const [expdate, n, text] = fillTemplate(
            tpl,
            { username: 'u', password: 'p', expMs: exp },
            now,
          ).split('|');
          expect(expdate).toBe(utcDate(exp));
          expect(Number(n)).toBe(days);
          expect(text).toBe(daysWords(days));
          expect(expiryText(date(exp), now)).toBe(text);
        }),
        { numRuns: 300 },
      );
    }
  });

  it('a line made for a month shows the same days in the list and, a minute later, in its detail', () => {
    const made = Date.UTC(2026, 10, 25, 9, 30);
    const exp = date(made + 30 * DAY);
    expect(expiryText(exp, made + 200)).toBe(expiryText(exp, made + 60_000));
    expect(expiryText(exp, made + 200)).toBe('in 30 days');
  });
});

describe('a template words its own days', () => {
  const spanish = {
    id: 'reminder',
    name: 'Recordatorio',
    body: 'Tu línea {USERNAME} vence el {EXPDATE} ({DAYSTEXT}).',
    days: {
      today: 'hoy',
      tomorrow: 'mañana',
      yesterday: 'ayer',
      in: 'en {N} días',
      ago: 'hace {N} días',
      never: 'nunca',
    },
  };
  const now = Date.UTC(2026, 10, 25, 12);
  const fill = (t: Template, expMs: number | null) =>
    fillTemplate(t, { username: 'ana', password: 'x', expMs }, now);

  it('fills {DAYSTEXT} with the template’s words, English for the words it does not give', () => {
    const { templates, errors } = loadTemplates([spanish]);
    expect(errors).toEqual([]);
    const t = templates.find((x) => x.id === 'reminder')!;
    expect(fill(t, now + 3 * HOUR)).toBe('Tu línea ana vence el 2026-11-25 (hoy).');
    expect(fill(t, now + DAY)).toBe('Tu línea ana vence el 2026-11-26 (mañana).');
    expect(fill(t, now + 191 * DAY)).toBe('Tu línea ana vence el 2027-06-04 (en 191 días).');
    expect(fill(t, now - 3 * DAY)).toBe('Tu línea ana vence el 2026-11-22 (hace 3 días).');
    expect(fill(t, null)).toBe('Tu línea ana vence el never (nunca).');
    const some = parseTemplate({ ...spanish, days: { today: 'hoy' } });
    expect(
      some.ok && fillTemplate(some.template, { username: 'a', password: 'b', expMs: now + 5 * DAY }, now),
    ).toMatch(/\(in 5 days\)/);
    expect(ENGLISH_DAYS.today).toBe('today');
  });

  it('refuses words it cannot use, by name', () => {
    const bad = (days: unknown) => {
      const r = parseTemplate({ ...spanish, days });
      return r.ok ? 'ok' : r.error;
    };
    expect(bad({ in: 'en días' })).toBe(
      'Template "reminder": days: in must hold {N}, the number of days ("en {N} días")',
    );
    expect(bad({ soon: 'pronto' })).toMatch(
      /days: unknown word "soon" \(known: today, tomorrow, yesterday, in, ago, never\)/,
    );
    expect(bad({ today: '' })).toMatch(/days: today must be 1–40 characters/);
    expect(bad({ today: 'h\u001boy' })).toMatch(/days: today holds a control character/);
    expect(bad(['hoy'])).toMatch(/days: expected an object of words/);
  });
});
