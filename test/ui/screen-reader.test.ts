import { describe, expect, it } from 'vitest';
import { parseCli } from '../../src/cli-args';
import { asciiText } from '../../src/ui/glyphs';
import { fitFrame, focusOf, parkingWrite, screenReaderWanted, selectedRow } from '../../src/ui/screen-reader';

describe('the screen-reader mode: asked for, and the cursor parked', () => {
  it('the flag, Ink’s own variable or the setting turns it on', () => {
    const app = (argv: string[]) => {
      const c = parseCli(argv);
      if (c.kind !== 'app') throw new Error(c.kind);
      return c.options;
    };
    expect(app(['--screen-reader']).screenReader).toBe(true);
    expect(app([]).screenReader).toBe(false);
    expect(screenReaderWanted(false, {}, undefined)).toBe(false);
    expect(screenReaderWanted(true, {}, undefined)).toBe(true);
    expect(screenReaderWanted(false, { INK_SCREEN_READER: 'true' }, undefined)).toBe(true);
    expect(screenReaderWanted(false, { INK_SCREEN_READER: '1' }, false)).toBe(false);
    expect(screenReaderWanted(false, {}, true)).toBe(true);
  });

  it('the selected row of a frame is the last that Ink said "(selected)"', () => {
    expect(selectedRow('head\n(selected) bob, active\ncarol\nfoot')).toBe(1);
    expect(selectedRow('head\nlistitem: (selected, checked) x\nfoot')).toBe(1);
    expect(selectedRow('head\nbob (selected) here\nfoot')).toBeNull();
  });

  it('a text field being typed into takes the cursor, after its text', () => {
    expect(focusOf('head\n(selected) bob\n :  textbox: ext\nfoot')).toEqual({ row: 2, column: 16 });
    expect(focusOf('head\n search: textbox: \n(selected) bob')).toEqual({ row: 1, column: 18 });
    expect(focusOf('head\n(selected) bob\nfoot')).toEqual({ row: 1, column: 0 });
    expect(focusOf('head\nfoot')).toBeNull();
  });

  it('after a frame the cursor goes up to its selected row, and back down before the next write', () => {
    const out: string[] = [];
    const tasks: Array<() => void> = [];
    const write = parkingWrite(
      (c) => out.push(c) > 0,
      () => 24,
      (fn) => tasks.push(fn),
    );
    write('\u001b[2K'); // Ink's erase: not a frame
    write('head\n(selected) bob\ncarol\nfoot');
    expect(out).toEqual(['\u001b[2K', 'head\n(selected) bob\ncarol\nfoot']);
    tasks.shift()!();
    expect(out.at(-1)).toBe('\r\u001b[2A\u001b[?25h');
    write('\u001b[2K');
    expect(out.slice(-2)).toEqual(['\u001b[2B', '\u001b[2K']);
    // Whatever moved it down, the cursor goes back to the frame's selected row once the turn ends:
    // Ink's render that changed nothing writes only its synchronized-output markers.
    expect(tasks).toHaveLength(1);
    tasks.shift()!();
    expect(out.at(-1)).toBe('\r\u001b[2A\u001b[?25h');
    write('\u001b[?2026h');
    write('\u001b[?2026l');
    expect(tasks).toHaveLength(1);
    tasks.shift()!();
    expect(out.at(-1)).toBe('\r\u001b[2A\u001b[?25h');
    write('\u001b[?2026h');
    expect(out.slice(-2)).toEqual(['\u001b[2B', '\u001b[?2026h']);
    // A frame with nothing selected leaves the cursor where Ink put it.
    write('head\nfoot');
    tasks.shift()!();
    expect(out.at(-1)).toBe('head\nfoot');
  });

  it('a frame taller than the terminal loses the rows before its last (the footer stays)', () => {
    const frame = ['head', 'a', 'b', 'c', 'd', 'foot'].join('\n');
    expect(fitFrame(frame, 5)).toBe('head\na\nb\nfoot');
    expect(fitFrame(frame, 7)).toBe(frame);
    const out: string[] = [];
    parkingWrite(
      (c) => out.push(c) > 0,
      () => 5,
      () => {},
    )(frame);
    expect(out).toEqual(['head\na\nb\nfoot']);
  });

  it('stray markers are blanks and boxes gone, never wider than what they replace', () => {
    expect(asciiText('› bob ● ── x ──│', true)).toBe('  bob      x    ');
    expect(asciiText('1–20 · ok', true)).toBe('1-20 , ok'); // a middle dot is a pause (a comma), not a full stop;
  });
});
