/**
 * The listing's schemas map values with `mapped` (an overwrite), never with zod's `.transform()`:
 * zod's transform sets a closure over its payload at every call, V8 allocates a closure assigned to a
 * property in the old generation, and each one kept what it was given (a page and every line of it)
 * through every young collection until a full one (issue 27: docs/PERFORMANCE.md, "Listing every
 * line"). Only a union's string branch (`"3"`, `"true"`) may still transform: no documented item
 * takes it.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { LIMIT_DEFAULT, LineListItem, LinesPage, ListLinesQuery } from '../../src/api/contract';
import { unwrapLazy } from '../../src/api/contract/lazy';
import { mapped } from '../../src/api/contract/primitives';

interface Def {
  readonly type: string;
  readonly shape?: Record<string, { _zod: { def: Def } }>;
  readonly element?: { _zod: { def: Def } };
  readonly innerType?: { _zod: { def: Def } };
  readonly in?: { _zod: { def: Def } };
  readonly out?: { _zod: { def: Def } };
  readonly options?: readonly { _zod: { def: Def } }[];
}

/** The paths to every `.transform()` step reachable from a schema, except inside a union. */
function transforms(schema: object, path = '', found: string[] = []): string[] {
  const def = (unwrapLazy(schema) as { _zod: { def: Def } })._zod.def;
  if (def.type === 'transform') found.push(path || '(root)');
  if (def.type === 'union') return found;
  for (const [k, s] of Object.entries(def.shape ?? {})) transforms(s, `${path}.${k}`, found);
  for (const s of [def.element, def.innerType, def.in, def.out]) if (s) transforms(s, path, found);
  return found;
}

describe('the listing parses without zod transforms', () => {
  it('a page and a list item have none outside a union', () => {
    expect(transforms(LinesPage)).toEqual([]);
    expect(transforms(LineListItem)).toEqual([]);
  });

  it("each request's query has none outside a union either (every page of a listing validates one)", () => {
    expect(transforms(ListLinesQuery)).toEqual([]);
  });

  it('property: the query reads offset and limit as the transforms written before did, issues included', () => {
    const queryInt = (m: string) =>
      z.union([z.number(), z.string().regex(/^\d+$/, m).transform(Number)], { error: m });
    const O = 'Offset is a whole number, 0 or more';
    const L = 'A page holds 1 to 100 lines';
    const before = z.object({
      offset: queryInt(O)
        .pipe(z.number().int(O).min(0, O))
        .nullish()
        .transform((v) => v ?? 0),
      limit: queryInt(L)
        .pipe(z.number().int(L).min(1, L).max(100, L))
        .optional()
        .transform((v) => v ?? LIMIT_DEFAULT),
    });
    const value = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.integer({ min: -3, max: 130 }),
      fc.double(),
      fc.constantFrom('0', '7', '100', '101', '-1', ' 5', 'x', '', '2.5'),
      fc.string({ maxLength: 4 }),
      fc.boolean(),
    );
    const seen = (r: z.ZodSafeParseResult<unknown>) =>
      r.success ? { data: r.data } : { issues: r.error.issues.map((i) => [i.path, i.message]) };
    fc.assert(
      fc.property(value, value, fc.boolean(), fc.boolean(), (offset, limit, hasOffset, hasLimit) => {
        const q = { ...(hasOffset ? { offset } : {}), ...(hasLimit ? { limit } : {}) };
        const r = ListLinesQuery.safeParse(q);
        const { status: _s, type: _t, orderBy: _b, orderType: _o, ...paging } = r.success ? r.data : {};
        expect(seen(r.success ? { success: true, data: paging } : r)).toStrictEqual(
          seen(before.safeParse(q)),
        );
      }),
      { numRuns: 1500 },
    );
  });

  it("a page's lines not an array: the issue z.array(z.unknown()) gave, at the field", () => {
    const page = { offset: 0, limit: 1, totalHits: 0, totalReturns: 0, hasNextPage: false };
    const rest = { hasPreviousPage: false, nextOffset: null, previousOffset: null };
    for (const lines of ['x', null, {}, undefined]) {
      const r = LinesPage.safeParse({ ...page, ...rest, lines });
      const was = z.object({ lines: z.array(z.unknown()) }).safeParse({ lines });
      expect(r.error?.issues).toStrictEqual(was.error?.issues);
    }
    expect(LinesPage.parse({ ...page, ...rest, lines: [] }).lines).toEqual([]);
  });

  it('mapped maps a value once it parsed, and not when it has an issue', () => {
    const seen: unknown[] = [];
    const s = mapped(z.string().nullable().default(null), (v) => {
      seen.push(v);
      return v === null ? 'none' : v.length;
    });
    expect(s.parse('abc')).toBe(3);
    expect(s.parse(null)).toBe('none');
    expect(s.parse(undefined)).toBe('none');
    const bad = s.safeParse(5);
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ code: 'invalid_type', expected: 'string' });
    expect(seen).toEqual(['abc', null, null]);
    expect(z.object({ n: s }).parse({})).toEqual({ n: 'none' });
  });

  it('mapped, like a transform, never maps a value that failed a check of its own or of a field', () => {
    const seen: unknown[] = [];
    const page = mapped(z.object({ limit: z.number().int().min(1), lines: z.array(z.string()) }), (v) => {
      seen.push(v);
      return v.lines.length / v.limit;
    });
    const short = mapped(z.string().min(3), (v) => {
      seen.push(v);
      return v.length;
    });
    // A check that lets parsing go on (a bound, a pattern) still fails the value: `fn` is not given it.
    expect(page.safeParse({ limit: 0, lines: [] }).success).toBe(false);
    expect(page.safeParse({ limit: 1.5, lines: ['a'] }).success).toBe(false);
    expect(short.safeParse('ab').success).toBe(false);
    expect(seen).toEqual([]);
    expect(page.parse({ limit: 2, lines: ['a'] })).toBe(0.5);
    expect(short.parse('abc')).toBe(3);
  });
});
