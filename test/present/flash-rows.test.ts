/** The rows a flash takes (present/frame.ts `flashRowCount`), kept per flash and width: asked again
 *  at another width or for another flash, it answers for that one, never the last one's. */
import { describe, expect, it } from 'vitest';
import { flashRowCount } from '../../src/present/frame';

describe('flashRowCount', () => {
  it('answers for the flash and width asked, asked in turn', () => {
    const long = { text: 'word '.repeat(30).trim(), tone: 'info' as const };
    const short = { text: 'saved', tone: 'info' as const };
    for (let i = 0; i < 2; i++) {
      expect(flashRowCount(long, 200)).toBe(1);
      expect(flashRowCount(long, 80)).toBe(2);
      expect(flashRowCount(short, 80)).toBe(1);
      expect(flashRowCount({ ...long }, 80)).toBe(2);
      expect(flashRowCount(null, 80)).toBe(1);
    }
  });
});
