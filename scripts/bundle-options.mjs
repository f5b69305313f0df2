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
 * - one cell cache kept across frames, dropped past 200 lines (a line's cells take ~10 KB: at a
 *   looser bound the lines of every page shown stayed, +0.8 MB a page turn; at 600, the bound
 *   before #27, a heap snapshot after 1,000 page turns found it holding 3.8 MB of 44 MB live; 200
 *   is five screens of 40 rows);
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
  if (!sharedCaches || sharedCaches.styledChars.size > 200 || sharedCaches.widths.size > 20000) sharedCaches = new OutputCaches();
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

/**
 * Start-up and frames: ansi-tokenize (Ink's cell tokenizer) walks every row through Intl.Segmenter,
 * and the first use of the segmenter loads ICU's break data; on the first frame that was most of
 * the cold render (~97 ms, issue #13's profile). A row made only of characters that never join
 * others into one grapheme (ASCII and Latin-1 but CR, Latin extended, dashes and punctuation,
 * arrows, box drawing and shapes: what our frames are made of) is walked by index instead; any
 * other row goes through the segmenter as before. Not upstream. test/build/ink-patch.test.ts
 * checks the two walks agree on random rows.
 */
const TOKENIZE_SIMPLE_ROWS_FIX = {
  file: /[\\/]@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]tokenize\.js$/,
  replace: [
    [
      'for (const { segment, index } of segmenter.segment(str)) {',
      'for (const { segment, index } of graphemes(str)) {',
    ],
  ],
  append: `
const SIMPLE_ROW = /^[\\u0000-\\u000c\\u000e-\\u02ff\\u2010-\\u2027\\u2030-\\u205e\\u2190-\\u21ff\\u2500-\\u25ff]*$/;
function* simpleGraphemes(str) {
  for (let index = 0; index < str.length; index++) yield { segment: str[index], index };
}
function graphemes(str) {
  return SIMPLE_ROW.test(str) ? simpleGraphemes(str) : segmenter.segment(str);
}`,
};

/**
 * Start-up: Yoga's loader fetches its own WebAssembly from a data: URL with the global fetch, which
 * loads Node's internal undici (≈ 50 ms on Node 20, measured in issue #13) only to decode base64. It
 * decodes it directly here (its own fallback path, with Buffer instead of a loop over atob). Not
 * upstream: yoga-layout 3.2 as published.
 */
const YOGA_NO_FETCH_FIX = {
  file: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/,
  replace: [
    ['return w||"function"!=typeof fetch?Promise', 'return true?Promise'],
    [
      'var b=xa(a.slice(37)),c=new Uint8Array(b.length);for(a=0;a<b.length;++a)c[a]=b.charCodeAt(a);var d=c',
      'var d=new Uint8Array(Buffer.from(a.slice(37),"base64"))',
    ],
  ],
  append: '',
};

/**
 * Start-up: five of Ink's modules make an Intl.Segmenter when they load, and the first one costs
 * ICU's break data (≈ 10 ms here, more under load), whether or not a frame needs one. Each is made
 * on first use instead; with the fast paths below the first frame needs none. Not upstream.
 */
const LAZY_SEGMENTER_HELPER = `
function lazySegmenter(locales, options) {
  let real;
  return { segment: (text) => (real ??= new Intl.Segmenter(locales, options)).segment(text) };
}`;
const lazySegmenter = (file, made) => ({
  file,
  replace: [[made, made.replace('new Intl.Segmenter(', 'lazySegmenter(')]],
  append: LAZY_SEGMENTER_HELPER,
});
const LAZY_SEGMENTER_FIXES = [
  lazySegmenter(/[\\/]string-width[\\/]index\.js$/, 'const segmenter = new Intl.Segmenter();'),
  lazySegmenter(/[\\/]wrap-ansi[\\/]index\.js$/, 'const segmenter = new Intl.Segmenter();'),
  lazySegmenter(
    /[\\/]ink[\\/]build[\\/]line-update\.js$/,
    "const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });",
  ),
  lazySegmenter(
    /[\\/]@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]tokenize\.js$/,
    'const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });',
  ),
  lazySegmenter(
    /[\\/]slice-ansi[\\/]tokenize-ansi\.js$/,
    "const GRAPHEME_SEGMENTER = new Intl.Segmenter(undefined, {granularity: 'grapheme'});",
  ),
];

/**
 * string-width skips the segmenter for printable ASCII only; the rows of our frames carry a few
 * other characters that are one column and one grapheme each (·, –, …, ›, arrows, box drawing), so
 * any row with them took the slow path. Its fast path covers those too (never CR, controls, the soft
 * hyphen, or the two wide squares U+25FD–25FE). Not upstream. Checked against the published code on
 * every character of the range. Its emoji regex is compiled on first use too.
 */
const STRING_WIDTH_SIMPLE_FIX = {
  file: /[\\/]string-width[\\/]index\.js$/,
  replace: [
    // Built on first use: compiling \p{RGI_Emoji} costs ≈ 17 ms, and only emoji rows need it.
    [
      'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;',
      "let rgiEmojiRegexMade;\nconst rgiEmojiRegex = { test: (text) => (rgiEmojiRegexMade ??= new RegExp('^\\\\p{RGI_Emoji}$', 'v')).test(text) };",
    ],
    [
      'if (/^[\\u0020-\\u007E]*$/.test(string)) {',
      'if (/^[\\u0020-\\u007e\\u00a0-\\u00ac\\u00ae-\\u02ff\\u2010-\\u2027\\u2030-\\u205e\\u2190-\\u21ff\\u2500-\\u25fc\\u25ff]*$/.test(string)) {',
    ],
  ],
  append: '',
};

const FIXES = [
  INK_OUTPUT_FIX,
  TOKENIZE_SIMPLE_ROWS_FIX,
  YOGA_NO_FETCH_FIX,
  STRING_WIDTH_SIMPLE_FIX,
  ...LAZY_SEGMENTER_FIXES,
];

/**
 * Applies the fixes above to the files as they are bundled, every fix of a file in turn; a fix that
 * no longer fits (the dependency changed) fails the build.
 */
export const patchInk = {
  name: 'patch-ink',
  setup(b) {
    const files = new RegExp(FIXES.map((f) => f.file.source).join('|'));
    b.onLoad({ filter: files }, async (args) => {
      let source = await readFile(args.path, 'utf8');
      for (const fix of FIXES.filter((f) => f.file.test(args.path))) {
        for (const [from, to] of fix.replace) {
          if (!source.includes(from))
            throw new Error(`${args.path} changed: review the fixes in scripts/bundle-options.mjs`);
          source = source.replace(from, () => to); // a function: `to` may hold `$`
        }
        source += fix.append;
      }
      return { contents: source, loader: 'js' };
    });
  },
};

/** Everything but the entry point and output file. */
export const BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node26',
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
