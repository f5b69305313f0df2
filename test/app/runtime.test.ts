import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };

// The project pins its Node (the `node` package, first on npm scripts' PATH): the suite, its workers
// and the children the e2e tests start must run on it, not on whatever Node the machine has.
describe('the pinned Node', () => {
  it('runs this worker and the children tests start', () => {
    expect(process.versions.node).toBe(pkg.devDependencies.node);
    const child = spawnSync(process.execPath, ['-p', 'process.versions.node'], { encoding: 'utf8' });
    expect(child.stdout.trim()).toBe(pkg.devDependencies.node);
  });

  it('the built launcher refuses an older Node with one sentence, no stack trace', () => {
    const old = spawnSync(
      process.execPath,
      [
        '-e',
        "Object.defineProperty(process.versions, 'node', { value: '20.20.2' }); await import('./dist/linedesk.js')",
        '--input-type=module',
      ],
      { encoding: 'utf8' },
    );
    expect(old.status).toBe(1);
    expect(old.stderr).toMatch(/^linedesk needs Node\.js 24 or later; this is Node\.js 20\.20\.2\. .*\n$/);
    expect(old.stderr).not.toMatch(/\n\s+at /);
  });
});
