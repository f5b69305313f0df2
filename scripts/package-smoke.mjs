// npm run package:smoke — the single executable (npm run package) run the way a server without Node
// runs it: PATH holds no Node (an empty directory only), HOME and linedesk's directories are fresh.
// Three checks: `--version`, a command on the embedded sandbox (`account --json --sandbox`), and the
// app's first frame with data in a real pseudo-terminal. Then the npm package: `npm pack` ships only
// what runs, `npm install -g` of the tarball (a temporary prefix) runs its bin, an older Node gets
// the one sentence, and `npx --package <tarball> linedesk` runs. `--bench N` instead times N launches of the
// executable and of the bundle (node dist/linedesk.js, warm compile cache), interleaved.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import pty from '@lydell/node-pty';
import xterm from '@xterm/headless';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const exe = resolve('dist', `linedesk-${process.platform}-${process.arch}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const duBytes = (path) =>
  statSync(path).isDirectory()
    ? readdirSync(path).reduce((sum, name) => sum + duBytes(join(path, name)), 0)
    : statSync(path).size;

/** A fresh home: empty PATH directory, config that has seen the welcome screen, own data dirs. */
function freshEnv() {
  const dir = mkdtempSync(join(tmpdir(), 'linedesk-smoke-'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  mkdirSync(join(dir, 'config'), { mode: 0o700 });
  writeFileSync(
    join(dir, 'config', 'config.json'),
    JSON.stringify({ version: 1, defaultProfile: null, profiles: {}, welcomed: true }),
    { mode: 0o600 },
  );
  const env = {
    HOME: dir,
    PATH: bin,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    LINEDESK_CONFIG_DIR: join(dir, 'config'),
    LINEDESK_DATA_DIR: join(dir, 'data'),
    LINEDESK_STATE_DIR: join(dir, 'state'),
  };
  return { dir, env };
}

/** The app in a pty until its first frame shows lines; resolves with the time it took. */
function firstFrame(cmd, args, env, timeout = 20_000) {
  return new Promise((done, fail) => {
    const term = new xterm.Terminal({ cols: 120, rows: 40, allowProposedApi: true });
    const screen = () => {
      const b = term.buffer.active;
      return Array.from(
        { length: term.rows },
        (_, i) => b.getLine(b.viewportY + i)?.translateToString(true) ?? '',
      ).join('\n');
    };
    const t0 = performance.now();
    const p = pty.spawn(cmd, args, { cols: 120, rows: 40, env });
    let finished = false;
    const finish = (err, ms) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      p.kill();
      err ? fail(err) : done({ ms, screen: screen() });
    };
    const timer = setTimeout(
      () => finish(new Error(`no first frame in ${timeout} ms; the screen:\n${screen()}`)),
      timeout,
    );
    p.onData((d) => {
      const t = performance.now();
      term.write(d, () => {
        if (/1–\d+ of [\d,]+/.test(screen())) finish(null, t - t0);
      });
    });
    p.onExit((e) =>
      finish(new Error(`exited (${e.exitCode}) before its first frame; the screen:\n${screen()}`)),
    );
  });
}

try {
  statSync(exe);
} catch {
  process.stderr.write(`no ${exe}: run npm run package first\n`);
  process.exit(1);
}

const benchAt = process.argv.indexOf('--bench');
if (benchAt !== -1) {
  const n = Number(process.argv[benchAt + 1] ?? 9);
  const times = { exe: [], bundle: [], exeVersion: [], nodeE0: [] };
  const { dir, env } = freshEnv();
  const bundleEnv = { ...env, PATH: process.env.PATH };
  // One launch of each first: the sandbox database is seeded, the compile cache written.
  await firstFrame(exe, ['--sandbox'], env);
  await firstFrame(process.execPath, ['dist/linedesk.js', '--sandbox'], bundleEnv);
  for (let i = 0; i < n; i++) {
    let t0 = performance.now();
    spawnSync(exe, ['--version'], { env });
    times.exeVersion.push(performance.now() - t0);
    t0 = performance.now();
    spawnSync(process.execPath, ['-e', '0'], { env: bundleEnv });
    times.nodeE0.push(performance.now() - t0);
    times.exe.push((await firstFrame(exe, ['--sandbox'], env)).ms);
    await sleep(100);
    times.bundle.push((await firstFrame(process.execPath, ['dist/linedesk.js', '--sandbox'], bundleEnv)).ms);
    await sleep(100);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const size = (f) => `${(statSync(f).size / 1024 / 1024).toFixed(1)} MB`;
  console.log(
    `Node ${process.version}, ${n} launches each, interleaved, embedded sandbox, 120×40 (medians):`,
  );
  console.log(
    `  single executable  ${size(exe)}  first frame ${median(times.exe).toFixed(1)} ms  --version ${median(times.exeVersion).toFixed(1)} ms`,
  );
  console.log(
    `  bundle             ${((statSync('dist/app.js').size + duBytes('dist/chunks')) / 1024 / 1024).toFixed(1)} MB  first frame ${median(times.bundle).toFixed(1)} ms  node -e 0 ${median(times.nodeE0).toFixed(1)} ms`,
  );
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

const { dir, env } = freshEnv();
let passed = 0;
let failed = 0;
async function check(name, fn) {
  try {
    const detail = await fn();
    passed++;
    console.log(`ok   ${name}${detail ? ` (${detail})` : ''}`);
  } catch (err) {
    failed++;
    console.log(`FAIL ${name}\n${String(err?.message ?? err).replace(/^/gm, '     ')}`);
  }
}
const run = (args) => spawnSync(exe, args, { env, encoding: 'utf8', timeout: 30_000 });

await check('PATH holds no Node', () => {
  const node = spawnSync('node', ['--version'], { env, encoding: 'utf8' });
  if (node.error?.code !== 'ENOENT') throw new Error(`node ran: ${node.stdout}${node.stderr}`);
});
await check('--version', () => {
  const r = run(['--version']);
  if (r.status !== 0 || r.stdout !== `linedesk ${pkg.version}\n`)
    throw new Error(`exit ${r.status}, stdout ${JSON.stringify(r.stdout)}, stderr ${r.stderr}`);
});
await check('account --json --sandbox (the embedded sandbox, node:sqlite)', () => {
  const r = run(['account', '--json', '--sandbox']);
  if (r.status !== 0) throw new Error(`exit ${r.status}: ${r.stderr}`);
  const account = JSON.parse(r.stdout);
  if (typeof account.email !== 'string' || typeof account.credits !== 'number')
    throw new Error(`not an account: ${r.stdout}`);
  return `${account.lines_count} lines`;
});
await check('the app: first frame with lines in a pty', async () => {
  const { ms, screen } = await firstFrame(exe, ['--sandbox'], env);
  if (!/sandbox/i.test(screen)) throw new Error(`no sandbox on the screen:\n${screen}`);
  return `${ms.toFixed(0)} ms`;
});
rmSync(dir, { recursive: true, force: true });

// The npm package: `npm pack` (its prepack builds the bundle), then what a user does with the
// tarball. The bin's `#!/usr/bin/env node` takes the first node on PATH: the pinned one here.
const work = mkdtempSync(join(tmpdir(), 'linedesk-pack-'));
const pinnedPath = `${dirname(process.execPath)}:/usr/bin:/bin`;
const npm = (args, env = {}) =>
  spawnSync('npm', args, {
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, PATH: pinnedPath, npm_config_loglevel: 'error', ...env },
  });
let tarball = '';
await check('npm pack ships only what runs', () => {
  const r = npm(['pack', '--json', '--pack-destination', work]);
  if (r.status !== 0) throw new Error(`npm pack: exit ${r.status}\n${r.stderr}`);
  const [info] = JSON.parse(r.stdout.slice(r.stdout.indexOf('[')));
  tarball = join(work, info.filename);
  const files = info.files.map((f) => f.path).sort();
  // The launcher, the entry, and exactly the chunks this build wrote (no stale ones, none left out).
  const chunks = readdirSync('dist/chunks').map((name) => `dist/chunks/${name}`);
  const expected = ['README.md', 'dist/app.js', ...chunks, 'dist/linedesk.js', 'package.json'].sort();
  if (JSON.stringify(files) !== JSON.stringify(expected))
    throw new Error(`the tarball holds ${files.join(', ')}`);
  return `${(info.size / 1024).toFixed(0)} KB packed, ${(info.unpackedSize / 1024).toFixed(0)} KB unpacked`;
});
const prefix = join(work, 'prefix');
const home = freshEnv();
await check('npm install -g of the tarball, then its bin: --version and a sandbox command', () => {
  const r = npm(['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', tarball]);
  if (r.status !== 0) throw new Error(`npm install -g: exit ${r.status}\n${r.stderr}`);
  const env = { ...home.env, PATH: `${join(prefix, 'bin')}:${pinnedPath}` };
  const version = spawnSync('linedesk', ['--version'], { env, encoding: 'utf8' });
  if (version.stdout !== `linedesk ${pkg.version}\n`)
    throw new Error(`--version: ${version.stdout}${version.stderr}`);
  const account = spawnSync('linedesk', ['account', '--json', '--sandbox'], { env, encoding: 'utf8' });
  if (account.status !== 0 || typeof JSON.parse(account.stdout).email !== 'string')
    throw new Error(`account: exit ${account.status}\n${account.stderr}`);
  // The bundle holds every dependency: an install downloads nothing but the tarball.
  const installed = readdirSync(join(prefix, 'lib', 'node_modules'));
  const own = join(prefix, 'lib', 'node_modules', 'linedesk');
  if (installed.join() !== 'linedesk' || existsSync(join(own, 'node_modules')))
    throw new Error(`installed with it: ${installed.join(', ')}, ${readdirSync(own).join(', ')}`);
  return `no dependencies installed; ${(duBytes(own) / 1024).toFixed(0)} KB`;
});
const oldNode = spawnSync('/usr/bin/node', ['-p', 'process.versions.node'], { encoding: 'utf8' });
if (oldNode.status === 0 && Number(oldNode.stdout.split('.')[0]) < 26) {
  await check(
    `the installed bin on the machine's Node ${oldNode.stdout.trim()} says which Node it needs`,
    () => {
      const env = { ...home.env, PATH: `${join(prefix, 'bin')}:/usr/bin:/bin` };
      const r = spawnSync('linedesk', ['--version'], { env, encoding: 'utf8' });
      if (
        r.status !== 1 ||
        !/^linedesk needs Node\.js 26 or later and this is Node\.js [^\n]+\n$/.test(r.stderr)
      )
        throw new Error(`exit ${r.status}: ${r.stdout}${r.stderr}`);
    },
  );
}
await check('npx --package <tarball> linedesk --version', () => {
  const r = npm(['exec', '--yes', '--package', tarball, '--', 'linedesk', '--version'], {
    npm_config_cache: join(work, 'npm-cache'),
  });
  if (r.stdout !== `linedesk ${pkg.version}\n`) throw new Error(`exit ${r.status}: ${r.stdout}${r.stderr}`);
});
rmSync(work, { recursive: true, force: true });
rmSync(home.dir, { recursive: true, force: true });
// Not the "N passed, N failed" form: CI reads that as the whole run's count, and vitest's is the one.
console.log(`package smoke: ${passed} of ${passed + failed} checks passed`);
process.exit(failed ? 1 : 0);
