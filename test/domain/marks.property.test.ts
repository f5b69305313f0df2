/**
 * The marks are held in columns (domain/marks.ts) where they were a `Map<id, MarkedLine>`: the same
 * meaning is checked here against that map, operation by operation.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LineListItem } from '../../src/api/contract';
import { type MarkedLine, Marks, MarksBuilder } from '../../src/domain/marks';
import { lineItem } from '../helpers/fixtures';

/** What a mark kept of a line when it was the line itself, copied (no start or creation date). */
const asMark = (l: LineListItem): MarkedLine => ({
  id: l.id,
  username: l.username,
  line: { ...l, start_date: null, created_at: null },
});

// Ids that key by number and ids that do not (a leading zero, too long, not digits, empty).
const ids = fc.constantFrom(
  '1',
  '7',
  '12',
  '42',
  '0',
  '012',
  '00',
  '999999999',
  '1000000000',
  '12345678901',
  'a-1',
  '',
  'ß',
  '7 ',
  // UUIDs (keyed by their bits), one in capitals and one a character off (keyed as text).
  '0e8c3c1a-5f0b-4c1e-9a7d-2f6b8e4d1c3a',
  '0E8C3C1A-5F0B-4C1E-9A7D-2F6B8E4D1C3A',
  '0e8c3c1a-5f0b-4c1e-9a7d-2f6b8e4d1c3b',
  '0e8c3c1a05f0b-4c1e-9a7d-2f6b8e4d1c3a',
);
const text = fc.string({
  maxLength: 12,
  unit: fc.constantFrom('a', 'Z', '0', ' ', 'é', '漢', '😀', '\ud800', '-'),
});
const date = fc.oneof(
  fc.constant(null),
  fc.record({ raw: text, ms: fc.oneof(fc.constant(null), fc.integer({ min: -1e13, max: 1e13 })) }),
  fc.record({ raw: text, ms: fc.integer({ min: 0, max: 1e13 }), approx: fc.constant(true) }),
  // As servers mostly send it (kept as its time), and text that looks so but is of another time.
  fc.integer({ min: -1e13, max: 1e13 }).map((ms) => ({ raw: new Date(ms).toISOString(), ms })),
  fc.integer({ min: 0, max: 1e13 }).map((ms) => ({ raw: new Date(ms).toISOString(), ms: ms + 1 })),
  fc.integer({ min: 0, max: 1e13 }).map((ms) => ({ raw: new Date(ms).toISOString(), ms, approx: true })),
);
const line: fc.Arbitrary<LineListItem> = fc.record({
  id: ids,
  hostname: fc.oneof(fc.constant(null), fc.constantFrom('tv.example', 'other.example', ''), text),
  username: text,
  password: text,
  label: text,
  enabled: fc.boolean(),
  connections: fc.oneof(fc.integer({ min: 0, max: 6 }), fc.double({ noNaN: true })),
  is_trial: fc.boolean(),
  exp_date: date,
  start_date: date,
  created_at: date,
});
const lines = fc.array(line, { maxLength: 8 });

type Op =
  | { kind: 'with'; lines: LineListItem[] }
  | { kind: 'without'; ids: string[] }
  | { kind: 'withMarks'; pages: LineListItem[][] };
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('with' as const), lines }),
  fc.record({ kind: fc.constant('without' as const), ids: fc.array(ids, { maxLength: 4 }) }),
  fc.record({ kind: fc.constant('withMarks' as const), pages: fc.array(lines, { maxLength: 3 }) }),
);

function expectSame(marks: Marks, model: Map<string, MarkedLine>) {
  expect(marks.size).toBe(model.size);
  expect([...marks.keys()]).toEqual([...model.keys()]);
  expect([...marks.values()]).toEqual([...model.values()]);
  expect([...marks]).toEqual([...model]);
  [...model.keys()].forEach((id, i) => {
    expect(marks.has(id)).toBe(true);
    expect(marks.indexOf(id)).toBe(i);
    expect(marks.idAt(i)).toBe(id);
    expect(marks.get(id)).toEqual(model.get(id));
  });
}

describe('marks in columns behave as the map of marks did', () => {
  it('through any sequence of marking, unmarking and adding a walk', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 12 }), fc.array(ids, { maxLength: 6 }), (ops, probes) => {
        let marks = Marks.none;
        let model = new Map<string, MarkedLine>();
        for (const o of ops) {
          const before = marks;
          const beforeModel = [...model];
          if (o.kind === 'with') {
            marks = marks.with(o.lines);
            model = new Map(model);
            for (const l of o.lines) model.set(l.id, asMark(l));
          } else if (o.kind === 'without') {
            marks = marks.without(o.ids);
            model = new Map(model);
            for (const id of o.ids) model.delete(id);
          } else {
            const b = new MarksBuilder();
            for (const page of o.pages) b.add(page);
            marks = marks.withMarks(b.build());
            model = new Map(model);
            for (const page of o.pages) for (const l of page) model.set(l.id, asMark(l));
          }
          // Never changed in place: the marks before hold what they held.
          expect([...before]).toEqual(beforeModel);
          expectSame(marks, model);
        }
        for (const id of probes) {
          expect(marks.has(id)).toBe(model.has(id));
          expect(marks.get(id)).toEqual(model.get(id));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('finds each of many ids (the index grown and probed past collisions)', () => {
    const anyId = fc.oneof(
      fc.nat(999_999_999).map(String),
      fc.nat(2_000).map(String),
      fc.uuid(),
      fc.uuid().map((u) => u.toUpperCase()),
      // UUIDs alike but for their last 32 bits: found past each other in the table.
      fc.nat(0xffff).map((n) => `0e8c3c1a-5f0b-4c1e-9a7d-2f6b${n.toString(16).padStart(8, '0')}`),
      ids,
    );
    fc.assert(
      fc.property(
        fc.array(anyId, { maxLength: 400 }),
        fc.array(anyId, { maxLength: 50 }),
        (marked, probes) => {
          const marks = Marks.of(marked.map((id) => lineItem({ id })));
          const order = [...new Set(marked)];
          expect([...marks.keys()]).toEqual(order);
          for (const id of [...order, ...probes]) expect(marks.indexOf(id)).toBe(order.indexOf(id));
          const fewer = marks.without(probes);
          const left = order.filter((id) => !probes.includes(id));
          for (const id of [...order, ...probes]) expect(fewer.indexOf(id)).toBe(left.indexOf(id));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("tells apart UUIDs that start at the same place in the table (alike but for a word's top bits)", () => {
    // The table's place is the low bits of a hash whose words' top bits reach only its top bits, so
    // these ids all probe the same run: only the comparison of all four words tells them apart.
    const base = '0e8c3c1a-5f0b-4c1e-9a7d-2f6b8e4d1c3a';
    const tops = [0, 9, 19, 28]; // each word's first hex digit
    const alike = tops.flatMap((at) =>
      [...'0123456789abcdef'].map((d) => `${base.slice(0, at)}${d}${base.slice(at + 1)}`),
    );
    const order = [...new Set(alike)];
    const marks = Marks.of(
      [...alike, ...alike.toReversed()].map((id) => lineItem({ id, username: `u${id}` })),
    );
    expect([...marks.keys()]).toEqual(order);
    for (const id of order) {
      expect(marks.indexOf(id)).toBe(order.indexOf(id));
      expect(marks.get(id)?.username).toBe(`u${id}`);
    }
  });

  it('the same id marked twice keeps its first place and its last values', () => {
    const base = lineItem({ id: '5', username: 'first' });
    const marks = Marks.of([base, { ...base, id: '6' }, { ...base, username: 'again', connections: 3 }]);
    expect([...marks.keys()]).toEqual(['5', '6']);
    expect(marks.get('5')?.line).toMatchObject({ username: 'again', connections: 3 });
    expect(marks.without(['5', 'nope']).size).toBe(1);
    expect(marks.without(['nope'])).toBe(marks);
  });

  it('keeps the text of an expiry as sent, whatever time it names', () => {
    const dates = [
      { raw: '2024-02-29T12:00:00.000Z', ms: Date.UTC(2024, 1, 29, 12) },
      // Read as the 1st of March by a lenient reader: not what toISOString makes of that time.
      { raw: '2026-02-29T00:00:00.000Z', ms: Date.UTC(2026, 2, 1) },
      { raw: '2026-04-31T00:00:00.000Z', ms: Date.UTC(2026, 4, 1) },
      { raw: '0050-01-01T00:00:00.000Z', ms: new Date('0050-01-01T00:00:00.000Z').getTime() },
      { raw: '1999-12-31T23:59:59.999Z', ms: Date.UTC(1999, 11, 31, 23, 59, 59, 999) },
      { raw: '1999-12-31T23:59:60.000Z', ms: Date.UTC(2000, 0, 1) },
      { raw: '+012026-01-01T00:00:00.000Z', ms: new Date('+012026-01-01T00:00:00.000Z').getTime() },
    ];
    const lines = dates.map((exp_date, i) => lineItem({ id: String(i), exp_date }));
    expect([...Marks.of(lines).lines()]).toEqual(lines);
  });

  it('keeps text longer than its columns can place (kept as strings)', () => {
    const long = lineItem({
      id: '9',
      username: 'u'.repeat(30_000),
      label: 'é'.repeat(20_000),
      enabled: false,
      is_trial: true,
    });
    const marks = Marks.of([long]).with([{ ...long, id: '10', username: 'short' }]);
    expect([...marks.lines()]).toEqual([long, { ...long, id: '10', username: 'short' }]);
    expect([...marks.without(['9']).lines()]).toEqual([{ ...long, id: '10', username: 'short' }]);
  });

  it('keeps every hostname past the shared ones (a server with a hostname per line)', () => {
    const many = Array.from({ length: 1_500 }, (_, i) =>
      lineItem({
        id: String(i + 1),
        hostname: `host-${i}.example`,
        username: `user${i}`,
        password: 'secret',
        connections: 2,
        exp_date: { raw: '2026-01-01T00:00:00Z', ms: Date.UTC(2026, 0, 1) },
      }),
    );
    const b = new MarksBuilder();
    for (let i = 0; i < many.length; i += 100) b.add(many.slice(i, i + 100));
    const marks = b.build();
    expect([...marks.lines()]).toEqual(many);
  });
});
