/**
 * The app's files import Node's built-ins through getters of `process.getBuiltinModule()`
 * (scripts/app-bundle.mjs, `builtinsWithoutFacade`): Node no longer checks a named import when the
 * file is linked, so a name the module lacks would be undefined at run time. The build checks every
 * named import of a built-in against the Node it runs on (the pinned one) and fails, naming it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { builtinsWithoutFacade } from '../../scripts/app-bundle.mjs';

const dir = mkdtempSync(join(tmpdir(), 'linedesk-builtin-imports-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bundle = (name: string, source: string) => {
  const file = join(dir, name);
  writeFileSync(file, source);
  return build({
    entryPoints: [file],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    logLevel: 'silent',
    plugins: [builtinsWithoutFacade],
  });
};

describe("a named import of a built-in in the app's files", () => {
  it('that the module has builds, and reads the module', async () => {
    const out = await bundle(
      'ok.ts',
      `import { readFileSync, type Stats } from 'node:fs';
import type { Server } from 'node:http';
import os, { EOL as eol } from 'os';
export const f = (s: Stats, v: Server) => [readFileSync, eol, os.EOL, s, v];`,
    );
    expect(out.errors).toEqual([]);
    expect(out.outputFiles[0]!.text).toContain('getBuiltinModule("node:fs")');
  });

  it('that the module lacks fails the build, named with its module and the Node version', async () => {
    const failed = bundle(
      'typo.ts',
      `import { readFileSync, readFileSynk } from 'node:fs';
import {
  EOL, // the line end
  platfrom,
} from 'os';
export const f = () => [readFileSync, readFileSynk, EOL, platfrom];`,
    );
    await expect(failed).rejects.toThrow(
      new RegExp(
        `"readFileSynk" is not an export of node:fs in Node ${process.version.replace(/\./g, '\\.')}`,
      ),
    );
    await expect(failed).rejects.toThrow(/"platfrom" is not an export of node:os/);
    await expect(failed).rejects.toThrow(/typo\.ts:1/);
  });
});
