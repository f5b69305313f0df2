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
    get: (_, key) => Reflect.get(real(), key),
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
