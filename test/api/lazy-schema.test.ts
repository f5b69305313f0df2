/**
 * The contract's schemas are built on first use (api/contract/lazy.ts, issue #27): a stand-in that
 * is not built until an operation reaches it, and then reads as the schema does, composed or not.
 */

import { types } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { Account, ErrorBody, LineListItem, LinesPage } from '../../src/api/contract';
import { lazySchema, unwrapLazy } from '../../src/api/contract/lazy';

describe('lazySchema', () => {
  it('builds nothing until used, then once; parses, composes and refines as the schema itself', () => {
    let built = 0;
    const Id = lazySchema(() => {
      built++;
      return z.object({ id: z.string().transform((s) => s.trim()) });
    });
    expect(built).toBe(0);
    expect(Id.parse({ id: ' a ' })).toEqual({ id: 'a' });
    expect(Id.safeParse({ id: 1 }).success).toBe(false);
    const Outer = z.object({ inner: Id, list: z.array(Id).optional() });
    expect(Outer.parse({ inner: { id: 'b ' }, list: [{ id: ' c' }] })).toEqual({
      inner: { id: 'b' },
      list: [{ id: 'c' }],
    });
    expect(Id.extend({ n: z.number() }).parse({ id: 'x', n: 1 })).toEqual({ id: 'x', n: 1 });
    expect(Id.nullable().parse(null)).toBeNull();
    expect(Id instanceof z.ZodObject).toBe(true);
    expect(Object.keys(Id.shape)).toEqual(['id']);
    expect(built).toBe(1);
  });

  it('the contract reads through its stand-ins as before: an error body, an account, a page with a bad item', () => {
    expect(ErrorBody.parse({ code: 'rate_limit', message: 'slow down' })).toEqual({
      code: 'rate_limit',
      message: 'slow down',
    });
    expect(Account.safeParse({}).success).toBe(false);
    const item = {
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
    };
    expect(LineListItem.parse(item).connections).toBe(2);
    const page = LinesPage.parse({
      offset: 0,
      limit: 20,
      totalHits: 2,
      totalReturns: 2,
      hasNextPage: false,
      hasPreviousPage: false,
      nextOffset: null,
      previousOffset: null,
      lines: [item, { id: 7 }],
    });
    expect(page.lines).toHaveLength(1);
    expect(page.unreadable).toHaveLength(1);
  });

  it('unwrapLazy gives the schema itself (made once, no proxy), and any other value as it is', () => {
    let built = 0;
    const Id = lazySchema(() => {
      built++;
      return z.object({ id: z.string() });
    });
    const real = unwrapLazy(Id);
    expect(types.isProxy(Id)).toBe(true);
    expect(types.isProxy(real)).toBe(false);
    expect(unwrapLazy(Id)).toBe(real);
    expect(built).toBe(1);
    expect(real.parse({ id: 'a' })).toEqual(Id.parse({ id: 'a' }));
    const plain = z.string();
    expect(unwrapLazy(plain)).toBe(plain);
    expect(types.isProxy(unwrapLazy(LineListItem))).toBe(false);
  });
});
