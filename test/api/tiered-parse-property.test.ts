/**
 * The tiered parse (api/contract/tiered-parse.ts) reads a schema's first values with zod's
 * interpreted parser and the rest with its compiled one: for every schema the client hands it, the
 * two must agree on whatever a server sends (values, issue paths, codes and messages, transforms and
 * the sanitizing in them), or a command's first page would read differently from a walk's 200th.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import {
  Account,
  BouquetsResponse,
  CostResponse,
  DeleteResponse,
  Line,
  LineChargeResponse,
  LineListItem,
  LinesPage,
  Package,
  PackagesResponse,
} from '../../src/api/contract';
import { COMPILE_AFTER, safeParseTiered } from '../../src/api/contract/tiered-parse';

// --- what servers send: the documented forms, the dialects seen in the wild, and hostile text ------

const HOSTILE = ['\u001b[2J', '\u001b]52;c;eA==\u0007', '\u009b31m', '\r', '\n', '\t', '\u202e', '\u0000'];
const hostile = fc
  .array(fc.oneof(fc.constantFrom(...HOSTILE, 'é', '😀', '\ud800', ' ', '1', 'a'), fc.string()), {
    maxLength: 6,
  })
  .map((p) => p.join(''));
const date = fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true });
const dateText = fc.oneof(
  date.map((d) => d.toString()), // JavaScript's Date.toString, as the real service sends
  date.map((d) => d.toISOString()),
  date.map((d) => d.toISOString().replace('T', ' ').slice(0, 19)),
  date.map(
    (d) =>
      d
        .toLocaleString('en-US', { timeZone: 'UTC', dateStyle: 'full', timeStyle: 'medium' })
        .replace(' at ', ' ')
        .replace(/\u202f/g, ' '), // ICU's narrow space before AM/PM: servers send a plain one
  ),
  hostile, // kept unparsed, sanitized
);
/** Whole numbers as numbers or as strings (padded, too), as servers send them. */
const count = fc.oneof(
  fc.integer({ min: 0, max: 2000 }),
  fc.integer({ min: 0, max: 2000 }).map(String),
  fc.integer({ min: 1, max: 99 }).map((n) => ` ${n} `),
);
const num = fc.oneof(count, fc.double({ min: -10, max: 10, noNaN: true }), fc.constant(' 2.5 '));
const bool = fc.oneof(fc.boolean(), fc.constantFrom('true', 'FALSE', ' True '));
const anyValue = fc.oneof(fc.constant(null), fc.constant(undefined), fc.anything({ maxDepth: 2 }));
/** What no field accepts, or only some: other types, words for numbers, NaN, hostile text. */
const wrong = fc.oneof(
  anyValue,
  hostile,
  fc.constantFrom('many', 'yes', '1', '-3', '1e3', Number.NaN, Number.POSITIVE_INFINITY, -1, 0.5),
);
/** A field's value: mostly its own dialects, sometimes null or wrong. */
const field = (own: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 25, arbitrary: own },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: wrong },
  );

/** Mostly whole items, some with fields missing; extra fields (a `__proto__` among them) beside. */
const item = (shape: Record<string, fc.Arbitrary<unknown>>) =>
  fc
    .tuple(
      fc.oneof(
        { weight: 5, arbitrary: fc.record(shape) },
        { weight: 1, arbitrary: fc.record(shape, { requiredKeys: [] }) },
      ),
      fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constant('__proto__')), anyValue, {
        maxKeys: 2,
      }),
    )
    .map(([own, extra]) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(extra))
        Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      return Object.assign(out, own);
    });
const orJunk = (a: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 20, arbitrary: a }, { weight: 1, arbitrary: anyValue });

const lineShape = {
  id: field(fc.oneof(fc.uuid(), hostile)),
  hostname: field(hostile),
  username: field(hostile),
  password: field(hostile),
  label: field(hostile),
  enabled: field(bool),
  connections: field(num),
  is_trial: field(bool),
  exp_date: field(dateText),
  start_date: field(dateText),
  created_at: field(dateText),
};
const lineItem = orJunk(item(lineShape));
const line = orJunk(item({ ...lineShape, macaddress: field(hostile), parental_code: field(hostile) }));
const pkg = orJunk(
  item({
    id: field(count),
    package_name: field(hostile),
    duration: field(num),
    is_trial: field(bool),
    credits_cost: field(num),
    extra_connection_credits_cost: field(num),
    min_balance: field(num),
  }),
);
const bouquet = orJunk(item({ id: field(num), label: field(hostile) }));
const list = (a: fc.Arbitrary<unknown>) => orJunk(fc.array(a, { maxLength: 4 }));

const CASES: [string, z.ZodType, fc.Arbitrary<unknown>][] = [
  ['LineListItem', LineListItem, lineItem],
  ['Line', Line, line],
  ['Package', Package, pkg],
  [
    'Account',
    Account,
    orJunk(
      item({
        email: field(hostile),
        credits: field(num),
        lines_count: field(num),
        server_information: field(orJunk(item({ hostname: field(hostile), mag_portal_url: field(hostile) }))),
      }),
    ),
  ],
  ['PackagesResponse', PackagesResponse, orJunk(item({ packages: list(pkg) }))],
  ['BouquetsResponse', BouquetsResponse, orJunk(item({ channels: list(bouquet), movies: list(bouquet) }))],
  [
    'LinesPage',
    LinesPage,
    orJunk(
      item({
        offset: field(count),
        limit: field(count),
        totalHits: field(count),
        totalReturns: field(count),
        hasNextPage: field(bool),
        hasPreviousPage: field(bool),
        nextOffset: field(count),
        previousOffset: field(count),
        lines: list(lineItem),
      }),
    ),
  ],
  [
    'LineChargeResponse',
    LineChargeResponse,
    orJunk(item({ line, deducedCredits: field(num), newBalance: field(num) })),
  ],
  ['CostResponse', CostResponse, orJunk(item({ cost: field(num) }))],
  ['DeleteResponse', DeleteResponse, orJunk(item({ success: field(bool) }))],
];

/** Everything a caller can see of a result, key order and absent-vs-undefined included. */
function seen(r: z.ZodSafeParseResult<unknown>) {
  const order = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(order)
      : v !== null && typeof v === 'object'
        ? Object.entries(v).map(([k, x]) => [k, order(x)])
        : v;
  return r.success
    ? { success: true, data: r.data, order: order(r.data) }
    : { success: false, issues: r.error.issues, message: r.error.message };
}

describe('the interpreted and the compiled parse agree (property)', () => {
  for (const [name, schema, arb] of CASES)
    it(`${name}: same values, issues and messages either way`, () => {
      let tiered = 0;
      const outcomes = { good: 0, bad: 0 };
      fc.assert(
        fc.property(arb, (v) => {
          const compiled = seen(schema.safeParse(v));
          expect(seen(schema.safeParse(v, { jitless: true }))).toStrictEqual(compiled);
          // and the tiered parse itself, on both sides of its threshold
          expect(seen(safeParseTiered(schema, v))).toStrictEqual(compiled);
          tiered++;
          outcomes[compiled.success ? 'good' : 'bad']++;
        }),
        { numRuns: 250 },
      );
      expect(tiered).toBeGreaterThan(COMPILE_AFTER);
      // the generators reach both: values read, and values refused with their issues
      expect(outcomes.good, 'values read').toBeGreaterThan(10);
      expect(outcomes.bad, 'values refused').toBeGreaterThan(10);
    });
});
