/**
 * What the built bundle loads per path (issue #27, start-up at the floor). The build writes a few
 * files per path (scripts/app-bundle.mjs): the entry, one file for every headless command, one for
 * the app; a process preloaded with a probe (test/helpers/load-probe.mjs) records the files it
 * loaded, the built-in modules Node loaded and whether zod was evaluated, and
 * dist/bundle-inputs.json names the sources in each file. A headless command loads two files (Node's
 * loader pays per file) and must not load React, Ink, Yoga, the screens' store, the screens or the
 * embedded sandbox, nor a built-in before it needs it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE, ensureBundle, spawnSandbox } from '../helpers/bundle';
import { envFor } from '../helpers/headless';

const PROBE = new URL('../helpers/load-probe.mjs', import.meta.url).pathname;
const DIST = new URL('../../dist/', import.meta.url);

let sb: Awaited<ReturnType<typeof spawnSandbox>>;
let root: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  ensureBundle();
  sb = await spawnSandbox(['--lines', '50']);
  root = mkdtempSync(join(tmpdir(), 'linedesk-load-'));
  env = { ...process.env, ...envFor(sb.info.baseUrl, sb.info.accounts[0]!.apiKey) };
});
afterAll(() => {
  sb?.child.kill();
  rmSync(root, { recursive: true, force: true });
});

/** Runs the bundle with the probe; the sources it evaluated and the built-ins beyond `node -e 0`'s. */
function loaded(args: string[]) {
  const probe = (name: string, argv: string[]) => {
    const file = join(root, `${name}.json`);
    const r = spawnSync(process.execPath, ['--import', PROBE, ...argv], {
      encoding: 'utf8',
      env: { ...env, LINEDESK_LOAD_PROBE: file },
      timeout: 15_000,
    });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(readFileSync(file, 'utf8')) as { files: string[]; builtins: string[]; zod: boolean };
  };
  const bare = new Set(probe('bare', ['-e', '0']).builtins);
  const run = probe('run', [BUNDLE, ...args]);
  const inputs = JSON.parse(readFileSync(new URL('bundle-inputs.json', DIST), 'utf8')) as Record<
    string,
    string[]
  >;
  const chunks = run.files
    .filter((f) => f.startsWith(DIST.href) && !f.endsWith('/linedesk.js'))
    .map((f) => f.slice(DIST.href.length));
  for (const c of chunks) expect(inputs, `${c} is not in dist/bundle-inputs.json`).toHaveProperty([c]);
  return {
    files: chunks,
    sources: chunks.flatMap((c) => inputs[c]!),
    builtins: run.builtins.filter((b) => !bare.has(b) && !b.startsWith('internal/')),
    zod: run.zod,
  };
}

const APP_ONLY = [
  /\/node_modules\/react\//,
  /\/node_modules\/react-reconciler\//,
  /\/node_modules\/ink\//,
  /\/node_modules\/yoga-layout\//,
  /^src\/store\//,
  /^src\/ui\//,
  /^src\/keys\//,
  /^src\/app\/ui-entry/,
  /^src\/sandbox\/(server|service|repo|db)\.ts$/,
];

describe('what a process evaluates, per path', () => {
  it('account --json against a service evaluates none of the screens, Ink, React or the sandbox', () => {
    const { files, sources, builtins } = loaded(['account', '--json']);
    // The entry and the headless file: no more (a file costs the loader ≈ 1 ms; it was 40 files).
    expect(files).toEqual(['app.js', 'chunks/headless.js']);
    expect(sources).toContain('src/headless/commands/read.ts'); // the probe sees the command's code
    expect(sources).toContain('src/api/node-http.ts');
    for (const re of APP_ONLY) expect(sources.filter((s) => re.test(s))).toEqual([]);
    expect(builtins).toContain('http');
    // The app's V8 flags, the sandbox's database, the terminal: not a command's business.
    // node:crypto too: the account's key fingerprint is hashed without it (app/sha256.ts).
    for (const b of ['v8', 'sqlite', 'tty', 'child_process', 'dgram', 'crypto'])
      expect(builtins, `node:${b} loaded`).not.toContain(b);
  });

  /** Node's modules a run of the bundle loaded (process.moduleLoadList at exit), stdin from /dev/null. */
  const moduleLoadListOf = (args: string[]) => {
    // The probe here is CommonJS: load-probe.mjs's module hook loads modules itself.
    const probe = join(root, 'module-list-probe.cjs');
    const out = join(root, 'module-list-probe.json');
    writeFileSync(
      probe,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.moduleLoadList)));\n`,
    );
    const r = spawnSync(process.execPath, ['-r', probe, BUNDLE, ...args], {
      encoding: 'utf8',
      env,
      timeout: 15_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(readFileSync(out, 'utf8')) as string[];
  };

  it('a command that reads no stdin leaves it alone: from /dev/null (cron), no file stream is made for it', () => {
    // Node makes process.stdin on first access: for /dev/null or a file, a file stream, which loads
    // the file streams, fs/promises and readline's interface (≈ 5 M instructions a start; issue #27).
    const modules = moduleLoadListOf(['account', '--json']);
    expect(modules).toContain('NativeModule http');
    for (const m of ['internal/fs/streams', 'internal/fs/promises', 'internal/readline/interface'])
      expect(modules, `${m} loaded`).not.toContain(`NativeModule ${m}`);
  });

  it("account --json on a loopback base URL loads neither Node's BlockList nor fs/dir (issue #27)", () => {
    // The loopback check takes 127.x and ::1 without a BlockList (1.5 M instructions), and the
    // intent log names node:fs's functions, not its namespace, which the bundle copies whole (1.7 M).
    const modules = moduleLoadListOf(['account', '--json']);
    expect(modules).toContain('NativeModule http');
    for (const m of ['internal/blocklist', 'internal/fs/dir'])
      expect(modules, `${m} loaded`).not.toContain(`NativeModule ${m}`);
  });

  it('a command that makes no request (journal) loads no node:http; --version and --help load neither zod nor http', () => {
    const journal = loaded(['journal']);
    expect(journal.sources).toContain('src/headless/commands/local.ts');
    expect(journal.builtins).not.toContain('http');
    // --version answers from the entry alone, which holds no zod and no contract.
    const version = loaded(['--version']);
    expect(version.files).toEqual(['app.js']);
    const zod = /\/node_modules\/zod\/|^src\/api\/contract\/(?!choices\.ts$)/;
    expect(version.sources.filter((s) => zod.test(s))).toEqual([]);
    // A command's --help reads the headless file, which bundles zod: it must not evaluate it.
    for (const args of [['--version'], ['account', '--help']]) {
      const { builtins, zod: evaluated } = loaded(args);
      expect(builtins, args.join(' ')).not.toContain('http');
      expect(evaluated, `${args.join(' ')} evaluated zod`).toBe(false);
    }
    expect(journal.zod).toBe(true); // the probe sees zod when it runs (the config's schemas)
  });

  it("the app's files import no node:crypto: it is loaded when a job is planned, not at start", () => {
    // A bundle hoists a static import of a built-in to its file's top: in any of the app's files
    // (chunks/ui.js, the loader, and the script it loads) it would be loaded before the first frame
    // (in the one script, when the store's modules are initialized). The app's files import
    // built-ins through modules named `builtin-cjs:` (scripts/app-bundle.mjs): either form.
    const read = (f: string) => readFileSync(new URL(`chunks/${f}`, DIST), 'utf8');
    const ui = read('ui.js');
    const files = ['ui.js', ...new Set([...ui.matchAll(/["']\.\/([\w-]+\.js)["']/g)].map((m) => m[1]!))];
    expect(files).toContain('ui-script.js');
    expect(read('ui-script.js')).toContain('src/app/ui-entry.tsx');
    for (const f of files)
      expect(read(f), f).not.toMatch(/from\s*["']node:crypto["']|["']builtin-cjs:node:crypto["']/);
  });
});
