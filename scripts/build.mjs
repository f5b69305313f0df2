// Bundles src/cli.ts into one ESM file, dist/linedesk.js (options and Ink fixes: bundle-options.mjs).
import { chmodSync, readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { BUNDLE_OPTIONS } from './bundle-options.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

await build({
  ...BUNDLE_OPTIONS,
  entryPoints: ['src/cli.ts'],
  outfile: 'dist/linedesk.js',
  // Native addon: resolved from node_modules at run time, and only when the sandbox is used.
  external: ['better-sqlite3'],
  define: { ...BUNDLE_OPTIONS.define, LINEDESK_VERSION: JSON.stringify(pkg.version) },
});
chmodSync('dist/linedesk.js', 0o755);
