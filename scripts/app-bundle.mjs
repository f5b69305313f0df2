// The app's bundle, two ways: a few files per path (npm run build → dist/app.js and dist/chunks/,
// what `node dist/linedesk.js` and the npm package run) and one file (npm run package: Node's single
// executable takes one ESM entry).
//
// The layout (issue #27): Node's ESM loader pays for every file it resolves, reads, links and
// evaluates (≈ 1 ms a file here even with the compile cache hit), and a split at every `import()` made
// `account --json` load 40 files. So each path loads as few files as it can, and none of another's:
//   dist/app.js              the entry (src/cli.ts): --version, --help, argument errors, nothing else;
//   dist/chunks/headless.js  every headless command, one file (its commands' modules evaluated only
//                            when imported: esbuild keeps an inlined `import()` lazy);
//   dist/chunks/complete.js  `__complete` (the names a shell completion asks for as it completes);
//   dist/chunks/sandbox.js   the embedded sandbox (`linedesk sandbox`, `--sandbox`, the app's demo);
//   dist/chunks/ui.js        the app: a small loader of ui-script.js, the app's whole path (the
//                            screens, React, Ink, Yoga: their modules evaluated only once its first
//                            requests have left) as one classic script with its own code cache
//                            (scripts/cached-script.mjs), made after its first frame with data.
// Only plain data crosses from one file to another: the entry hands argv and parsed options on;
// the sandbox gives its URL, its accounts' keys and a close function, and its own error class, which
// its callers test with that same file's export. Modules that two files both bundle (the contract,
// domain rules, zod) are two copies; neither copy's state or classes meet the other's but zod's
// global config and registry (on globalThis: same version, same English messages). test/build/
// module-load.test.ts checks which files each path loads; shared-modules.test.ts that no class is
// defined in two files one process loads (an instanceof across copies would go silently false).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { resolve } from 'node:path';
import { build } from 'esbuild';
import { BUNDLE_OPTIONS } from './bundle-options.mjs';
import { cachedScriptLoader } from './cached-script.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

const common = {
  ...BUNDLE_OPTIONS,
  define: { ...BUNDLE_OPTIONS.define, LINEDESK_VERSION: JSON.stringify(pkg.version) },
};

/** The source each file starts from (an `import()` of it from another file loads that file). */
const FILE_OF = {
  'src/headless/process.ts': 'headless',
  'src/headless/complete-values.ts': 'complete',
  'src/sandbox/command.ts': 'sandbox',
  'src/sandbox/index.ts': 'sandbox',
  'src/app/run.tsx': 'ui',
};
const ROOT = resolve(new URL('..', import.meta.url).pathname);
const fileOfPath = Object.fromEntries(Object.entries(FILE_OF).map(([src, f]) => [resolve(ROOT, src), f]));

/**
 * An `import()` of a source that starts another file becomes an import of that file (`prefix`: its
 * directory as seen from this one); every other import() stays inside this file's bundle.
 */
const otherFiles = (self, prefix) => ({
  name: 'linedesk-files',
  setup(b) {
    b.onResolve({ filter: /^\./ }, async (args) => {
      if (args.kind !== 'dynamic-import' || args.pluginData === 'inner') return undefined;
      const r = await b.resolve(args.path, {
        resolveDir: args.resolveDir,
        kind: args.kind,
        importer: args.importer,
        pluginData: 'inner',
      });
      const file = fileOfPath[r.path];
      if (r.errors.length || !file || file === self) return undefined;
      return { path: `${prefix}${file}.js`, external: true };
    });
  },
});

/**
 * A static import of a Node built-in (`import fs from 'node:fs'`, ours and our dependencies') becomes
 * `process.getBuiltinModule()` behind esbuild's CommonJS interop. An ESM import of a built-in makes
 * its ESM facade, which reads every export once: lazy getters run (`node:fs` loads `fs/promises`,
 * `node:util` loads its MIME parser, `node:process` walks the whole process object), ≈ 1–15 ms a
 * module before the first frame (issue #27, docs/PERFORMANCE.md). The module is still loaded where
 * the import was evaluated; only the facade is gone. `import()` of a built-in is left as it is.
 */
export const builtinsWithoutFacade = {
  name: 'linedesk-builtins',
  setup(b) {
    b.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, (args) => {
      if (args.kind !== 'import-statement' || !isBuiltin(args.path)) return undefined;
      const path = args.path.startsWith('node:') ? args.path : `node:${args.path}`;
      if (args.namespace !== 'builtin') {
        const missing = missingBuiltinExports(args.importer, args.path, path);
        if (missing.length)
          return {
            errors: [
              {
                text: `${missing.map((n) => `"${n}"`).join(', ')} ${missing.length === 1 ? 'is not an export' : 'are not exports'} of ${path} in Node ${process.version}: a named import of a built-in is a getter of process.getBuiltinModule() here (scripts/app-bundle.mjs), so it would be undefined at run time, not an error`,
              },
            ],
          };
      }
      return { path, namespace: args.namespace === 'builtin' ? 'builtin-cjs' : 'builtin' };
    });
    // One ESM module per built-in: its default is the module itself; its named exports come from
    // one CommonJS object of getters (esbuild copies a CommonJS module's properties into a namespace
    // once per module importing it, `__toESM`: here once). Not the module itself: the copy reads
    // each property's descriptor, and some of Node's are lazy (`util.diff`'s loads its diff code,
    // 2–10 ms); a getter of ours reads the property only when used.
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({
      contents: `export * from ${JSON.stringify(args.path)}; export default process.getBuiltinModule(${JSON.stringify(args.path)});`,
      resolveDir: ROOT,
      loader: 'js',
    }));
    b.onLoad({ filter: /.*/, namespace: 'builtin-cjs' }, (args) => ({
      contents: `const m = process.getBuiltinModule(${JSON.stringify(args.path)}), o = {};
for (const k of Object.getOwnPropertyNames(m)) Object.defineProperty(o, k, { get: () => m[k], enumerable: true });
module.exports = o;`,
      loader: 'js',
    }));
  },
};

/**
 * The names `importer` imports from the built-in `specifier` (as written there) that the module
 * (`path`) of the Node running the build does not have. The build runs on the pinned Node (npm
 * scripts), so a name this Node lacks would be undefined in the bundle: Node's own check of an ESM
 * import is gone with the facade. Read from the importer's text (`import { a, b as c } from …`,
 * `export { a } from …`; `import type` and `type` names are erased, so not checked).
 */
function missingBuiltinExports(importer, specifier, path) {
  let text;
  try {
    text = readFileSync(importer, 'utf8');
  } catch {
    return [];
  }
  const quoted = specifier.replace(/[/]/g, '\\/');
  const statements = new RegExp(
    `\\b(?:import|export)\\s*(type\\b\\s*)?(?:[\\w$]+\\s*,\\s*)?\\{([^}]*)\\}\\s*from\\s*(['"])${quoted}\\3`,
    'g',
  );
  const module = process.getBuiltinModule(path);
  const missing = [];
  for (const [, typeOnly, names] of text.matchAll(statements)) {
    if (typeOnly) continue;
    for (const entry of names.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '').split(',')) {
      const [name = ''] = entry.trim().split(/\s+as\s+/);
      if (!name || name === 'default' || /^type\s/.test(name)) continue;
      if (!(name in module) && !missing.includes(name)) missing.push(name);
    }
  }
  return missing;
}

/**
 * React is CommonJS: esbuild wraps it once per module importing it (`__toESM`, a getter defined per
 * export), 85 times in the screens' chunk. Imported through one ESM module, it is wrapped once.
 */
const ONCE = new Set(['react', 'react/jsx-runtime']);
const commonJsOnce = {
  name: 'linedesk-commonjs-once',
  setup(b) {
    b.onResolve({ filter: /^react(\/jsx-runtime)?$/ }, (args) => {
      if (args.kind !== 'import-statement' || !ONCE.has(args.path) || args.namespace === 'once')
        return undefined;
      return { path: args.path, namespace: 'once' };
    });
    b.onLoad({ filter: /.*/, namespace: 'once' }, (args) => ({
      contents: `import m from ${JSON.stringify(args.path)}; export * from ${JSON.stringify(args.path)}; export default m;`,
      resolveDir: ROOT,
      loader: 'js',
    }));
  },
};

/** The app's own path (the entry and the app's files) makes no ESM facade of a built-in. */
const WITHOUT_FACADES = new Set(['app', 'ui']);

const withFiles = (self, prefix) => ({
  ...common,
  plugins: [
    ...common.plugins,
    otherFiles(self, prefix),
    ...(WITHOUT_FACADES.has(self) ? [builtinsWithoutFacade, commonJsOnce] : []),
  ],
  metafile: true,
});

/** One entry module re-exporting what the other files import from this one. */
const entryOf = (self) => ({
  contents: Object.entries(FILE_OF)
    .filter(([, f]) => f === self)
    .map(([src]) => `export * from './${src}';`)
    .join('\n'),
  resolveDir: ROOT,
  loader: 'ts',
  sourcefile: `${self}-entry.ts`,
});

/**
 * An ES module bundle made a script's body. ESM, not CommonJS, where a module has a top-level await
 * (Ink's reconciler, Yoga's WebAssembly): esbuild cannot write those as CommonJS, and as ESM keeps
 * them inside the lazy `import()` that reaches them (an async initializer). What a script cannot
 * hold is replaced: the closing `export {…}` by assignments to `module.exports`; `import.meta` (Yoga's
 * script directory, Ink's devtools on DEV=true only) by an object of the script's own URL; `import()`
 * of a built-in by `process.getBuiltinModule` (Ink's `node:fs`, DEV=true only). Anything else left is
 * an error of the build.
 */
function esmAsScript(self, text) {
  const end = /\bexport\s*\{([^}]*)\};?\s*$/.exec(text);
  if (!end) throw new Error(`${self}: no closing export {…} to make a script of`);
  const assigns = end[1]
    .split(',')
    .map((e) => e.trim().split(/\s+as\s+/))
    .map(([local, name = local]) => `module.exports.${name} = ${local};`)
    .join('');
  const code = (text.slice(0, end.index) + assigns)
    .replace(/\bimport\.meta\b/g, '__ldMeta')
    .replace(/\bimport\((["'])(node:[\w/]+)\1\)/g, 'Promise.resolve(process.getBuiltinModule($1$2$1))');
  if (/^\s*(import|export)\b/m.test(code) || /\bexport\s*\{/.test(code))
    throw new Error(`${self}: an import or export a script cannot hold`);
  const meta = `const __ldMeta = { get url() { return require('node:url').pathToFileURL(require.resolve('./${self}-script.js')).href; }, resolve: (s) => require.resolve(s) };\n`;
  return meta + code;
}

/**
 * A file built as a classic script with its own code cache (issue #27): `chunks/<self>.js` is a small
 * loader (scripts/cached-script.mjs) and `chunks/<self>-script.js` the path's bundle, one function
 * taking `exports`, `require`, `module` and `__ldImport` (its one `import()` of another file). Node's
 * compile cache keeps the code V8 made when it compiled a file, before it ran: the functions compiled
 * lazily as a command runs (≈ 570 of them for `account --json`, a quarter of its instructions) were
 * parsed and compiled again at every start. The loader keeps V8's code cache of the script as it is
 * after a run instead, one per command (scripts/cached-script.mjs).
 */
async function buildCachedScript(self, outdir, { exports, name = null, format = 'cjs' }) {
  const result = await build({
    ...withFiles(self, './'),
    stdin: entryOf(self),
    format,
    banner: {},
    write: false,
    outfile: `${outdir}/chunks/${self}-script.js`,
  });
  const text = format === 'esm' ? esmAsScript(self, result.outputFiles[0].text) : result.outputFiles[0].text;
  // The one `import()` it keeps is of another file of the build (the sandbox): through the loader.
  const imports = [...text.matchAll(/\bimport\((["'])(\.\/[\w-]+\.js)\1\)/g)];
  const code = text.replace(/\bimport\((["'])(\.\/[\w-]+\.js)\1\)/g, '__ldImport($1$2$1)');
  if (!imports.length || /\bimport\s*\(/.test(code.replace(/__ldImport\(/g, '')))
    throw new Error(`${self}: an import() the loader does not handle (scripts/cached-script.mjs)`);
  const script = `(function (exports, require, module, __ldImport) {"use strict";\n${code}\n})`;
  const hash = createHash('sha256').update(script).digest('hex').slice(0, 16);
  mkdirSync(`${outdir}/chunks`, { recursive: true });
  writeFileSync(`${outdir}/chunks/${self}-script.js`, script);
  writeFileSync(
    `${outdir}/chunks/${self}.js`,
    cachedScriptLoader({
      script: `./${self}-script.js`,
      key: `linedesk-${self}-${hash}`,
      name,
      exports,
    }),
  );
  // What loading `chunks/<self>.js` evaluates: the script's sources (bundle-inputs.json).
  const [, out] = Object.entries(result.metafile.outputs).find(([f]) => f.endsWith('.js'));
  return { metafile: { outputs: { [`${outdir}/chunks/${self}.js`]: out } } };
}

/**
 * dist/app.js plus dist/chunks/*.js; stale chunks of an earlier build are removed first. Beside them,
 * not shipped: bundle-inputs.json, the source files in each output file (what a test reads to name
 * what a process evaluated, test/build/module-load.test.ts).
 */
export async function buildSplit(outdir = 'dist') {
  rmSync(`${outdir}/chunks`, { recursive: true, force: true });
  const results = await Promise.all([
    build({ ...withFiles('app', './chunks/'), entryPoints: ['src/cli.ts'], outfile: `${outdir}/app.js` }),
    buildCachedScript('headless', outdir, { exports: ['runHeadlessProcess'] }),
    build({
      ...withFiles('complete', './'),
      stdin: entryOf('complete'),
      outfile: `${outdir}/chunks/complete.js`,
    }),
    build({
      ...withFiles('sandbox', './'),
      stdin: entryOf('sandbox'),
      outfile: `${outdir}/chunks/sandbox.js`,
    }),
    // The app's path: one script with its own code cache, made at its first idle moment after the
    // first frame with data (src/app/run.tsx), so a warm start compiles almost none of the functions
    // its first frame calls (React, Ink, Yoga, the screens). The screens' modules are still evaluated
    // only when imported (after the first requests have left).
    // One cache, named `app`: runApp is handed the parsed options, not an argv to name it by.
    buildCachedScript('ui', outdir, {
      exports: ['runApp'],
      name: 'app',
      format: 'esm',
    }),
  ]);
  const inputs = Object.fromEntries(
    results
      .flatMap((r) => Object.entries(r.metafile.outputs))
      .filter(([file]) => file.endsWith('.js'))
      .map(([file, out]) => [file.slice(outdir.length + 1), Object.keys(out.inputs)]),
  );
  writeFileSync(`${outdir}/bundle-inputs.json`, `${JSON.stringify(inputs, null, 1)}\n`);
  return results;
}

/** The whole app in one ESM file (dynamic imports inlined), for the single executable. */
export async function buildSingle(outfile) {
  return build({ ...common, entryPoints: ['src/cli.ts'], outfile });
}
