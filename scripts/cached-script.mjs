// The loader of a file built as a classic script with its own code cache (scripts/app-bundle.mjs,
// `buildCachedScript`; issue #27). Written into dist/chunks/ beside the script it loads.
//
// Why: Node's compile cache (on from the launcher) stores the code V8 made when it compiled a module,
// before it ran it. V8 compiles most functions lazily, on their first call, so every function a
// command calls was parsed and compiled again at every start: for `account --json`, ≈ 570 functions
// and a quarter of the process's instructions (valgrind, docs/PERFORMANCE.md). A classic script
// compiled with `vm.Script` can give V8's code cache as it is after the run
// (`script.createCachedData()`), which holds those functions too.
//
// How, and why it stays safe:
// - One cache file per command (its argv[0]; `other` for anything else), or one for the file when it
//   has one path (the app's: `app`; its function is handed options, not an argv), in Node's compile-cache
//   directory (per Node version, architecture and V8 flags; none when the compile cache is off, as
//   with NODE_DISABLE_COMPILE_CACHE: then the script is compiled as any file would be). A command's
//   cache holds the functions it ran; another command's would hold others.
// - The file's name carries a hash of the script's text made at build time: V8 checks a cache's
//   version, flags and the source's length, not its text, so a cache of another build is never
//   offered. V8 rejects a cache that does not match (`cachedDataRejected`); it is then made again.
// - V8 checks a cache's header (versions, flags, the source's length) but not its bytes: a damaged
//   cache with a sound header makes V8 stop the process (tried: "Fatal error … unreachable code"),
//   at every start until the file goes, and a damaged constant could run without stopping it (Node's
//   own compile cache checks a hash of each cache for the same reason). So the file carries a
//   checksum of the cache, checked before V8 sees it; a mismatch is treated as no cache.
// - Written once (no cache, or a rejected one), after the command's work (a run that ended with 0
//   and did not ask for help: a help text, a usage error or a failure would hold another path's
//   functions, kept as the command's cache), to a file of its own renamed into place: a reader sees
//   a whole cache or none. That file is made by the write ('wx'),
//   never opened when there: the directory is Node's own cache's (the same trust; by default under
//   the system's temporary directory), and a link planted there would be written through. Any
//   error reading or writing it costs only the time it would have saved; the command's result and
//   exit code are never touched.
// - Other builds' caches go once this one's is in place: their names carry another hash, and every
//   upgrade or build would otherwise leave half a megabyte a command behind. A file of one path keeps
//   only its one name: a cache of this build under another name (the app's was once `other`) goes too.
// - The file carries a checksum of the cache (below: `SUM_WASM`), checked before V8 sees it; where
//   WebAssembly is missing (node --jitless) no cache is read or written.
// - The script is strict code in a function (as the ES module it replaces), given `require` (made
//   for its own path) and `__ldImport` (its one `import()`: another file of the build, here).

/**
 * The checksum, as WebAssembly (the text form of these 92 bytes):
 *   (module (memory (export "m") 1)
 *     (func (export "s") (param $n i32) (result i32) (local $i i32) (local $h i32)
 *       (local.set $h (i32.const 0x811c9dc5))
 *       (block (loop
 *         (br_if 1 (i32.ge_u (local.get $i) (local.get $n)))
 *         (local.set $h (i32.mul (i32.xor (local.get $h) (i32.load (local.get $i))) (i32.const 16777619)))
 *         (local.set $i (i32.add (local.get $i) (i32.const 4)))
 *         (br 0)))
 *       (local.get $h)))
 * test/build/code-cache.test.ts holds it to the same sum in JavaScript.
 */
export const SUM_WASM =
  'AGFzbQEAAAABBgFgAX8BfwMCAQAFAwEAAQcJAgFtAgABcwAACjYBNAECf0HFu/KIeCECAkADQCABIABPDQEgAiABKAIAc0GTg4AIbCECIAFBBGohAQwACwsgAgs=';

/**
 * The loader's source. `script`: the script's file, relative to the loader; `key`: the cache files'
 * name prefix (the file's name and its hash); `name`: the one cache's name when the file has one path
 * (else one per command, its argv[0]); `exports`: the script's exported functions whose first
 * argument is the command's argv (each compiles the script on its first call). Each is handed the save
 * as its last argument (null when there is nothing to save: the cache was accepted, or there is none)
 * and calls it itself once it has done what the cache should hold: only the script knows that (the
 * app: at its first idle moment after its first frame, not when it exits hours later; a command: after
 * its work, not after --help, a usage error, a failure or a signal).
 */
export function cachedScriptLoader({ script, key, name = null, exports }) {
  return `// Generated by scripts/app-bundle.mjs from scripts/cached-script.mjs: loads ${script} with V8's code
// cache as it is after a run (why, and why it is safe: scripts/cached-script.mjs).
const fs = process.getBuiltinModule('node:fs');
const vm = process.getBuiltinModule('node:vm');
const { createRequire, getCompileCacheDir } = process.getBuiltinModule('node:module');
const { fileURLToPath } = process.getBuiltinModule('node:url');
const file = fileURLToPath(new URL(${JSON.stringify(script)}, import.meta.url));
// FNV-1a over the cache's 32-bit little-endian words (zero-padded), in 92 bytes of WebAssembly:
// zlib's CRC-32 costs loading node:zlib, and a loop in JavaScript runs in the interpreter at start:
// each about 27 M instructions (7 ms) for 0.5 MB, this about 3 M. Its source: scripts/cached-script.mjs.
const SUM_WASM = ${JSON.stringify(SUM_WASM)};
function checksum(data) {
  const { m, s } = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(SUM_WASM, 'base64'))).exports;
  const pages = Math.ceil((data.length + 4) / 65536);
  if (pages > 1) m.grow(pages - 1);
  new Uint8Array(m.buffer).set(data);
  return s((data.length + 3) & ~3) >>> 0;
}
/** A cache file of this script, of any build (\`${key}\` with another hash). */
const OTHER_BUILD = new RegExp(${JSON.stringify(`^${key.replace(/[0-9a-f]{16}$/, '')}[0-9a-f]{16}-[a-z][a-z-]{0,30}$`)});
/** The one cache's name of a file of one path, or null: one per command. */
const NAME = ${JSON.stringify(name)};
let loaded;
function load(argv) {
  if (loaded) return loaded;
  const source = fs.readFileSync(file, 'utf8');
  let cache = null;
  let cachedData;
  try {
    const dir = getCompileCacheDir?.();
    const name = NAME ?? (/^[a-z][a-z-]{0,30}$/.test(argv?.[0] ?? '') ? argv[0] : 'other');
    if (dir) cache = \`\${dir}/${key}-\${name}\`;
    // The file: the cache's checksum (4 bytes, little-endian), then the cache. A cache whose sum
    // does not match is not offered to V8, and is made again.
    const bytes = cache ? fs.readFileSync(cache) : null;
    if (bytes && bytes.length > 4 && checksum(bytes.subarray(4)) === bytes.readUInt32LE(0))
      cachedData = bytes.subarray(4);
  } catch {
    cachedData = undefined;
  }
  const compiled = new vm.Script(source, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} };
  compiled.runInThisContext()(module.exports, createRequire(file), module, (s) => import(new URL(s, import.meta.url).href));
  // Nothing to save: no cache directory, or a cache V8 took (decided now: the cache is not kept).
  let saved = !cache || Boolean(cachedData && !compiled.cachedDataRejected);
  cachedData = undefined;
  const save = () => {
    if (saved) return;
    saved = true;
    const part = \`\${cache}.\${process.pid}.part\`;
    try {
      const data = compiled.createCachedData();
      const sum = Buffer.alloc(4);
      sum.writeUInt32LE(checksum(data));
      // 'wx': a file of its own, made here; never one already there (a link planted in a shared
      // temporary directory would be written through).
      fs.writeFileSync(part, Buffer.concat([sum, data]), { mode: 0o600, flag: 'wx' });
      fs.renameSync(part, cache);
    } catch {
      try {
        fs.rmSync(part, { force: true });
      } catch {}
      return;
    }
    // Other builds' caches (an earlier version, an earlier build) go as this one's is written: the
    // names carry the build's hash, so the directory would otherwise grow at every upgrade.
    try {
      const dir = cache.slice(0, cache.lastIndexOf('/'));
      const mine = (f) => (NAME ? f === ${JSON.stringify(`${key}-`)} + NAME : f.startsWith(${JSON.stringify(`${key}-`)}));
      for (const f of fs.readdirSync(dir)) if (OTHER_BUILD.test(f) && !mine(f)) fs.rmSync(\`\${dir}/\${f}\`, { force: true });
    } catch {}
  };
  loaded = { exports: module.exports, saving: () => (saved ? null : save) };
  return loaded;
}
${exports
  .map(
    (name) => `export async function ${name}(argv, ...rest) {
  const { exports, saving } = load(argv);
  return exports.${name}(argv, ...rest, saving());
}`,
  )
  .join('\n')}
`;
}
