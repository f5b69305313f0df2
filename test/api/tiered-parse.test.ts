/**
 * The contract's parse boundary leaves zod's compiled parser out for a schema's first values
 * (api/contract/tiered-parse.ts, issue #27: compiling cost a short command more than it saved), and
 * uses it after: the two give the same result, good values and bad alike.
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { LineListItem } from '../../src/api/contract';
import { COMPILE_AFTER, safeParseTiered } from '../../src/api/contract/tiered-parse';

/** Counts the functions zod compiles (its parsers are made with `new Function`). */
function countCompiles() {
  const real = globalThis.Function;
  let n = 0;
  globalThis.Function = new Proxy(real, {
    construct(target, args) {
      n++;
      return Reflect.construct(target, args);
    },
  });
  return { count: () => n, restore: () => (globalThis.Function = real) };
}

let restore = () => {};
afterEach(() => restore());

const item = (over: Record<string, unknown> = {}) => ({
  id: 'x',
  hostname: null,
  username: 'u',
  password: 'p',
  label: null,
  enabled: 'true',
  connections: '2',
  is_trial: 'false',
  exp_date: null,
  start_date: null,
  created_at: null,
  ...over,
});

describe('safeParseTiered', () => {
  it('compiles no parser for a schema until it has parsed COMPILE_AFTER values, then uses zod’s', () => {
    const schema = z.object({ id: z.string(), n: z.number() });
    const c = countCompiles();
    restore = c.restore;
    for (let i = 0; i < COMPILE_AFTER; i++)
      expect(safeParseTiered(schema, { id: 'a', n: i }).success).toBe(true);
    expect(c.count()).toBe(0);
    expect(safeParseTiered(schema, { id: 'a', n: 1 }).success).toBe(true);
    expect(c.count()).toBeGreaterThan(0);
  });

  it('gives what schema.safeParse gives, before and after the compiled parser takes over', () => {
    const values = [
      item(),
      item({ connections: 'many' }),
      item({ username: 'a\u001b[2Jb' }),
      item({ exp_date: '2026-01-01 00:00:00' }),
      { id: 7 },
      null,
      'text',
    ];
    const strip = (r: ReturnType<typeof LineListItem.safeParse>) =>
      r.success ? { data: r.data } : { issues: r.error.issues.map((i) => [i.path, i.code]) };
    for (let round = 0; round <= COMPILE_AFTER / values.length + 1; round++)
      for (const v of values)
        expect(strip(safeParseTiered(LineListItem, v))).toEqual(strip(LineListItem.safeParse(v)));
  });
});
