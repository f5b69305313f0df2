/**
 * `mapped` (api/contract/primitives.ts) keeps what zod says of its schema's input: a field with a
 * default (or optional) may be omitted, so an object of such fields takes `{}`. Types only: `tsc`
 * (`npx tsc --noEmit -p .`) is what fails when the flag is lost; the run checks the values agree.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { ListLinesParams, ListLinesQuery } from '../../src/api/contract';
import { mapped, nullableServerString } from '../../src/api/contract/primitives';

describe('mapped: the input type', () => {
  it('keeps "may be omitted" of a default or an optional schema', () => {
    const withDefault = z.object({ n: mapped(z.number().nullable().default(0), (v) => String(v)) });
    expectTypeOf<z.input<typeof withDefault>>().toEqualTypeOf<{ n?: number | null | undefined }>();
    expectTypeOf<z.output<typeof withDefault>>().toEqualTypeOf<{ n: string }>();
    const optional = z.object({ n: mapped(z.number().optional(), (v) => v ?? 1) });
    expectTypeOf<z.input<typeof optional>>().toEqualTypeOf<{ n?: number | undefined }>();
    // An omitted optional field stays omitted (the step is not run for it), as a pipe's would.
    expectTypeOf<z.output<typeof optional>>().toEqualTypeOf<{ n?: number | undefined }>();
    const server = z.object({ s: nullableServerString });
    expectTypeOf<z.input<typeof server>>().toEqualTypeOf<{ s?: string | null | undefined }>();
    expect(withDefault.parse({})).toEqual({ n: '0' });
    expect(optional.parse({})).toEqual({});
    expect(optional.parse({ n: undefined })).toEqual({ n: 1 });
    expect(server.parse({})).toEqual({ s: null });
  });

  it('keeps a required schema required', () => {
    const required = z.object({ n: mapped(z.number(), (v) => v + 1) });
    expectTypeOf<z.input<typeof required>>().toEqualTypeOf<{ n: number }>();
    expect(required.safeParse({}).success).toBe(false);
  });

  it("types the list query's offset with no cast: may be omitted, null, text or a number; a number out", () => {
    expectTypeOf<Pick<ListLinesQuery, 'offset'>>().toEqualTypeOf<{
      offset?: number | string | null | undefined;
    }>();
    expectTypeOf<ListLinesParams['offset']>().toEqualTypeOf<number>();
  });
});
