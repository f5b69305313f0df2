import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** In a process of its own: loading `node:ffi` prints an ExperimentalWarning unless it is kept quiet. */
const run = (code: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    encoding: 'utf8',
    env: { ...process.env, NODE_NO_WARNINGS: undefined },
  });

describe('malloc trim', () => {
  it.runIf(process.platform === 'linux')('is had on Linux (glibc) and prints nothing', () => {
    const r = run(`
      import { loadMallocTrim } from './src/app/malloc-trim.ts';
      const trim = loadMallocTrim();
      trim?.();
      setTimeout(() => process.stdout.write(typeof trim), 20);
    `);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('function');
  });

  it('a warning emitted just before it (printed on the next tick) is printed as before', () => {
    const r = run(`
      import { loadMallocTrim } from './src/app/malloc-trim.ts';
      process.emitWarning('earlier');
      loadMallocTrim()?.();
      setTimeout(() => {}, 20);
    `);
    expect(r.stderr).toContain('earlier');
  });

  it('a warning after it is printed as before', () => {
    const r = run(`
      import { loadMallocTrim } from './src/app/malloc-trim.ts';
      loadMallocTrim();
      setTimeout(() => process.emitWarning('later'), 20);
    `);
    expect(r.stderr).toContain('later');
  });
});
