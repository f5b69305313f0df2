import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PASTE_END, PASTE_MAX_CHARS, PASTE_START, PasteSplitter, type Segment } from '../../src/keys/paste';

/** Joins adjacent key segments: how a stream is cut into chunks must not change what it means. */
const normal = (segs: readonly Segment[]) =>
  segs.reduce<Segment[]>((out, s) => {
    const last = out.at(-1);
    if (s.kind === 'keys' && last?.kind === 'keys')
      out[out.length - 1] = { kind: 'keys', text: last.text + s.text };
    else if (s.kind === 'paste' || s.text) out.push(s);
    return out;
  }, []);

const run = (chunks: readonly string[]) => {
  const p = new PasteSplitter();
  return normal([...chunks.flatMap((c) => p.push(c)), ...p.flush()]);
};

describe('a paste is text, never keys', () => {
  it('takes everything between the markers out of the key stream, in order', () => {
    expect(run([`ab${PASTE_START}q\r\u001b[Bd${PASTE_END}\r`])).toEqual([
      { kind: 'keys', text: 'ab' },
      { kind: 'paste', text: 'q\r\u001b[Bd' },
      { kind: 'keys', text: '\r' },
    ]);
  });

  it('markers split across chunks, a lone Esc still a key, a missing end marker ends at flush', () => {
    expect(run(['x\u001b[2', '00~hello\u001b[20', '1~y'])).toEqual([
      { kind: 'keys', text: 'x' },
      { kind: 'paste', text: 'hello' },
      { kind: 'keys', text: 'y' },
    ]);
    const p = new PasteSplitter();
    expect(p.push('\u001b')).toEqual([]); // the Esc key, or a marker's start: held
    expect(p.push('\u001b[2')).toEqual([{ kind: 'keys', text: '\u001b' }]); // the first was Esc; this, held
    expect(p.flush()).toEqual([{ kind: 'keys', text: '\u001b[2' }]); // nothing came: keys after all
    expect(run([`${PASTE_START}never ends\r`])).toEqual([{ kind: 'paste', text: 'never ends\r' }]);
  });

  it('a marker cut right after its ESC is still a paste: no Enter, no q reaches the keys', () => {
    expect(run(['\u001b', '[200~q\r\u001b[201~'])).toEqual([{ kind: 'paste', text: 'q\r' }]);
    expect(run(['a\u001b', '[200~x\r', '\u001b', '[201~b'])).toEqual([
      { kind: 'keys', text: 'a' },
      { kind: 'paste', text: 'x\r' },
      { kind: 'keys', text: 'b' },
    ]);
  });

  it('a huge paste is kept to its first 64 K characters and still ends at its marker', () => {
    const out = run([PASTE_START, 'x'.repeat(100_000), `\r${PASTE_END}q`]);
    expect(out[0]!.kind).toBe('paste');
    expect(out[0]!.text).toHaveLength(PASTE_MAX_CHARS);
    expect(out[1]).toEqual({ kind: 'keys', text: 'q' });
  });

  it('any cut of a stream of keys and pastes into chunks gives the same keys and pastes (property)', () => {
    const piece = fc.oneof(
      fc
        .string({ unit: fc.constantFrom('a', 'q', '\r', '\u001b', '[', '2', '0', '~', '1') })
        .map((t) => ({ kind: 'keys' as const, t })),
      fc
        .string({ unit: fc.constantFrom('a', '\r', '\n', '\u001b', '[', 'd', '~') })
        .map((t) => ({ kind: 'paste' as const, t })),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (pieces, cuts) => {
          // Keys never contain a whole start marker (a terminal with bracketed paste never sends one).
          const stream = pieces
            .map((p) =>
              p.kind === 'paste'
                ? `${PASTE_START}${p.t.replaceAll(PASTE_END, '')}${PASTE_END}`
                : p.t.replaceAll(PASTE_START, ''),
            )
            .join('');
          // Any cut at all, right after a marker's ESC included (an SSH packet boundary can fall there).
          const points = [...new Set(cuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b);
          const chunks: string[] = [];
          let at = 0;
          for (const p of points) {
            chunks.push(stream.slice(at, p));
            at = p;
          }
          chunks.push(stream.slice(at));
          expect(run(chunks)).toEqual(run([stream]));
        },
      ),
    );
  });
});
