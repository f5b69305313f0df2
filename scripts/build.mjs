// Bundles src/cli.ts into ESM, a few files per path (scripts/app-bundle.mjs: dist/app.js and
// dist/chunks/; options and Ink fixes: bundle-options.mjs), and writes the launcher,
// dist/linedesk.js (scripts/launcher.mjs: Node version check, compile cache).
import { chmodSync, copyFileSync } from 'node:fs';
import { buildSplit } from './app-bundle.mjs';

await buildSplit('dist');
copyFileSync('scripts/launcher.mjs', 'dist/linedesk.js');
chmodSync('dist/linedesk.js', 0o755);
