/** The account ids' hash (app/sha256.ts) is node:crypto's SHA-256, byte for byte, on any text. */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accountTargetId, intentsDir } from '../../src/app/account-id';
import { notesPath } from '../../src/app/notes-file';
import { sha256Hex } from '../../src/app/sha256';

const nodeSha = (s: string) => createHash('sha256').update(s).digest('hex');

/** Text of each UTF-8 width (1, 2, 3 and 4 bytes) and lone surrogates (written as U+FFFD, 3 bytes). */
const PIECES = ['a', 'é', '€', '😀', '\ud800', '\udfff', '\u0000', '\u001b', '\u007f', '\uffff'];

describe('sha256Hex', () => {
  it('matches node:crypto on the padding edges and on random text (any Unicode, any length)', () => {
    for (const n of [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000])
      expect(sha256Hex('a'.repeat(n)), `length ${n}`).toBe(nodeSha('a'.repeat(n)));
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => sha256Hex(s) === nodeSha(s)),
      { numRuns: 500 },
    );
  });

  it('matches node:crypto at every byte length 0–200, whatever the characters’ widths', () => {
    // Each UTF-8 length from 0 to 200 (so 55/56/64 bytes and their multiples) reached with a
    // multi-byte character straddling the end, lone surrogates included.
    for (let n = 0; n <= 200; n++)
      for (const tail of PIECES) {
        const width = Buffer.byteLength(tail);
        if (n < width) continue;
        const s = 'x'.repeat(n - width) + tail;
        expect(Buffer.byteLength(s), JSON.stringify(tail)).toBe(n);
        expect(sha256Hex(s), `${n} bytes ending ${JSON.stringify(tail)}`).toBe(nodeSha(s));
      }
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 80 }), (parts) => {
        const s = parts.join('');
        return sha256Hex(s) === nodeSha(s);
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps existing account ids, intent directories and notes files where they were', () => {
    // Computed with node:crypto's createHash before app/sha256.ts replaced it: a change here would
    // orphan every user's intent directory (open changes), journal entries and notes.
    const id = accountTargetId('https://panel.example.com/', 'lds_ÄpiKey-😀-xyz');
    expect(id).toBe('https://panel.example.com/#310b942eb5e79a06');
    expect(intentsDir('/d', id)).toBe('/d/intents-e8b68352173f');
    expect(notesPath('/d', 'profile:work')).toMatch(/-ccca98e57b69\.json$/);
  });
});
