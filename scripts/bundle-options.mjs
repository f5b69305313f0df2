// esbuild options shared by the app bundle (scripts/build.mjs) and the bench's Ink yardstick.
// Measured pitfalls handled here: a createRequire banner for CJS deps, NODE_ENV=production. Start-up
// parses the whole file, so it is kept small (docs/PERFORMANCE.md): Ink's devtools module (with
// react-devtools-core and `ws`) is stubbed, whitespace and syntax are minified, names are kept so
// logged stack traces stay readable.
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
 * Ink (8.0 as 6.8) builds every frame from scratch: each line tokenized into styled cells, in caches
 * that belong to one frame's Output (upstream PR vadimdemedes/ink#835 added them, per frame), a
 * fresh blank object per cell, every row turned back into a string. A cursor move changes two rows
 * of forty. Not fixed upstream as of Ink 8.0.0; here the work follows what changed:
 * - one cell cache kept across frames, dropped past 600 lines (a line's cells take ~10 KB: at a
 *   looser bound the lines of every page shown stayed, +0.8 MB a page turn);
 * - one shared blank cell (9,600 allocations a 120×40 frame, most of a frame's garbage);
 * - a row's string is reused when the row holds the very same cells as last frame's row there.
 * Safe because cells are only read once made: a row made of the same cells is the same string.
 * test/build/ink-patch.test.ts runs patched and published Ink side by side on random frames.
 * (Ink 6.8 also needed a bounded wrap cache and the incremental renderer's row offset: Ink 7 and 8
 * fixed both, so those patches are gone.)
 */
const INK_OUTPUT_FIX = {
  file: /[\\/]ink[\\/]build[\\/]output\.js$/,
  replace: [
    ['caches = new OutputCaches();', 'caches = sharedOutputCaches();'],
    [
      `row.push({
                    type: 'char',
                    value: ' ',
                    fullWidth: false,
                    styles: [],
                });`,
      'row.push(BLANK_CELL);',
    ],
    [
      `const generatedOutput = output
            .map(line => {
            // See https://github.com/vadimdemedes/ink/pull/564#issuecomment-1637022742
            const lineWithoutEmptyItems = line.filter(item => item !== undefined);
            return styledCharsToString(lineWithoutEmptyItems).trimEnd();
        })
            .join('\\n');`,
      `const generatedOutput = output.map((line, y) => rowString(line.filter(item => item !== undefined), y)).join('\\n');`,
    ],
  ],
  append: `
const BLANK_CELL = { type: 'char', value: ' ', fullWidth: false, styles: [] };
let sharedCaches;
function sharedOutputCaches() {
  if (!sharedCaches || sharedCaches.styledChars.size > 600 || sharedCaches.widths.size > 20000) sharedCaches = new OutputCaches();
  return sharedCaches;
}
const lastRows = [];
function rowString(cells, y) {
  const last = lastRows[y];
  if (last && last.cells.length === cells.length && last.cells.every((c, x) => c === cells[x])) return last.text;
  const text = styledCharsToString(cells).trimEnd();
  lastRows[y] = { cells, text };
  return text;
}`,
};

/** Applies the fixes above to Ink's files as they are bundled; a fix that no longer fits fails the build. */
export const patchInk = {
  name: 'patch-ink',
  setup(b) {
    for (const fix of [INK_OUTPUT_FIX]) {
      b.onLoad({ filter: fix.file }, async (args) => {
        let source = await readFile(args.path, 'utf8');
        for (const [from, to] of fix.replace) {
          if (!source.includes(from))
            throw new Error(`${args.path} changed: review the Ink fixes in scripts/bundle-options.mjs`);
          source = source.replace(from, to);
        }
        return { contents: source + fix.append, loader: 'js' };
      });
    }
  },
};

/** Everything but the entry point and output file. */
export const BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  alias: {
    // wrap-ansi brings its own string-width 7 (same API): one copy initialises once (~10 ms).
    'string-width': './node_modules/string-width/index.js',
  },
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
