import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { patchInk } from '../../scripts/bundle-options.mjs';

// The UI tests run Ink as published; the app runs it with the fix scripts/bundle-options.mjs applies
// while bundling (cells and row strings kept across frames). Here both run side by side: every frame
// of a random sequence must come out the same, character for character.
const inkOutput = join(dirname(createRequire(import.meta.url).resolve('ink')), 'output.js');
const dir = mkdtempSync(join(tmpdir(), 'ink-patch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type OutputClass = new (o: {
  width: number;
  height: number;
}) => {
  write(x: number, y: number, text: string, o: { transformers: unknown[] }): void;
  clip(c: { x1?: number; x2?: number; y1?: number; y2?: number }): void;
  unclip(): void;
  get(): { output: string; height: number };
};

async function load(patched: boolean): Promise<OutputClass> {
  const outfile = join(dir, `output-${patched}.mjs`);
  await build({
    entryPoints: [inkOutput],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    plugins: patched ? [patchInk] : [],
    logLevel: 'silent',
  });
  return (await import(pathToFileURL(outfile).href)).default as OutputClass;
}

const piece = fc.constantFrom(
  'plain',
  'a longer row of text for the table',
  '\u001b[1mbold\u001b[22m',
  '\u001b[7minverse row\u001b[27m',
  '\u001b[38;5;12mcolour\u001b[39m and not',
  '中文宽字符',
  '😀 emoji',
  'e\u0301 accent',
  ' ',
);
const op = fc.oneof(
  fc.record({ kind: fc.constant('write' as const), x: fc.nat(30), y: fc.nat(9), text: piece }),
  fc.record({ kind: fc.constant('clip' as const), x1: fc.nat(20), x2: fc.nat(40) }),
);

describe('the Ink fix applied at bundle time', () => {
  it('is found in the installed Ink (the build fails otherwise) and draws every frame as Ink does', async () => {
    const [Upstream, Patched] = await Promise.all([load(false), load(true)]);
    fc.assert(
      fc.property(fc.array(fc.array(op, { maxLength: 12 }), { minLength: 1, maxLength: 6 }), (frames) => {
        for (const ops of frames) {
          const draw = (O: OutputClass) => {
            const out = new O({ width: 40, height: 10 });
            let clips = 0;
            for (const o of ops) {
              if (o.kind === 'write') out.write(o.x, o.y, o.text, { transformers: [] });
              else {
                out.clip({ x1: o.x1, x2: o.x2 });
                clips++;
              }
            }
            for (; clips > 0; clips--) out.unclip();
            return out.get();
          };
          expect(draw(Patched)).toEqual(draw(Upstream));
        }
      }),
      { numRuns: 300 },
    );
  });
});
