/**
 * V8's --semi-space-growth-factor has one owner (src/app/young-generation.ts): the app's hold and
 * `linedesk lines`' long walk take it from there, and the walk's release sets back what the process
 * started with (the command line's value, else V8's default), so the code cache saved after it is
 * stamped with the flags the next run starts with. node:v8 reads no flag back, but its
 * `cachedDataVersionTag` (a hash of the flags a code cache is stamped with) tells whether they match.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOLD_FLAGS } from '../../src/app/memory';
import {
  growthFactorAtStart,
  HOLD_YOUNG_GENERATION,
  holdYoungGeneration,
} from '../../src/app/young-generation';

const MODULE = join(__dirname, '../../src/app/young-generation.ts');

/** In a fresh Node started with `flags`: the flags' hash before the hold, while held, after release. */
function tagsIn(flags: readonly string[]): { before: number; held: number; after: number } {
  const script = `
    import v8 from 'node:v8';
    import { holdYoungGeneration } from ${JSON.stringify(MODULE)};
    const before = v8.cachedDataVersionTag();
    const release = holdYoungGeneration();
    const held = v8.cachedDataVersionTag();
    release();
    console.log(JSON.stringify({ before, held, after: v8.cachedDataVersionTag() }));`;
  const r = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  expect(r.stderr.replace(/.*ExperimentalWarning.*\n?|.*--trace-warnings.*\n?/g, '').trim()).toBe('');
  return JSON.parse(r.stdout);
}

describe('the young generation held and set back', () => {
  it('reads the factor the command line set (the last, either spelling), else V8 default', () => {
    expect(growthFactorAtStart([])).toBe(2);
    expect(growthFactorAtStart(['--expose-gc', '--semi-space-growth-factor=3'])).toBe(3);
    expect(growthFactorAtStart(['--semi_space_growth_factor=4', '--semi-space-growth-factor=3'])).toBe(3);
    expect(growthFactorAtStart(['--semi-space-growth-factor', '3'])).toBe(2); // V8 refuses this form
  });

  it('sets the held factor, and back what the process started with, once', () => {
    const flags: string[] = [];
    const release = holdYoungGeneration({
      setFlags: (f) => flags.push(f),
      execArgv: ['--semi-space-growth-factor=3'],
    });
    expect(flags).toEqual([HOLD_YOUNG_GENERATION]);
    release();
    release();
    expect(flags).toEqual([HOLD_YOUNG_GENERATION, '--semi-space-growth-factor=3']);
  });

  it("after release V8's flags are as at start: by default, and with a factor given on the command line", () => {
    for (const flags of [[], ['--semi-space-growth-factor=3']]) {
      const tags = tagsIn(flags);
      expect(tags.held, `${flags}: held changes the flags`).not.toBe(tags.before);
      expect(tags.after, `${flags}`).toBe(tags.before);
    }
  });

  it('is written in one place: the app holds it through HOLD_FLAGS, no other file spells the flag', () => {
    expect(HOLD_FLAGS).toContain(HOLD_YOUNG_GENERATION);
    const src = join(__dirname, '../../src');
    const spelled = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('young-generation.ts'))
      .filter((f) => /semi[-_]space[-_]growth/.test(readFileSync(join(src, f), 'utf8')));
    expect(spelled).toEqual([]);
  });
});
