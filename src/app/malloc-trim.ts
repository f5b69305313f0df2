/**
 * glibc's `malloc_trim(0)` through `node:ffi`: the C allocator gives back to the system the free
 * memory it keeps in its arenas (docs/PERFORMANCE.md, "What holds the bytes"). V8's worker threads
 * (Maglev's compile jobs, the concurrent collector) each allocate in an arena of their own, and glibc
 * keeps what they free: after 1,000 page turns ≈ 11–15 MB of arenas for V8's ≤ 9 MB of malloc at
 * its peak (`peak_malloced_memory`) and ≈ 0.5 MB in use. A trim takes 0.1–3 ms.
 *
 * Null where it cannot be had: not Linux, no glibc (musl has no `malloc_trim`), Node without
 * `node:ffi` or with `--no-experimental-ffi`, the permission model without `--allow-ffi`, an API
 * that changed. Loading `node:ffi` emits an ExperimentalWarning (through `process.emitWarning`, as it
 * loads); Node's printer of warnings would write it over the screen, so an ExperimentalWarning is
 * dropped while it loads, and only then: every other warning, and any emitted before or after, is
 * printed as ever (the listeners of 'warning' are left alone).
 */
export function loadMallocTrim(): (() => void) | null {
  if (process.platform !== 'linux') return null;
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, ...args: Parameters<typeof emitWarning>) {
    if (!isExperimental(args)) Reflect.apply(emitWarning, this, args);
  } as typeof emitWarning;
  try {
    const { functions } = process
      .getBuiltinModule('node:ffi')
      .dlopen(null, { malloc_trim: { arguments: ['uint64'], return: 'int32' } });
    const trim = functions.malloc_trim;
    // Called from a timer: a throw there would end the app, so a trim that fails is not tried again.
    let works = true;
    return () => {
      if (!works) return;
      try {
        trim(0n);
      } catch {
        works = false;
      }
    };
  } catch {
    return null;
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** `emitWarning(warning, type)`, `(warning, { type })`, or an Error named ExperimentalWarning. */
function isExperimental([warning, options]: unknown[]): boolean {
  const type =
    typeof options === 'string'
      ? options
      : ((options as { type?: unknown } | undefined)?.type ??
        (warning instanceof Error ? warning.name : undefined));
  return type === 'ExperimentalWarning';
}
