import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineListItem, LinesPage, plainLineListItem } from '../../src/api/contract';
import { isTerminalSafe } from '../../src/api/sanitize';

/** Every string in a value, however deep. */
const strings = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(strings) : [];

/**
 * plainLineListItem reads the documented form of a list item without zod (issue 27): whenever it
 * reads an item at all, it reads it exactly as the schema does (sanitized strings, dates, fields in
 * order, other fields left out), and a page read with it is the page the schema alone reads. The
 * strings are hostile: C0 and C1 controls, ESC sequences, bidi overrides, lone surrogates, and items
 * that went through JSON text with \u escapes, as a server sends them.
 */
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({
    unit: fc.constantFrom(
      'a',
      '\u001b',
      '\u0007',
      '\u009b',
      '\u202e',
      '\u2028',
      '\ud800',
      '\udc00',
      '\u0000',
      '\ufeff',
      '"',
      '\\',
    ),
  }),
  fc.constantFrom('\u001b]52;c;aGk=\u0007', '\u009b2J', 'a\u202eb', 'x\u0000y', ' 3 ', 'true', '', '\ud83d'),
);
const date = fc.oneof(
  fc.constant(null),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom(
    '2027-06-02 09:46',
    'Tue Dec 03 2024 18:44:34 GMT+0100 (GMT+01:00)',
    'soon',
    '2027-02-30',
    '\u001b[1m2027-06-02',
  ),
  text,
);
const canonical = fc.record({
  id: text,
  hostname: fc.option(text, { nil: null }),
  username: text,
  password: text,
  label: fc.option(text, { nil: null }),
  enabled: fc.boolean(),
  connections: fc.integer({ min: -3, max: 9 }),
  is_trial: fc.boolean(),
  exp_date: date,
  start_date: date,
  created_at: date,
});
const odd = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.constantFrom('3', 'false', 'TRUE', 2.5, Number.NaN, Number.POSITIVE_INFINITY, -0, [], {}),
  text,
  fc.boolean(),
  fc.integer(),
);
/** A documented item with some fields replaced by other types, dropped, or extra fields added. */
const item = fc
  .tuple(canonical, fc.dictionary(fc.constantFrom(...Object.keys(LineListItem.shape), 'macaddress'), odd))
  .map(([c, changes]) => {
    const o: Record<string, unknown> = { ...c };
    for (const [k, v] of Object.entries(changes)) {
      if (v === undefined) delete o[k];
      else o[k] = v;
    }
    return o;
  });

describe('a list item read without zod', () => {
  it('reads the documented form, as the schema does', () => {
    fc.assert(
      fc.property(canonical, (c) => {
        const quick = plainLineListItem(c);
        expect(quick).not.toBeNull();
        const slow = LineListItem.parse(c);
        expect(quick).toStrictEqual(slow);
        expect(Object.keys(quick!)).toEqual(Object.keys(slow));
        for (const t of strings(quick)) expect(isTerminalSafe(t)).toBe(true);
      }),
      { numRuns: 1_000 },
    );
  });

  it('reads anything else as the schema does, or leaves it to the schema', () => {
    fc.assert(
      fc.property(item, (o) => {
        const quick = plainLineListItem(o);
        if (quick === null) return;
        const slow = LineListItem.safeParse(o);
        expect(slow.success).toBe(true);
        expect(quick).toStrictEqual(slow.data);
        expect(Object.keys(quick)).toEqual(Object.keys(slow.data!));
      }),
      { numRuns: 2_000 },
    );
    for (const o of [null, [], 'x', 3, { id: 'a' }]) expect(plainLineListItem(o)).toBeNull();
  });

  it('a page sent as JSON text reads as the schema alone reads it: the same lines, the same items left out (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(canonical, item), { maxLength: 8 }), (items) => {
        // Through JSON text, as a server sends it: controls and lone surrogates as \u escapes.
        const body = JSON.parse(
          JSON.stringify({
            offset: 0,
            limit: 100,
            totalHits: items.length,
            totalReturns: items.length,
            hasNextPage: false,
            hasPreviousPage: false,
            nextOffset: null,
            previousOffset: null,
            lines: items,
          }),
        );
        const page = LinesPage.parse(body);
        const each = body.lines.map((i: unknown) => LineListItem.safeParse(i));
        expect(page.lines).toStrictEqual(
          each.filter((r: { success: boolean }) => r.success).map((r: { data: unknown }) => r.data),
        );
        expect(page.unreadable.map((u) => u.index)).toEqual(
          each.flatMap((r: { success: boolean }, i: number) => (r.success ? [] : [i])),
        );
        for (const t of strings(page.lines)) expect(isTerminalSafe(t)).toBe(true);
      }),
      { numRuns: 1_000 },
    );
  });

  it("reads only an item's own documented fields: a `__proto__` key sent in JSON lends it none", () => {
    const rest = '"enabled":true,"connections":1,"is_trial":false';
    const hostile =
      '{"id":"\\u001b]52;c;aGk=\\u0007","username":"\\u009b2J","password":"p","label":"\\u202e"}';
    // All but the id from the prototype a `__proto__` key would set, were it not read as JSON reads it.
    const lent = JSON.parse(`{"__proto__":${hostile},"id":"a","constructor":"x",${rest}}`);
    expect(plainLineListItem(lent)).toBeNull();
    expect(LineListItem.safeParse(lent).success).toBe(false);
    const own = JSON.parse(`{"__proto__":{"label":"lent"},"username":"u","password":"p",${rest},"id":"a"}`);
    expect(plainLineListItem(own)).toStrictEqual(LineListItem.parse(own));
    expect(plainLineListItem(own)).toMatchObject({ id: 'a', label: '', hostname: null });
    const sent = JSON.parse(`{${hostile.slice(1, -1)},${rest}}`);
    const read = plainLineListItem(sent)!;
    expect(read).toStrictEqual(LineListItem.parse(sent));
    for (const t of strings(read)) expect(isTerminalSafe(t)).toBe(true);
  });

  it('a page keeps its items in order, the unreadable ones named, whichever way each was read', () => {
    const good = { id: 'a', hostname: null, username: 'u\u001b[2J', password: 'p', label: 'l' };
    const rest = {
      enabled: true,
      connections: 1,
      is_trial: false,
      exp_date: null,
      start_date: null,
      created_at: null,
    };
    const page = LinesPage.parse({
      offset: 0,
      limit: 3,
      totalHits: 3,
      totalReturns: 3,
      hasNextPage: false,
      hasPreviousPage: false,
      nextOffset: null,
      previousOffset: null,
      lines: [
        { ...good, ...rest },
        { ...good, id: 'b', ...rest, enabled: 'true' },
        { ...good, id: 'c', ...rest, connections: 'many' },
      ],
    });
    expect(page.lines.map((l) => [l.id, l.username, l.enabled])).toEqual([
      ['a', 'u\uFFFD[2J', true],
      ['b', 'u\uFFFD[2J', true],
    ]);
    expect(page.unreadable).toMatchObject([{ index: 2, id: 'c', field: 'connections' }]);
  });
});
