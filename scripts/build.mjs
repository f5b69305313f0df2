// Bundles src/cli.ts into one ESM file, dist/linedesk.js. Measured pitfalls handled here:
// react-devtools-core aliased to a stub, a createRequire banner for CJS deps, NODE_ENV=production.
import { chmodSync, readFileSync } from 'node:fs';
import { build } from 'esbuild';

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
