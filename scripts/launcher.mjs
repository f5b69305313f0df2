#!/usr/bin/env node
// linedesk's `bin`: written in JavaScript every Node can parse, so an old Node gets one sentence
// instead of a stack trace, and Node's compile cache is on before the bundle (dist/app.js) loads:
// a warm start skips compiling ~1 MB of JavaScript.
const [major] = process.versions.node.split('.').map(Number);
if (major < 24) {
  process.stderr.write(
    `linedesk needs Node.js 24 or later; this is Node.js ${process.versions.node}. ` +
      'Install Node 24 LTS, or run it from its checkout with `npm start`, which uses the Node the project pins.\n',
  );
  process.exit(1);
}
const { enableCompileCache } = await import('node:module');
try {
  enableCompileCache?.();
} catch {
  // A cache directory that cannot be written only costs the compile time saved.
}
await import('./app.js');
