import { describe, expect, it } from 'vitest';
import type { LineListItem } from '../../src/api/contract';
import type { LineNote } from '../../src/services/notes';
import { LINE_COLUMNS, lineColumns } from '../../src/ui/lines-columns';
import { layoutColumns, rowText } from '../../src/ui/tables';

const NOW = Date.UTC(2026, 10, 22, 12);
const line = (id: string, username: string, label: string) =>
  ({
    id,
    username,
    label,
    enabled: true,
    is_trial: false,
    connections: 2,
    exp_date: { ms: NOW + 40 * 86_400_000, raw: '' },
    created_at: null,
  }) as unknown as LineListItem;
const note = (name: string, phone: string, text: string): LineNote => ({
  name,
  phone,
  text,
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('the Note column, laid out without rendering', () => {
  const a = line('1', 'mohammedkowalski004123', 'Living room');
  const b = line('2', 'bo000001', 'Kitchen');
  const notes = new Map([
    ['1', note('Anna Smith', '+44 20 7946 0958', 'pays cash')],
    ['2', note('', '', 'trial for a friend')],
  ]);
  for (const width of [80, 100, 120]) {
    it(`at ${width} columns: rows fill the table, the username stays whole, the note is shown`, () => {
      // The browser lays its table out in the terminal's width less the cursor and mark cells.
      const total = width - 3;
      const laid = layoutColumns(lineColumns(notes), total, 1, { items: [a, b], now: NOW });
      const ids = laid.map((c) => c.column.id);
      expect(ids).toContain('note');
      expect(rowText(laid, a, NOW)).toHaveLength(total);
      expect(rowText(laid, null)).toContain('NOTE');
      expect(rowText(laid, a, NOW)).toContain(a.username);
      expect(rowText(laid, b, NOW)).toContain(width === 80 ? 'trial for a' : 'trial for a friend');
      const noteWidth = laid.find((c) => c.column.id === 'note')!.width;
      expect(noteWidth).toBeGreaterThanOrEqual(10);
      // On a narrow terminal the note takes the label's place (and the creation date's below 120).
      if (width === 80) expect(ids).not.toContain('label');
      else expect(ids).toContain('label');
      expect(rowText(laid, a, NOW)).toContain(
        width === 120 ? 'Anna Smith · +44 20 7946 0958' : width === 100 ? 'Anna Smith · +44' : 'Anna Smith',
      );
      if (width === 120) expect(ids).toContain('created');
      else expect(ids).not.toContain('created');
    });
  }

  it('hidden, the columns are the usual ones', () => {
    expect(lineColumns(null)).toBe(LINE_COLUMNS);
    expect(lineColumns(new Map()).map((c) => c.id)).toEqual([
      'username',
      'label',
      'note',
      'status',
      'type',
      'connections',
      'expiry',
      'created',
    ]);
  });
});
