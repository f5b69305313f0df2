import { until } from './wait';

/**
 * A client whose calls of one method wait at a gate until `open()`: a run "still sending" (or a check
 * still reading) for as long as a test wants. Held from the start, or from `hold()` when `held` is
 * false (calls before it go through). `waiting()` counts the calls that met the gate; `reached()`
 * resolves once one has.
 */
export function gated<C extends object>(client: C, method: keyof C, held = true) {
  let gate: Promise<void> | null = null;
  let release = () => {};
  let waiting = 0;
  const hold = () => {
    gate = new Promise<void>((r) => {
      release = r;
    });
  };
  if (held) hold();
  const proxy = new Proxy(client, {
    get(t, k, r) {
      if (k === method)
        return async (...args: unknown[]) => {
          if (gate) {
            waiting++;
            await gate;
          }
          return (t[method] as (...a: unknown[]) => unknown).apply(t, args);
        };
      const v = Reflect.get(t, k, r);
      return typeof v === 'function' ? v.bind(t) : v;
    },
  });
  return {
    client: proxy,
    hold,
    open() {
      gate = null;
      release();
    },
    waiting: () => waiting,
    reached: () => until(() => waiting > 0),
  };
}
