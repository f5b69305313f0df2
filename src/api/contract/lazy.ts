/** The key the stand-in answers with the schema itself (`unwrapLazy`). */
const REAL = Symbol('lazySchema.real');

/**
 * A schema built when first used, not when the module loads (issue #27): building the contract's
 * ~30 schemas took ≈ 13 ms of every start, and a command uses a few (`account --json`: the account,
 * a page of lines, the error bodies). The stand-in forwards every operation to the schema, made on
 * the first; its type is the schema's, so `z.output<typeof X>`, `X.parse` and composition
 * (`z.object({ x: X })`, `X.extend(…)`) read as before. Zod reads a schema through its properties
 * (`_zod`, `parse`, …) and its traits, never by identity, so the stand-in and the schema agree.
 */
export function lazySchema<T extends object>(make: () => T): T {
  let made: T | undefined;
  const real = (): T => {
    made ??= make();
    return made;
  };
  return new Proxy(Object.create(null) as T, {
    get: (_, key) => (key === REAL ? real() : Reflect.get(real(), key)),
    set: (_, key, value) => Reflect.set(real(), key, value),
    has: (_, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => {
      const d = Reflect.getOwnPropertyDescriptor(real(), key);
      // A proxy may not report a property as non-configurable that its (empty) target lacks.
      return d && { ...d, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
    defineProperty: (_, key, d) => Reflect.defineProperty(real(), key, d),
    deleteProperty: (_, key) => Reflect.deleteProperty(real(), key),
  });
}

/**
 * The schema a stand-in stands for (made if it was not yet), or the value itself when it is not a
 * stand-in. For a loop that parses many values with one schema (a page's items): each operation on
 * the stand-in is a trip through the proxy's traps (issue 27: two or more an item, ≈ 0.1 s of a
 * 100,000-line listing with the tier count's lookup).
 */
export function unwrapLazy<T extends object>(schema: T): T {
  return ((schema as Record<symbol, unknown>)[REAL] as T | undefined) ?? schema;
}
