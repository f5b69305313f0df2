/**
 * cellWidth against the cells Ink draws (string-width): an emoji that cc4a3e9 made two
 * cells followed by VS16 (⚡️ ⭐️ ⚽️ as phone keyboards send them) counts three; a skin tone
 * (👍🏽) counts four; 🏳️ (text-default in U+1F300–1FAFF) with VS16 three. Each row holding one ends
 * short of its width.
 */
import { describe, expect, it } from 'vitest';
import { sanitize } from '../../src/api/sanitize';
import { cellWidth } from '../../src/domain/format';

describe('cell width of emoji as typed on phones', () => {
  it.each([
    ['\u26A1\uFE0F', 2], // ⚡️ (iOS sends VS16)
    ['\u2B50\uFE0F', 2], // ⭐️
    ['\u26BD\uFE0F', 2], // ⚽️
    ['\u2764\uFE0F', 2], // ❤️ (already 2 by coincidence: 1 + 1)
    ['\u{1F44D}\u{1F3FD}', 2], // 👍🏽
    ['\u{1F3F3}\uFE0F', 2], // 🏳️
    ['\u{1F321}', 1], // 🌡 text-default
  ])('%s is %i cells', (s, n) => {
    expect(cellWidth(sanitize(s))).toBe(n);
  });
});
