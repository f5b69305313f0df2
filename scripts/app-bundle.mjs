// The app's bundle, two ways: split (npm run build → dist/app.js and dist/chunks/, what `node
// dist/linedesk.js` and the npm package run) and one file (npm run package: Node's single executable
// takes one ESM entry). Split, each `import()` of src/ is its own chunk, so a process evaluates only
// what its path imports: a headless command never loads React, Ink, Yoga, the store or the sandbox,
// and their node: built-ins with them (a bundle hoists every static import of a chunk to its top).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { BUNDLE_OPTIONS } from './bundle-options.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

const common = {
  ...BUNDLE_OPTIONS,
  define: { ...BUNDLE_OPTIONS.define, LINEDESK_VERSION: JSON.stringify(pkg.version) },
};

/**
 * dist/app.js plus dist/chunks/*.js; stale chunks of an earlier build are removed first. Beside them,
 * not shipped: bundle-inputs.json, the source files in each output file (what a test reads to name
 * what a process evaluated, test/build/module-load.test.ts).
 */
export async function buildSplit(outdir = 'dist') {
  rmSync(`${outdir}/chunks`, { recursive: true, force: true });
  const result = await build({
    ...common,
    entryPoints: { app: 'src/cli.ts' },
    outdir,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    metafile: true,
  });
  const inputs = Object.fromEntries(
    Object.entries(result.metafile.outputs)
      .filter(([file]) => file.endsWith('.js'))
      .map(([file, out]) => [file.slice(outdir.length + 1), Object.keys(out.inputs)]),
  );
  writeFileSync(`${outdir}/bundle-inputs.json`, `${JSON.stringify(inputs, null, 1)}\n`);
  return result;
}

/** The whole app in one ESM file (dynamic imports inlined), for the single executable. */
export async function buildSingle(outfile) {
  return build({ ...common, entryPoints: ['src/cli.ts'], outfile });
}
