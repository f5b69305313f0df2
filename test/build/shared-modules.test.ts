/**
 * The build writes a few files per path (scripts/app-bundle.mjs), and a module two files both bundle
 * is two copies in a process that loads both (a headless command or the app with the embedded
 * sandbox: the contract, zod, the domain's pricing…). Copies of plain functions and data agree; a
 * class does not: an error made by one copy fails `instanceof` against the other's, and a guard like
 * connection.ts's `err instanceof SandboxUnavailableError` would go silently false. So no class may be
 * defined in two files one process loads; a class is reached through the one file that holds it
 * (the sandbox's error through the sandbox file's own export).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBundle } from '../helpers/bundle';

const DIST = new URL('../../dist/', import.meta.url).pathname;
const ROOT = new URL('../../', import.meta.url).pathname;

beforeAll(() => ensureBundle());

/** The output files a file imports (statically or by `import()`), as paths under dist/. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(DIST, file), 'utf8');
  // (a file built as a script with its own code cache: its loader names the script in `new URL(…)`,
  // and the script's `import()` of another file is `__ldImport(…)`: scripts/cached-script.mjs)
  const found = text.matchAll(
    /(?:from\s*|import\s*\(\s*|__ldImport\(\s*|new URL\(\s*)["'](\.\.?\/[^"']+\.js)["']/g,
  );
  return [...new Set([...found].map((m) => normalize(join(dirname(file), m[1]!))))].filter(
    (f) => !f.startsWith('..'),
  );
}

/** What one process may load together: the entry, one path's file, and everything that file imports. */
function processes(): string[][] {
  const reach = (from: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(from)) return seen;
    seen.add(from);
    for (const f of importsOf(from)) reach(f, seen);
    return seen;
  };
  return importsOf('app.js').map((path) => [...reach(path, new Set(['app.js']))]);
}

/** The classes a source declares. */
const classesOf = (src: string) =>
  [
    ...readFileSync(join(ROOT, src), 'utf8').matchAll(/^\s*(?:export\s+)?(?:abstract\s+)?class\s+(\w+)/gm),
  ].map((m) => m[1]!);
/** Whether a built file defines the class (`class X`, or `X = class` as esbuild writes it). */
const defines = (file: string, name: string) =>
  new RegExp(`\\bclass\\s+${name}\\b|\\b${name}\\s*=\\s*class\\b`).test(
    readFileSync(join(DIST, file), 'utf8'),
  );

describe('modules copied into two files of one process', () => {
  it('the processes are the paths the entry imports, each with what it imports', () => {
    // (each in the order reached: the path's own file first)
    const paths = processes().map((p) => p.filter((f) => f !== 'app.js'));
    // every path file is reached from the entry, and the sandbox's from both clients of it
    expect(paths.map((p) => p[0])).toEqual(
      expect.arrayContaining(['chunks/complete.js', 'chunks/headless.js', 'chunks/sandbox.js']),
    );
    expect(paths.find((p) => p.includes('chunks/headless.js'))).toContain('chunks/sandbox.js');
    expect(paths.find((p) => p.includes('chunks/ui.js'))).toContain('chunks/sandbox.js');
  });

  it('define no class in two of them (an instanceof across the copies would fail)', () => {
    const inputs = JSON.parse(readFileSync(join(DIST, 'bundle-inputs.json'), 'utf8')) as Record<
      string,
      string[]
    >;
    const twice: string[] = [];
    let shared = 0;
    for (const files of processes()) {
      const holders = new Map<string, string[]>();
      for (const file of files)
        for (const src of inputs[file] ?? [])
          if (src.startsWith('src/')) holders.set(src, [...(holders.get(src) ?? []), file]);
      for (const [src, held] of holders) {
        if (held.length < 2) continue;
        shared++;
        // a copy may leave a class out (esbuild drops what a file never uses): count the definitions
        for (const name of classesOf(src)) {
          const defining = held.filter((f) => defines(f, name));
          if (defining.length > 1) twice.push(`${name} (${src}) in ${defining.join(', ')}`);
        }
      }
    }
    expect(shared).toBeGreaterThan(0); // the contract is shared: the check looks at something
    expect(twice).toEqual([]);
  });
});
