import type * as z from 'zod';

/**
 * How many values a schema parses before zod may compile a parser for it. Zod 4 compiles each object
 * schema into a function (`new Function`) on its first parse: worth it over the thousands of lines
 * a walk reads, a loss for the few answers a command or the first screen reads (`account --json`
 * parses about 30 answers: ≈ 15 ms of CPU of its ≈ 150 went to compiling, docs/PERFORMANCE.md).
 * Both ways are zod's own and give the same result (test/api/tiered-parse.test.ts).
 */
export const COMPILE_AFTER = 100;

const parsed = new WeakMap<object, number>();
/** `printable`: every string in the value is printable ASCII (none needs sanitizing). */
type PlainReader = (value: unknown, printable: boolean) => unknown;
const plainReaders = new WeakMap<object, PlainReader>();

/**
 * Has `safeParseTiered` read the schema's common form with `read` first (null: not that form, the
 * schema reads it): a reader without zod that gives the schema's result, held to it by a test.
 */
export function readPlainly<S extends z.ZodType>(
  schema: S,
  read: (value: unknown, printable: boolean) => z.output<S> | null,
) {
  plainReaders.set(schema, read);
}

/**
 * `schema.safeParse(value)`, without zod's compiled parser for the schema's first values.
 * `printable`: the caller knows every string in `value` is printable ASCII (the reply's bytes were
 * checked, `jsonStringsPrintable`), so a plain reader may skip sanitizing them; zod always sanitizes.
 */
export function safeParseTiered<S extends z.ZodType>(
  schema: S,
  value: unknown,
  printable = false,
): z.ZodSafeParseResult<z.output<S>> {
  const quick = plainReaders.get(schema)?.(value, printable);
  if (quick != null) return { success: true, data: quick as z.output<S> };
  const n = parsed.get(schema) ?? 0;
  if (n >= COMPILE_AFTER) return schema.safeParse(value);
  parsed.set(schema, n + 1);
  return schema.safeParse(value, { jitless: true });
}
