import { describe, expect, it } from 'vitest';
import { cellWidth } from '../../src/domain/format';
import { wrapCells } from '../../src/present/wrap';

describe('wrapCells: a line cut into rows of the pager', () => {
  it('keeps every character, in order, each row within the width; a wide character is never split', () => {
    expect(wrapCells('', 10)).toEqual(['']);
    expect(wrapCells('short', 10)).toEqual(['short']);
    expect(wrapCells('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    const wide = '日本語のテキスト';
    const rows = wrapCells(wide, 5);
    expect(rows.join('')).toBe(wide);
    for (const r of rows) expect(cellWidth(r)).toBeLessThanOrEqual(5);
    expect(rows[0]).toBe('日本');
  });
});
