/**
 * The headless file's own code cache (issue #27, scripts/cached-script.mjs): Node's compile cache
 * keeps the code V8 made before a file ran, so the functions a command calls were compiled again at
 * every start; the headless file is a script whose cache is kept as it is after a run, one per
 * command, in Node's compile-cache directory. A cache is written once, used as it is, never trusted
 * when damaged (V8 would stop the process on one with a sound header), and a command's output is the
 * same with it, without it, and with the compile cache off.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLE } from '../helpers/bundle';
import { headlessCaches as caches, headlessRuns } from './headless-runs';

const { scratch, sandboxEnv, run } = headlessRuns(40, 'linedesk-code-cache-');

/** The checksum the loader computes in WebAssembly (scripts/cached-script.mjs), in JavaScript. */
function fnv1aWords(data: Buffer): number {
  const padded = Buffer.alloc((data.length + 3) & ~3);
  data.copy(padded);
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < padded.length; i += 4) h = Math.imul(h ^ padded.readInt32LE(i), 16777619);
  return h >>> 0;
}

describe("the headless file's code cache", () => {
  it('is written once per command after its run, then used as it is; output unchanged', () => {
    const dir = scratch('cache');
    const env = { NODE_COMPILE_CACHE: dir };
    const args = ['lines', '--json', '--limit', '3'];
    const plain = run(args, { NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(run(args, env)).toBe(plain);
    const [file, ...more] = caches(dir);
    expect(more).toEqual([]);
    expect(file).toMatch(/-lines$/);
    const first = readFileSync(file!);
    // Its first 4 bytes: FNV-1a of the rest's 32-bit words (the loader's WebAssembly), as here.
    expect(first.readUInt32LE(0)).toBe(fnv1aWords(first.subarray(4)));
    const mtime = statSync(file!).mtimeMs;
    expect(run(args, env)).toBe(plain);
    // Accepted by V8 (a rejected cache is made again and rewritten): the same file, untouched.
    expect(statSync(file!).mtimeMs).toBe(mtime);
    expect(readFileSync(file!).equals(first)).toBe(true);
    // Another command has its own.
    run(['account', '--json'], env);
    expect(
      caches(dir)
        .map((f) => f.replace(/.*-/, ''))
        .sort(),
    ).toEqual(['account', 'lines']);
  });

  it('is made only by a run that did its work: not by --help, a usage error or a failed command', () => {
    const dir = scratch('first-run');
    const env = { NODE_COMPILE_CACHE: dir };
    const status = (args: string[], more: NodeJS.ProcessEnv = {}) =>
      spawnSync(process.execPath, [BUNDLE, ...args], {
        encoding: 'utf8',
        env: { ...sandboxEnv(), ...env, ...more },
        timeout: 15_000,
      }).status;
    const none = () => {
      try {
        return caches(dir);
      } catch {
        return []; // not even the directory
      }
    };
    // Each would keep the functions of another path (help text, an error) as the command's cache,
    // taken as it is at every later run.
    expect(status(['lines', '--help'])).toBe(0);
    expect(status(['lines', '-h'])).toBe(0);
    // -h grouped with another short flag asks for help too (the parser reads -yh as -y -h).
    expect(status(['extend', '-yh'])).toBe(0);
    expect(status(['lines', '--limit', 'many'])).toBe(2);
    expect(status(['lines', '--json'], { LINEDESK_API_KEY: 'not-a-key-0123456789' })).not.toBe(0);
    expect(none()).toEqual([]);
    run(['lines', '--json', '--limit', '1'], env);
    expect(none().map((f) => f.replace(/.*-/, ''))).toEqual(['lines']);
  });

  it('a damaged cache is not offered to V8 (it would stop the process): the command runs, the cache is made again', () => {
    const dir = scratch('damaged');
    const env = { NODE_COMPILE_CACHE: dir };
    const args = ['lines', '--json', '--limit', '3'];
    const plain = run(args, env);
    const [file] = caches(dir);
    const bytes = readFileSync(file!);
    // Damage the cache, not its header or length: V8's own check passes such a cache.
    for (let i = 200; i < bytes.length; i += 997) bytes[i] = bytes[i]! ^ 0x55;
    writeFileSync(file!, bytes);
    expect(run(args, env)).toBe(plain);
    const again = readFileSync(file!);
    expect(again.equals(bytes)).toBe(false);
    expect(run(args, env)).toBe(plain);
  });

  it("an earlier build's caches go when this build writes its own (the directory does not grow build after build)", () => {
    const dir = scratch('earlier');
    const env = { NODE_COMPILE_CACHE: dir };
    const args = ['lines', '--json', '--limit', '1'];
    run(args, env);
    const [file] = caches(dir);
    const sub = file!.slice(0, file!.lastIndexOf('/'));
    // Another build's (its hash differs): the same command, another command; and a file not ours.
    const earlier = [
      'linedesk-headless-0123456789abcdef-lines',
      'linedesk-headless-0123456789abcdef-account',
    ];
    for (const f of [...earlier, 'linedesk-other-0123456789abcdef-lines']) writeFileSync(join(sub, f), 'old');
    run(['account', '--json'], env);
    const left = readdirSync(sub);
    for (const f of earlier) expect(left).not.toContain(f);
    expect(left).toContain('linedesk-other-0123456789abcdef-lines');
    expect(caches(dir).map((f) => f.replace(/.*-/, ''))).toEqual(
      expect.arrayContaining(['account', 'lines']),
    );
  });

  it('never writes through a file planted where its cache is written first (a shared temporary directory)', () => {
    const dir = scratch('planted');
    mkdirSync(dir);
    const victim = scratch('victim');
    writeFileSync(victim, 'mine');
    const loader = new URL('../../dist/chunks/headless.js', import.meta.url).pathname;
    const key = /linedesk-headless-[0-9a-f]{16}/.exec(readFileSync(loader, 'utf8'))![0];
    // In one process: the part file's name carries the process id, known only inside it.
    const code = `
      const m = process.getBuiltinModule('node:module');
      m.enableCompileCache(${JSON.stringify(dir)});
      const fs = process.getBuiltinModule('node:fs');
      fs.mkdirSync(m.getCompileCacheDir(), { recursive: true });
      fs.symlinkSync(${JSON.stringify(victim)}, m.getCompileCacheDir() + '/${key}-lines.' + process.pid + '.part');
      const { runHeadlessProcess } = await import(${JSON.stringify(loader)});
      process.exitCode = await runHeadlessProcess(['lines', '--json', '--limit', '1']);
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
      encoding: 'utf8',
      env: { ...sandboxEnv() },
      timeout: 15_000,
    });
    expect(r.status, r.stderr).toBe(0);
    // Not written through: still its 4 bytes (not a cache's half a megabyte).
    expect(statSync(victim).size).toBe(4);
  });

  it('none is written with the compile cache off', () => {
    const dir = scratch('off');
    run(['lines', '--json', '--limit', '1'], { NODE_COMPILE_CACHE: dir, NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(() => caches(dir)).toThrow(); // not even the directory
  });
});
