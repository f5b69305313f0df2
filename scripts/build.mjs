// Bundles src/cli.ts into one ESM file, dist/linedesk.js. Measured pitfalls handled here:
// react-devtools-core aliased to a stub, a createRequire banner for CJS deps, NODE_ENV=production.
// Start-up parses the whole file, so it is kept small (docs/PERFORMANCE.md): Ink's devtools hook
// (and the `ws` it pulls in) is stubbed, whitespace and syntax are minified, names are kept so
// logged stack traces stay readable.
import { chmodSync, readFileSync } from 'node:fs';
import { build } from 'esbuild';

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

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

await build({
  entryPoints: ['src/cli.ts'],
  outfile: 'dist/linedesk.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Native addon: resolved from node_modules at run time, and only when the sandbox is used.
  external: ['better-sqlite3'],
  alias: { 'react-devtools-core': './scripts/devtools-stub.mjs' },
  plugins: [stubInkDevtools],
  minifyWhitespace: true,
  minifySyntax: true,
  define: {
    'process.env.NODE_ENV': '"production"',
    LINEDESK_VERSION: JSON.stringify(pkg.version),
  },
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __ldCreateRequire } from 'node:module';\nconst require = __ldCreateRequire(import.meta.url);",
  },
  legalComments: 'none',
  logLevel: 'warning',
});
chmodSync('dist/linedesk.js', 0o755);
