/**
 * The list item's schema with fewer steps a field (issue 27: `serverString` an overwrite, the
 * nullable strings and dates one transform each) reads every item as the schema built from
 * `nullable(serverString)` and `nullable(serverDate)` did: the same lines, the same first issue for a
 * bad one, and every string sanitized.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { Line, LineListItem } from '../../src/api/contract';
import { parseDateText } from '../../src/api/contract/dates';
import { serverBoolean, serverNumber } from '../../src/api/contract/primitives';
import { isTerminalSafe, sanitize } from '../../src/api/sanitize';

/**
 * The schema as it was written before, dates included: sanitized, then read (parseServerDate as it
 * was, without the canonical form read first), so a date the fast path lets through unsanitized
 * shows here too.
 */
/** Nullable per the tables, and tolerant of an omitted field (treated as null). */
const nullable = <T extends z.ZodType>(schema: T) =>
  schema
    .nullable()
    .optional()
    .transform((v) => v ?? null);
const oldString = z.string().transform(sanitize);
const oldDate = z.string().transform((t) => parseDateText(sanitize(t)));
const OldItem = z.object({
  id: oldString,
  hostname: nullable(oldString),
  username: oldString,
  password: oldString,
  label: oldString.nullish().transform((v) => v ?? ''),
  enabled: serverBoolean,
  connections: serverNumber,
  is_trial: serverBoolean,
  exp_date: nullable(oldDate),
  start_date: nullable(oldDate),
  created_at: nullable(oldDate),
});
const OldLine = OldItem.extend({ macaddress: nullable(oldString), parental_code: nullable(oldString) });

const text = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.constantFrom('\u001b]0;x\u0007', 'a\u009bb', 'ok'),
);
const iso = fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms).toISOString());
/** A canonical date with one character put in place of another: a control, a bidi override, a digit of another script. */
const nearIso = fc
  .tuple(
    iso,
    fc.nat({ max: 23 }),
    fc.constantFrom('\u001b', '\u0007', '\u009b', '\u202e', '\u2028', '\u0660', ' '),
  )
  .map(([t, at, c]) => t.slice(0, at) + c + t.slice(at + 1));
const date = fc.oneof(
  iso,
  nearIso,
  fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms).toString()),
  text,
);
/** A field as a server may send it: its type, another, null, or left out. */
const field = <T>(good: fc.Arbitrary<T>) =>
  fc.oneof(
    { weight: 6, arbitrary: good },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 7, true, [], {}, '3', 'TRUE') },
  );
const item = fc.record(
  {
    id: field(text),
    hostname: field(text),
    username: field(text),
    password: field(text),
    label: field(text),
    enabled: field(fc.boolean()),
    connections: field(fc.integer({ min: 0, max: 6 })),
    is_trial: field(fc.boolean()),
    exp_date: field(date),
    start_date: field(date),
    created_at: field(date),
    macaddress: field(text),
    parental_code: field(text),
  },
  { requiredKeys: ['id', 'username', 'password', 'enabled', 'connections', 'is_trial'] },
);

const outcome = (r: z.ZodSafeParseResult<unknown>) =>
  r.success
    ? { ok: r.data }
    : { path: r.error.issues[0]?.path, message: r.error.issues[0]?.message, code: r.error.issues[0]?.code };

describe('the line schemas', () => {
  it('read every item as the schemas before did: the same data or the same first issue (property)', () => {
    fc.assert(
      fc.property(item, (raw) => {
        expect(outcome(LineListItem.safeParse(raw))).toStrictEqual(outcome(OldItem.safeParse(raw)));
        expect(outcome(Line.safeParse(raw))).toStrictEqual(outcome(OldLine.safeParse(raw)));
      }),
      { numRuns: 3000 },
    );
  });

  it('leave no string unsanitized (property)', () => {
    fc.assert(
      fc.property(item, (raw) => {
        const r = Line.safeParse(raw);
        if (!r.success) return;
        const l = r.data;
        for (const v of [l.id, l.hostname, l.username, l.password, l.label, l.macaddress, l.parental_code])
          if (v !== null) expect(isTerminalSafe(v)).toBe(true);
        for (const d of [l.exp_date, l.start_date, l.created_at])
          if (d) expect(isTerminalSafe(d.raw)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
