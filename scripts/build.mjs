// Bundles src/cli.ts into one ESM file, dist/app.js (options and Ink fixes: bundle-options.mjs), and
// writes the launcher, dist/linedesk.js (scripts/launcher.mjs: Node version check, compile cache).
import { chmodSync, copyFileSync, readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { BUNDLE_OPTIONS } from './bundle-options.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

await build({
  ...BUNDLE_OPTIONS,
  entryPoints: ['src/cli.ts'],
  outfile: 'dist/app.js',
  define: { ...BUNDLE_OPTIONS.define, LINEDESK_VERSION: JSON.stringify(pkg.version) },
});
copyFileSync('scripts/launcher.mjs', 'dist/linedesk.js');
chmodSync('dist/linedesk.js', 0o755);
