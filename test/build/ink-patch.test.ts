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

/** Bundles `entry` as the app's build does (with the fixes) or as published (without); imports it. */
async function bundled(entry: string, patched: boolean): Promise<Record<string, unknown>> {
  const outfile = join(dir, `${entry.replace(/\W+/g, '-')}-${patched}.mjs`);
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    plugins: patched ? [patchInk] : [],
    logLevel: 'silent',
  });
  return (await import(pathToFileURL(outfile).href)) as Record<string, unknown>;
}
const load = async (patched: boolean) => (await bundled(inkOutput, patched)).default as OutputClass;
const resolveIn = (pkg: string, file: string) =>
  join(dirname(createRequire(inkOutput).resolve(`${pkg}/package.json`)), file);

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

  it('ansi-tokenize: rows walked without the segmenter give the very same cells', async () => {
    const entry = resolveIn('@alcalzone/ansi-tokenize', 'build/index.js');
    const [up, fixed] = await Promise.all([bundled(entry, false), bundled(entry, true)]);
    type Tokenize = (s: string) => unknown[];
    const pool = [
      'a',
      ' ',
      '~',
      '\u001b[1m',
      '\u001b[22m',
      '\u001b[38;5;12m',
      '\u001b]8;;http://x\u0007',
      '\r',
      '\n',
      '\r\n',
      'é',
      'ÿ',
      '\u00ad',
      '\u0085',
      'ʯ',
      '\u02ff',
      '\u0300',
      'e\u0301',
      '–',
      '…',
      '·',
      '›',
      '‧',
      '\u2028',
      '\u200d',
      '→',
      '│',
      '╭',
      '█',
      '◆',
      '\u25ff',
      '中',
      '😀',
      '👨\u200d👩',
      '🇫🇷',
      '\ufe0f',
      '한',
      '\u1100\u1161',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pool), { maxLength: 30 }), (parts) => {
        const row = parts.join('');
        expect((fixed.tokenize as Tokenize)(row)).toEqual((up.tokenize as Tokenize)(row));
      }),
      { numRuns: 2000 },
    );
  });

  it('yoga-layout: loads without fetch (no internal undici at start) and lays out as published', async () => {
    const entry = createRequire(inkOutput).resolve('yoga-layout');
    const real = globalThis.fetch;
    let fetched = 0;
    globalThis.fetch = ((...args: Parameters<typeof fetch>) => {
      fetched++;
      return real(...args);
    }) as typeof fetch;
    try {
      const fixed = (await bundled(entry, true)).default as typeof import('yoga-layout').default;
      expect(fetched).toBe(0);
      const up = (await bundled(entry, false)).default as typeof import('yoga-layout').default;
      const layout = (Y: typeof up) => {
        const root = Y.Node.create();
        root.setWidth(120);
        root.setFlexDirection(Y.FLEX_DIRECTION_ROW);
        for (const grow of [1, 2, 0]) {
          const child = Y.Node.create();
          child.setFlexGrow(grow);
          child.setWidth(10);
          root.insertChild(child, root.getChildCount());
        }
        root.calculateLayout(120, 40, Y.DIRECTION_LTR);
        return Array.from({ length: 3 }, (_, i) => root.getChild(i).getComputedLayout());
      };
      expect(layout(fixed)).toEqual(layout(up));
    } finally {
      globalThis.fetch = real;
    }
  });

  // Every character the fast paths may take, alone and in random rows, against the published code.
  const FAST = [
    [0x00, 0x2ff],
    [0x2010, 0x205f],
    [0x2190, 0x21ff],
    [0x2500, 0x25ff],
  ].flatMap(([a, b]) => Array.from({ length: b! - a! + 1 }, (_, i) => String.fromCodePoint(a! + i)));
  const OTHERS = ['\u0300', '\u200d', '\ufe0f', '😀', '中', '\r\n', '\u001b[1m', '\u001b[22m', 'e\u0301'];

  it('string-width: the wider fast path measures as the published code does', async () => {
    const entry = createRequire(inkOutput).resolve('string-width');
    type Width = (s: string) => number;
    const up = (await bundled(entry, false)).default as Width;
    const fixed = (await bundled(entry, true)).default as Width;
    for (const ch of FAST) expect([ch, fixed(ch)]).toEqual([ch, up(ch)]);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...FAST, ...OTHERS), { maxLength: 20 }), (parts) => {
        expect(fixed(parts.join(''))).toBe(up(parts.join('')));
      }),
      { numRuns: 3000 },
    );
  });

  it('ansi-tokenize: every character the fast path takes, alone, gives the same cell', async () => {
    const entry = resolveIn('@alcalzone/ansi-tokenize', 'build/index.js');
    const [up, fixed] = await Promise.all([bundled(entry, false), bundled(entry, true)]);
    type Tokenize = (s: string) => unknown[];
    for (const ch of FAST)
      expect([ch, (fixed.tokenize as Tokenize)(ch)]).toEqual([ch, (up.tokenize as Tokenize)(ch)]);
  });
});
