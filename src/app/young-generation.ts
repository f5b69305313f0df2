/**
 * V8's --semi-space-growth-factor, written here only: how much the young generation grows when much
 * of it survives a scavenge. Held at 1 (kept at the size it has grown to) by the app once its first
 * frame is drawn (memory.ts `HOLD_FLAGS`) and by `linedesk lines` for the length of a long streamed
 * walk (headless/commands/lines.ts, `holdYoungGeneration`), where it is set back afterwards: the
 * command's code cache is saved after the walk, and V8 refuses in the next run a cache stamped with
 * flags other than that run's.
 *
 * Set back to what it was before, as far as it can be known: node:v8 sets flags but reads none back
 * (no getter; `getHeapStatistics` has no such field; `cachedDataVersionTag` is a hash), so it is the
 * value the command line gave (`process.execArgv`; NODE_OPTIONS does not take this flag), else V8's
 * default, 2 in Node 26's V8 (`node --v8-options`).
 */

const FLAG = 'semi-space-growth-factor';

/** The young generation kept at its size. */
export const HOLD_YOUNG_GENERATION = `--${FLAG}=1`;

/** V8's default factor (Node 26, V8 14: `node --v8-options`). */
const V8_DEFAULT = 2;

/**
 * The factor the command line set, the last one given (V8 reads `-` and `_` alike, and takes the
 * value only after `=`), else V8's default.
 */
export function growthFactorAtStart(execArgv: readonly string[] = process.execArgv): number {
  const named = new RegExp(`^--${FLAG.replaceAll('-', '[-_]')}=(\\d+)$`);
  const given = execArgv.map((arg) => named.exec(arg)?.[1]).filter((v) => v !== undefined);
  return given.length ? Number(given.at(-1)) : V8_DEFAULT;
}

interface YoungGenerationDeps {
  /** V8's setFlagsFromString. */
  readonly setFlags: (flags: string) => void;
  readonly execArgv: readonly string[];
}

/**
 * Holds the young generation at its size until the returned function is called (once), which sets
 * the factor back to what it was at start.
 */
export function holdYoungGeneration(
  deps: YoungGenerationDeps = {
    setFlags: (flags) => process.getBuiltinModule('node:v8').setFlagsFromString(flags),
    execArgv: process.execArgv,
  },
): () => void {
  const before = growthFactorAtStart(deps.execArgv);
  deps.setFlags(HOLD_YOUNG_GENERATION);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    deps.setFlags(`--${FLAG}=${before}`);
  };
}
