import { describe, expect, it } from 'vitest';
import { layoutHeader } from '../../src/ui/layout/header-items';

const joined = (l: ReturnType<typeof layoutHeader>) => `${l.head}${l.money}${l.rest}${l.badges}`;
const parts = {
  email: 'demo@sandbox.linedesk',
  money: '1,200 credits',
  lines: '240 lines',
  marked: '',
  badges: '[SANDBOX] ',
  runway: 'covers 12 days of renewals',
  drift: 'balance moved −50 credits unexplained',
};

describe('the header with the runway and the drift', () => {
  it('the runway goes after the product name, the drift after the lines count and the email; the balance always', () => {
    const wide = joined(layoutHeader(160, parts));
    expect(wide).toContain(' linedesk  demo@sandbox.linedesk  1,200 credits  240 lines  covers 12 days');
    expect(wide).toContain('balance moved −50 credits unexplained');
    const at100 = joined(layoutHeader(100, parts));
    expect(at100).not.toContain('covers');
    expect(at100).toContain('balance moved −50 credits unexplained');
    for (const width of [160, 120, 100, 80, 60, 40]) {
      const text = joined(layoutHeader(width, parts));
      expect(text.length, `${width}: ${text}`).toBeLessThanOrEqual(width);
      expect(text).toContain('1,200 credits');
    }
    // Without them, the header is as it was.
    const plain = { ...parts, runway: '', drift: '' };
    expect(joined(layoutHeader(100, plain))).toBe(
      ' linedesk  demo@sandbox.linedesk  1,200 credits  240 lines [SANDBOX] ',
    );
  });
  it('the runway goes before the email is shortened: which account it is matters more', () => {
    // The profiles e2e's header: the email whole fits once the runway has gone (a port of 5 digits).
    const second = {
      email: 'second@sandbox.linedesk',
      money: '250 credits',
      lines: '25 lines',
      marked: '',
      badges: '[second · 127.0.0.1:46467] ',
      runway: 'covers the next 30 days of renewals',
    };
    for (const width of [90, 100, 110]) {
      const text = joined(layoutHeader(width, second));
      expect(text, `${width}: ${text}`).toContain('second@sandbox.linedesk');
    }
  });
});
