/**
 * What the app asks of V8 about memory while it runs (docs/PERFORMANCE.md, "What holds the bytes").
 *
 * From the start of the app (`start`): V8's optimizing compilers (Maglev, Turbofan) are off. After
 * 1,000 page turns they had cost ≈ 15–20 MB of the resident set and held no page or frame: the
 * malloc arenas of the threads that compile (4–11 MB over their size at start, kept by the
 * allocator), the compilers' own machine code in the Node binary (≈ 5 MB of its pages touched) and
 * the optimized code. What a key does between two frames is short work that Ignition and Sparkplug
 * run without them. Turned off only once the first frame was drawn they had already run (and
 * touched their pages) during the start-up: half the gain.
 *
 * Once the first frame is drawn (`hold`): --optimize-for-size, which keeps the old space near the
 * live heap. Set before it, it cost the start-up ≈ 60 ms (the first render collected under it).
 *
 * A walk that keeps what it reads (`heavyWork`: `A` on 100,000 lines, 1,000 pages parsed in a row)
 * has the compilers on and --optimize-for-size off for its length (under it V8 kept the young
 * generation small and collected it about once a page: 9 s and 12 s of CPU, most of it garbage
 * collection); when the last walk ends the browsing flags are back and, once its result is drawn,
 * one full collection gives back the old space it grew.
 *
 * Idle: once no key has arrived for a while, one collection of everything V8 can give back (its
 * last-resort one: pages it keeps pooled included). Never while keys arrive (each key puts it off),
 * never during a walk, at most once a pause and once per `IDLE_GAP_MS`.
 */
export const START_FLAGS = '--no-maglev --no-turbofan';
export const HOLD_FLAGS = '--optimize-for-size --semi-space-growth-factor=1';
export const HEAVY_FLAGS = '--no-optimize-for-size --maglev --turbofan';

/** After a heavy walk: long enough for its last frame to be drawn first (Ink draws at most 30 a second). */
export const GIVE_BACK_AFTER_MS = 100;
/** How long without a key before the idle collection. */
export const IDLE_AFTER_MS = 5_000;
/** The least time between two idle collections. */
export const IDLE_GAP_MS = 30_000;

export type Collection = 'after-walk' | 'idle';

export interface MemoryDeps {
  /** V8's setFlagsFromString. */
  setFlags: (flags: string) => void;
  /** One full collection, synchronous: 'after-walk' a major one, 'idle' a last-resort one. */
  collect: (kind: Collection) => void;
  /** Runs `fn` in `ms` (a timer that does not keep the process alive); returns its cancel. */
  schedule: (fn: () => void, ms: number) => () => void;
  /** A monotonic clock in ms. */
  now: () => number;
}

export interface MemoryKeeper {
  /** The app starts (before its modules run): the compilers off. */
  start: () => void;
  /** The first frame is drawn: the browsing flags from now on (once). */
  hold: () => void;
  /** A walk that keeps what it reads starts; call what it returns when it ends (once). */
  heavyWork: () => () => void;
  /** A key (or any input) arrived: the idle collection is put off. */
  input: () => void;
}

export function createMemoryKeeper(deps: MemoryDeps): MemoryKeeper {
  let started = false;
  let held = false;
  let heavy = 0;
  /** Input since the last idle collection (an app left alone is collected once, not every gap). */
  let active = false;
  let lastIdle = Number.NEGATIVE_INFINITY;
  let cancelIdle: (() => void) | undefined;

  const idle = () => {
    cancelIdle = undefined;
    if (!active || heavy > 0) return; // a walk ends with its own collection
    const wait = lastIdle + IDLE_GAP_MS - deps.now();
    if (wait > 0) {
      cancelIdle = deps.schedule(idle, wait);
      return;
    }
    active = false;
    lastIdle = deps.now();
    deps.collect('idle');
  };

  /** The flags for browsing, as far as the app has come. */
  const browse = () => {
    const flags = [started ? START_FLAGS : '', held ? HOLD_FLAGS : ''].filter(Boolean).join(' ');
    if (flags) deps.setFlags(flags);
  };
  return {
    start() {
      if (started) return;
      started = true;
      if (heavy === 0) browse();
    },
    hold() {
      if (held) return;
      held = true;
      if (heavy === 0) browse();
    },
    heavyWork() {
      if (heavy++ === 0) deps.setFlags(HEAVY_FLAGS);
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        if (--heavy > 0) return;
        browse();
        deps.schedule(() => {
          if (heavy === 0) deps.collect('after-walk');
        }, GIVE_BACK_AFTER_MS);
      };
    },
    input() {
      active = true;
      cancelIdle?.();
      cancelIdle = deps.schedule(idle, IDLE_AFTER_MS);
    },
  };
}
