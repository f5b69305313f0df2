#!/usr/bin/env node
// linedesk's `bin`: written in JavaScript every Node since 12 parses (no top-level await, no syntax
// newer than ES2019), so an old Node gets one sentence instead of a stack trace, and Node's compile
// cache is on before the bundle (dist/app.js) loads: a warm start skips compiling ~1 MB of JavaScript.
const NEEDED = 26;
const major = Number(process.versions.node.split('.')[0]);
if (major < NEEDED) {
  process.stderr.write(
    `linedesk needs Node.js ${NEEDED} or later and this is Node.js ${process.versions.node}: ` +
      `install Node ${NEEDED} LTS (https://nodejs.org/en/download, or \`nvm install ${NEEDED}\`), ` +
      'or use the single-file linedesk, which needs no Node.\n',
  );
  process.exit(1);
}
// node:module from process.getBuiltinModule (Node 22.3 on; checked above), not import(): an import of
// a built-in makes Node build its ESM facade, reading every export (issue #27).
try {
  process.getBuiltinModule('node:module').enableCompileCache();
} catch {
  // A cache directory that cannot be written only costs the compile time saved.
}
import('./app.js');
