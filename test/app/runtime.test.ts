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
    expect(old.stderr).toMatch(
      /^linedesk needs Node\.js 26 or later and this is Node\.js 20\.20\.2: install Node 26 LTS \([^\n]+\n$/,
    );
    expect(old.stderr).not.toMatch(/\n\s+at /);
  });

  // The launcher must parse on the old Node itself (no top-level await, no new syntax): a real one,
  // where the machine has it (this machine's and CI's Node is 20).
  const systemNode = spawnSync('/usr/bin/node', ['-p', 'process.versions.node'], { encoding: 'utf8' });
  const oldNode = systemNode.status === 0 && Number(systemNode.stdout.split('.')[0]) < 26;
  it.skipIf(!oldNode)('the built launcher run by a real older Node says which Node it needs', () => {
    const old = spawnSync('/usr/bin/node', ['dist/linedesk.js', '--version'], { encoding: 'utf8' });
    expect(old.status).toBe(1);
    expect(old.stdout).toBe('');
    expect(old.stderr).toBe(
      `linedesk needs Node.js 26 or later and this is Node.js ${systemNode.stdout.trim()}: install Node 26 LTS ` +
        '(https://nodejs.org/en/download, or `nvm install 26`), or use the single-file linedesk, which needs no Node.\n',
    );
  });
});
