/** The account ids' hash (app/sha256.ts) is node:crypto's SHA-256, byte for byte, on any text. */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/app/sha256';

const nodeSha = (s: string) => createHash('sha256').update(s).digest('hex');

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
});
