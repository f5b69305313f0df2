/**
 * What the app asks of V8 about memory while it runs (docs/PERFORMANCE.md, "What holds the bytes").
 *
 * From the start of the app (`start`): Turbofan, V8's top optimizing compiler, is off; Maglev (the
 * fast one) stays. After 1,000 page turns Turbofan had cost ≈ 10 MB of the resident set and held no
 * page or frame: the malloc arenas of the threads it compiles on (kept by the allocator once grown),
 * its own machine code in the Node binary and the code it made. The app's CPU per key is the same
 * without it: Maglev's code does a key's work. With Maglev off too the resident set was ≈ 5 MB lower
 * still, but a key cost ≈ 1.5× the CPU and its median frame came twice as late: not kept. Turned off
 * only once the first frame was drawn, Turbofan had already run during the start-up.
 *
 * Once the first frame is drawn (`hold`): --optimize-for-size, which keeps the old space near the
 * live heap. Set before it, it cost the start-up ≈ 60 ms (the first render collected under it).
 *
 * A walk that keeps what it reads (`heavyWork`: `A` on 100,000 lines, 1,000 pages parsed in a row)
 * has Turbofan on and --optimize-for-size off for its length (under it V8 kept the young generation
 * small and collected it about once a page: 9 s and 12 s of CPU, most of it garbage collection);
 * when the last walk ends the browsing flags are back and, once its result is drawn, one full
 * collection gives back the old space it grew.
 *
 * While the app is used (`active`: a change of the store's state), the C allocator's free memory is
 * given back (`trim`, glibc's malloc_trim: app/malloc-trim.ts) at most once every TRIM_AFTER_MS: the
 * arenas of V8's worker threads grow with its compile jobs and collections and glibc never returns
 * them by itself (≈ 5 MB of the resident set after 1,000 page turns). Nothing runs while the app
 * sits unused: the trim after the last change is the last one.
 */
import { HOLD_YOUNG_GENERATION } from './young-generation';

export const START_FLAGS = '--no-turbofan';
export const HOLD_FLAGS = `--optimize-for-size ${HOLD_YOUNG_GENERATION}`;
export const HEAVY_FLAGS = '--no-optimize-for-size --turbofan';

/** After a heavy walk: long enough for its last frame to be drawn first (Ink draws at most 30 a second). */
export const GIVE_BACK_AFTER_MS = 100;

/** After a change of state: the C allocator's free memory is given back this much later (once). */
export const TRIM_AFTER_MS = 2_000;

interface MemoryDeps {
  /** V8's setFlagsFromString. */
  setFlags: (flags: string) => void;
  /** One full (major) collection, synchronous. */
  collect: () => void;
  /** Runs `fn` in `ms` (a timer that does not keep the process alive). */
  schedule: (fn: () => void, ms: number) => void;
  /** Gives the C allocator's free memory back to the system (nothing where it cannot). */
  trim: () => void;
}

interface MemoryKeeper {
  /** The app starts (before its screens load): Turbofan off. */
  start: () => void;
  /** The first frame is drawn: the browsing flags from now on (once). */
  hold: () => void;
  /** A walk that keeps what it reads starts; call what it returns when it ends (once). */
  heavyWork: () => () => void;
  /** The app's state changed (a key, a page, a reply): a trim follows, TRIM_AFTER_MS later. */
  active: () => void;
}

export function createMemoryKeeper(deps: MemoryDeps): MemoryKeeper {
  let started = false;
  let held = false;
  let heavy = 0;
  let trimDue = false;
  const trim = () => {
    trimDue = false;
    if (heavy === 0) deps.trim();
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
          if (heavy > 0) return;
          deps.collect();
          trim();
        }, GIVE_BACK_AFTER_MS);
      };
    },
    active() {
      if (!held || trimDue) return;
      trimDue = true;
      deps.schedule(trim, TRIM_AFTER_MS);
    },
  };
}
