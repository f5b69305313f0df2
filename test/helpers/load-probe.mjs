// Preloaded with `node --import` by test/build/module-load.test.ts: records every file module the
// process loads (through a module hook) and, at exit, the built-in modules Node loaded, into the
// file named by LINEDESK_LOAD_PROBE, with whether zod's module was evaluated (zod 4 keeps its
// config on globalThis as it is evaluated): a file may bundle zod and leave it unevaluated.

import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const files = [];
registerHooks({
  load(url, context, nextLoad) {
    if (url.startsWith('file:')) files.push(url);
    return nextLoad(url, context);
  },
});
process.on('exit', () => {
  const builtins = process.moduleLoadList
    .filter((m) => m.startsWith('NativeModule '))
    .map((m) => m.slice('NativeModule '.length));
  writeFileSync(
    process.env.LINEDESK_LOAD_PROBE,
    JSON.stringify({ files, builtins, zod: globalThis.__zod_globalConfig !== undefined }),
  );
});
