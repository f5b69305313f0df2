// npm run package: one file to copy, dist/linedesk-<os>-<arch>. Node's single executable application
// support (`node --build-sea`, Node 25.5 and later) copies the Node binary running this script (the
// pinned one under npm) and embeds the app bundled as ONE ESM file (an executable takes one entry; the
// npm package's dist/app.js is a few files per path, scripts/app-bundle.mjs). The bundle holds every
// dependency (esbuild inlines them, Yoga's WebAssembly included) and the sandbox uses the built-in
// node:sqlite, so the file needs nothing beside it: no Node, no node_modules. It is built for the
// platform it is made on; run it on another machine of the same OS and architecture.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSingle } from './app-bundle.mjs';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 25 || (major === 25 && minor < 5)) {
  process.stderr.write(
    `npm run package needs Node 25.5 or later (node --build-sea); this is ${process.version}: run it through npm, which uses the pinned Node.\n`,
  );
  process.exit(1);
}

const executableName = `linedesk-${process.platform}-${process.arch}`;
const output = resolve('dist', executableName);
const work = mkdtempSync(join(tmpdir(), 'linedesk-sea-'));
try {
  const bundle = join(work, 'app.js');
  await buildSingle(bundle);
  const config = join(work, 'sea-config.json');
  writeFileSync(
    config,
    JSON.stringify({
      main: bundle,
      mainFormat: 'module',
      output,
      disableExperimentalSEAWarning: true,
      // V8's code cache for the bundle, made at build time: the first frame ≈ 80 ms sooner
      // (docs/PERFORMANCE.md); the launcher's compile cache does not apply to an embedded entry.
      useCodeCache: true,
    }),
  );
  const t0 = performance.now();
  execFileSync(process.execPath, ['--build-sea', config], { stdio: ['ignore', 'ignore', 'inherit'] });
  const ms = performance.now() - t0;
  const mb = statSync(output).size / 1024 / 1024;
  process.stderr.write(
    `wrote dist/${executableName} (${mb.toFixed(1)} MB, Node ${process.version}) in ${(ms / 1000).toFixed(1)} s\n`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
