/**
 * Issue 23, item 8(c): the paste timeout could change freely and no test failed. A bracketed paste
 * whose end marker never comes ends 300 ms after the last byte (the README and paste.ts say so), as
 * text: its Enter, `q` or Esc never run as keys, and the keys typed after it are keys again. A held
 * marker start ("ESC") is keys after 20 ms. The clock is vitest's, so the boundary is exact: one
 * millisecond early nothing has happened.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installPasteFilter, PASTE_START, type ReadableInput } from '../../src/keys/paste';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** stdin as Ink reads it: `read()` until null, again on every 'readable'. */
function terminal() {
  const chunks: string[] = [];
  const keys: string[] = [];
  const pastes: string[] = [];
  const drain = () => {
    for (;;) {
      const c = stdin.read();
      if (c === null) return;
      if (c !== '') keys.push(String(c));
    }
  };
  const stdin: ReadableInput = {
    read: () => chunks.shift() ?? null,
    emit: () => {
      drain();
      return true;
    },
  };
  const remove = installPasteFilter(stdin, (t) => pastes.push(t));
  const write = (s: string) => {
    chunks.push(s);
    drain();
  };
  return { write, keys, pastes, remove };
}

describe('an unfinished paste ends after its timeout, as text', () => {
  it('299 ms after the last byte it is still a paste in progress; at 300 ms it ends, none of it keys', () => {
    const t = terminal();
    t.write('j');
    t.write(`${PASTE_START}smith0042\rq\u001b`);
    vi.advanceTimersByTime(299);
    expect(t.pastes).toEqual([]);
    expect(t.keys).toEqual(['j']);
    vi.advanceTimersByTime(1);
    expect(t.pastes).toEqual(['smith0042\rq\u001b']);
    expect(t.keys).toEqual(['j']);
    // Typed after it: keys again.
    t.write('k\r');
    expect(t.keys).toEqual(['j', 'k\r']);
    t.remove();
  });

  it('the window counts from the last byte of the paste, not its first', () => {
    const t = terminal();
    t.write(`${PASTE_START}abc`);
    vi.advanceTimersByTime(250);
    t.write('def\r');
    vi.advanceTimersByTime(299);
    expect(t.pastes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(t.pastes).toEqual(['abcdef\r']);
    expect(t.keys).toEqual([]);
    t.remove();
  });

  it('a held ESC is the Esc key after 20 ms, not sooner', () => {
    const t = terminal();
    t.write('\u001b');
    vi.advanceTimersByTime(19);
    expect(t.keys).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(t.keys).toEqual(['\u001b']);
    expect(t.pastes).toEqual([]);
    t.remove();
  });
});
