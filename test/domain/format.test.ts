import { describe, expect, it } from 'vitest';
import {
  creditsText,
  firstNames,
  linesNamed,
  positionText,
  SHOWN_NAME,
  shownName,
} from '../../src/domain/format';

const intl = (n: number) =>
  Number.isInteger(n)
    ? n.toLocaleString('en-US')
    : n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

describe('creditsText', () => {
  it('groups thousands and shows fractions to two places, as en-US formatting does', () => {
    const values = [0, 1, 12, 999, 1000, 1001, 12_345, 100_000, 999_999, 1_000_000, 123_456_789];
    for (const v of values) {
      for (const n of [v, -v, v + 0.5, v + 0.25, -(v + 0.75), v + 0.1, v + 0.01]) {
        if (Object.is(n, -0)) continue;
        expect(creditsText(n), String(n)).toBe(intl(n));
      }
    }
    expect(creditsText(1234.5)).toBe('1,234.50');
    expect(creditsText(-1_000_000)).toBe('-1,000,000');
    // Unlike Intl, no "-0".
    expect(creditsText(-0)).toBe('0');
  });
});

describe('positionText', () => {
  it('says where the page is, thousands separated', () => {
    expect(positionText(0, 20, 240)).toBe('1–20 of 240');
    expect(positionText(986, 34, 100_000)).toBe('987–1,020 of 100,000');
    expect(positionText(0, 0, 0)).toBe('0 of 0');
  });
});

describe('shownName (a name of an item that did not read, as shown)', () => {
  it('is whole up to SHOWN_NAME characters, else cut there with "…", never inside a character', () => {
    expect(SHOWN_NAME).toBe(60);
    expect(shownName('')).toBe('');
    expect(shownName('a'.repeat(60))).toBe('a'.repeat(60));
    expect(shownName('a'.repeat(61))).toBe(`${'a'.repeat(60)}…`);
    // Code points, not UTF-16 units: an emoji is one character, never half of one.
    expect(shownName('😀'.repeat(60))).toBe('😀'.repeat(60));
    expect(shownName(`${'a'.repeat(59)}😀😀`)).toBe(`${'a'.repeat(59)}😀…`);
  });
});

describe('firstNames and linesNamed (lines as a notice names them)', () => {
  it('the first three names, "…" only when there are more', () => {
    expect(firstNames([])).toBe('');
    expect(firstNames(['a'])).toBe('a');
    expect(firstNames(['a', 'b', 'c'])).toBe('a, b, c');
    expect(firstNames(['a', 'b', 'c', 'd'])).toBe('a, b, c…');
  });
  it('with their count, thousands grouped', () => {
    expect(linesNamed(['a'])).toBe('1 line (a)');
    expect(linesNamed(['a', 'b', 'c', 'd'])).toBe('4 lines (a, b, c…)');
    expect(linesNamed(Array.from({ length: 1200 }, (_, i) => `u${i}`))).toBe('1,200 lines (u0, u1, u2…)');
  });
});
