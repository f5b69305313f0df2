// esbuild options shared by the app bundle (scripts/build.mjs) and the bench's Ink yardstick.
// Measured pitfalls handled here: react-devtools-core aliased to a stub, a createRequire banner for
// CJS deps, NODE_ENV=production. Start-up parses the whole file, so it is kept small
// (docs/PERFORMANCE.md): Ink's devtools hook (and the `ws` it pulls in) is stubbed, whitespace and
// syntax are minified, names are kept so logged stack traces stay readable.
import { readFile } from 'node:fs/promises';

/** Ink imports `./devtools.js` only when DEV=true; it would bundle a WebSocket client for nothing. */
const stubInkDevtools = {
  name: 'stub-ink-devtools',
  setup(b) {
    b.onResolve({ filter: /^\.\/devtools\.js$/ }, (args) =>
      /[\\/]ink[\\/]/.test(args.importer) ? { path: 'ink-devtools', namespace: 'stub' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

/**
 * Ink 6.8 tokenizes every line of every frame into styled cells, in a cache it throws away after
 * the frame; a cursor move changes two rows of forty. One cache kept across frames (and dropped
 * when it grows past a few pages' worth of lines) makes that work follow what changed. The cells
 * are only read after they are made, so sharing them between frames is safe.
 */
const INK_SHARED_CACHE_FIX = {
  file: /[\\/]ink[\\/]build[\\/]output\.js$/,
  from: 'caches = new OutputCaches();',
  to: 'caches = sharedOutputCaches();',
  append: `
let sharedCaches;
function sharedOutputCaches() {
  if (!sharedCaches || sharedCaches.styledChars.size + sharedCaches.widths.size > 20000) sharedCaches = new OutputCaches();
  return sharedCaches;
}`,
};

/**
 * Ink 6.8's incremental renderer moves up one row too few when the previous frame ended with a
 * newline (every frame shorter than the terminal, as ours are), so each diff landed one row low
 * and left stale lines. Fixed at bundle time; the build fails if Ink's code no longer matches.
 */
const INK_INCREMENTAL_FIX = {
  file: /[\\/]ink[\\/]build[\\/]log-update\.js$/,
  from: 'buffer.push(ansiEscapes.cursorUp(previousVisible - 1));',
  to: "buffer.push(ansiEscapes.cursorUp(previousOutput.endsWith('\\n') ? previousVisible : previousVisible - 1));",
  append: '',
};

/** Applies the fixes above to Ink's files as they are bundled; a fix that no longer fits fails the build. */
const patchInk = {
  name: 'patch-ink',
  setup(b) {
    for (const fix of [INK_SHARED_CACHE_FIX, INK_INCREMENTAL_FIX]) {
      b.onLoad({ filter: fix.file }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!source.includes(fix.from))
          throw new Error(`${args.path} changed: review the Ink fixes in scripts/build.mjs`);
        return { contents: source.replace(fix.from, fix.to) + fix.append, loader: 'js' };
      });
    }
  },
};

/** Everything but the entry point and output file. */
export const BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  alias: { 'react-devtools-core': './scripts/devtools-stub.mjs' },
  plugins: [stubInkDevtools, patchInk],
  minifyWhitespace: true,
  minifySyntax: true,
  define: { 'process.env.NODE_ENV': '"production"' },
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __ldCreateRequire } from 'node:module';\nconst require = __ldCreateRequire(import.meta.url);",
  },
  legalComments: 'none',
  logLevel: 'warning',
};
