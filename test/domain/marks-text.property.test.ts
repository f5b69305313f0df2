/**
 * What a mark gives back is what it was given, character for character, for any text: the id a
 * bulk job sends back to the server, the username and expiry text the intent log and journal keep.
 * Compared with the map of marks (2794a03, store/selection-slice.ts `mark`) it replaced, over ids
 * of every shape (UUIDs in any case or not quite canonical, numbers with zeros or signs or
 * exponents, text with surrounding space) and text of any UTF-16 (lone surrogates, NUL, U+FEFF).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LineListItem } from '../../src/api/contract';
import {
  affordability,
  lazyLines,
  madeLines,
  planKind,
  planLine,
  planLines,
  toBulkLine,
} from '../../src/domain/bulk';
import { type MarkedLine, Marks, MarksBuilder } from '../../src/domain/marks';
import { lineItem } from '../helpers/fixtures';

/** The mark as the map of marks kept it (its start and creation dates dropped). */
const oldMark = (l: LineListItem): MarkedLine => ({
  id: l.id,
  username: l.username,
  line: { ...l, start_date: null, created_at: null },
});

const anyText = fc.oneof(
  fc.string({ maxLength: 10, unit: 'binary' }),
  fc.string({ maxLength: 10, unit: fc.constantFrom('\ufeff', '\u0000', '\ud800', '\udc00', 'a', 'é', '😀') }),
);
const uuid = fc.uuid({ version: [1, 2, 3, 4, 5, 6, 7, 8, 15] });
const id = fc.oneof(
  uuid,
  uuid.map((u) => u.toUpperCase()),
  uuid.map((u) => `{${u}}`),
  uuid.map((u) => ` ${u}`),
  uuid.map((u) => `${u}\n`),
  uuid.map((u) => `\ufeff${u}`.slice(0, 36)),
  uuid.map((u) => u.replaceAll('-', '')),
  fc.constantFrom(
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    '0',
    '00',
    '007',
    '-1',
    '-0',
    '1e3',
    '1.0',
    '+1',
    ' 1',
    '1 ',
    '9007199254740993',
    '999999999',
    '1000000000',
    '2147483648',
    '4294967296',
    '',
  ),
  fc.nat(2_000_000_000).map(String),
  fc.bigInt({ min: 0n, max: 2n ** 70n }).map(String),
  anyText,
);
const date = fc.oneof(
  fc.constant(null),
  fc.record({ raw: anyText, ms: fc.oneof(fc.constant(null), fc.integer({ min: -1e13, max: 1e13 })) }),
  fc.integer({ min: -1e14, max: 1e14 }).map((ms) => ({ raw: new Date(ms).toISOString(), ms })),
  fc.integer({ min: 0, max: 1e13 }).map((ms) => ({ raw: ` ${new Date(ms).toISOString()}`, ms })),
  fc
    .integer({ min: 0, max: 1e13 })
    .map((ms) => ({ raw: new Date(ms).toISOString().replace('Z', '+00:00'), ms })),
  fc.integer({ min: 0, max: 1e13 }).map((ms) => ({ raw: new Date(ms).toISOString().slice(0, 19), ms })),
);
const line: fc.Arbitrary<LineListItem> = fc.record({
  id,
  hostname: fc.oneof(fc.constant(null), anyText),
  username: anyText,
  password: anyText,
  label: anyText,
  enabled: fc.boolean(),
  connections: fc.integer({ min: 1, max: 6 }),
  is_trial: fc.boolean(),
  exp_date: date,
  start_date: fc.constant(null),
  created_at: fc.constant(null),
});

/** Strictly equal, character for character (not `toEqual`'s looser sense of strings in objects). */
const same = (a: unknown, b: unknown) => expect(JSON.stringify(a)).toBe(JSON.stringify(b));

describe('a mark keeps its text as given', () => {
  it('ids, usernames, passwords, labels, hostnames and expiry text, whatever their characters', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(line, { maxLength: 6 }), { maxLength: 4 }),
        fc.array(id, { maxLength: 4 }),
        (pages, gone) => {
          const model = new Map<string, MarkedLine>();
          const b = new MarksBuilder(2);
          for (const page of pages) {
            b.add(page);
            for (const l of page) model.set(l.id, oldMark(l));
          }
          const marks = b.build();
          for (const [k, m] of model) {
            expect(marks.has(k)).toBe(true);
            same(marks.get(k)?.line, m.line);
            expect(marks.get(k)?.username).toBe(m.username);
          }
          expect([...marks.keys()]).toStrictEqual([...model.keys()]);
          for (const [i, l] of [...marks.lines()].entries()) same(l, [...model.values()][i]!.line);
          // Unmarked, then marked again: at the end, with the new values.
          const fewer = marks.without(gone);
          for (const g of gone) model.delete(g);
          const again = pages.flat().filter((l) => gone.includes(l.id));
          const back = fewer.with(again);
          for (const l of again) {
            model.delete(l.id);
            model.set(l.id, oldMark(l));
          }
          expect([...back.keys()]).toStrictEqual([...model.keys()]);
          for (const [i, l] of [...back.lines()].entries()) same(l, [...model.values()][i]!.line);
          // The marks before are as they were.
          expect([...marks.keys()].length).toBe(marks.size);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('marks made from the same marks share nothing that one of them changes', () => {
    type Op =
      | { kind: 'with'; lines: LineListItem[] }
      | { kind: 'without'; ids: string[] }
      | { kind: 'withMarks'; lines: LineListItem[] };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('with' as const), lines: fc.array(line, { maxLength: 4 }) }),
      fc.record({ kind: fc.constant('without' as const), ids: fc.array(id, { maxLength: 3 }) }),
      fc.record({ kind: fc.constant('withMarks' as const), lines: fc.array(line, { maxLength: 4 }) }),
    );
    const apply = (m: Marks, model: Map<string, MarkedLine>, o: Op): [Marks, Map<string, MarkedLine>] => {
      const next = new Map(model);
      if (o.kind === 'without') {
        for (const k of o.ids) next.delete(k);
        return [m.without(o.ids), next];
      }
      for (const l of o.lines) next.set(l.id, oldMark(l));
      return [o.kind === 'with' ? m.with(o.lines) : m.withMarks(Marks.of(o.lines)), next];
    };
    const check = (m: Marks, model: Map<string, MarkedLine>) => {
      expect([...m.keys()]).toStrictEqual([...model.keys()]);
      same(
        [...m.lines()],
        [...model.values()].map((x) => x.line),
      );
    };
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 6 }),
        fc.array(fc.array(op, { maxLength: 4 }), { maxLength: 4 }),
        (start, branches) => {
          const root = Marks.of(start);
          const rootModel = new Map<string, MarkedLine>();
          for (const l of start) rootModel.set(l.id, oldMark(l));
          const made: [Marks, Map<string, MarkedLine>][] = [];
          for (const ops of branches) {
            let at: [Marks, Map<string, MarkedLine>] = [root, rootModel];
            for (const o of ops) {
              at = apply(at[0], at[1], o);
              made.push(at);
            }
          }
          check(root, rootModel);
          for (const [m, model] of made) check(m, model);
          expect(Marks.none.size).toBe(0);
          expect([...Marks.none.keys()]).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a byte-order mark at a field’s start stays (UTF-8 decoding must not take it as a BOM)', () => {
    const l = lineItem({
      id: '\ufeff3',
      username: '\ufeffname',
      password: '\ufeffp',
      label: '\ufeff',
      exp_date: { raw: '\ufeff2026-01-01', ms: null },
    });
    const marks = Marks.of([l]);
    expect(marks.idAt(0)).toBe('\ufeff3');
    expect(marks.has('3')).toBe(false);
    same(marks.lineAt(0), l);
  });

  it('a job from the marks plans, counts and runs the lines the map of marks gave', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.integer({ min: 0, max: 40 }), (ls, balance) => {
        const model = new Map<string, MarkedLine>();
        for (const l of ls) model.set(l.id, oldMark(l));
        const marks = Marks.of(ls);
        const eager = [...model.values()].map((m) => toBulkLine(m.line));
        const lazy = lazyLines(
          marks.size,
          (i) => toBulkLine(marks.lineAt(i)),
          (k) => marks.indexOf(k),
        );
        const NOW = Date.UTC(2026, 10, 28);
        const plan = (l: ReturnType<typeof toBulkLine>) =>
          planLine({ ...l, cost: l.before.connections }, 'extend', { months: 1, connections: 1 }, [], NOW);
        const planned = planLines(lazy, planKind, plan);
        const made = madeLines(planned);
        same(made, eager.map(plan));
        expect(new Set(made.map((l) => l.id)).size).toBe(made.length);
        const x = affordability(planned, balance);
        const y = affordability(eager.map(plan), balance);
        expect([x.total, x.spent, x.considered, x.fitsAll, x.affordable.size]).toEqual([
          y.total,
          y.spent,
          y.considered,
          y.fitsAll,
          y.affordable.size,
        ]);
        for (const k of [...model.keys(), 'none']) expect(x.affordable.has(k)).toBe(y.affordable.has(k));
      }),
      { numRuns: 200 },
    );
  });
});
