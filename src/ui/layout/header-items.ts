import { cellWidth, fitWidth } from '../../domain/format';

/** The header's items, each whole or absent: a number is never cut. */
interface HeaderParts {
  readonly email: string;
  /** The balance, always shown (the money is what the header is for). */
  readonly money: string;
  /** The balance in fewer cells ("1,000 credits (stale)"), for a line too short for `money`. */
  readonly moneyShort?: string;
  /** "2,623 lines", or ''. */
  readonly lines: string;
  /** "2,623 marked", or ''. */
  readonly marked: string;
  /** "[READ-ONLY] [SANDBOX]": always shown. */
  readonly badges: string;
  /** "covers 12 days of renewals": the first item to go when the line is short. */
  readonly runway?: string;
  /** "balance moved −50 credits unexplained": kept until only the balance and badges fit. */
  readonly drift?: string;
}

interface HeaderLayout {
  /** " linedesk  email  " or what is left of it (the email may be shortened, it holds no count). */
  readonly head: string;
  readonly money: string;
  /** "  2,623 lines", then the runway and the drift when they fit, or ''. */
  readonly rest: string;
  /** "2,623 marked  [SANDBOX] ". */
  readonly badges: string;
}

const EMAIL_MIN = 8;

/**
 * Lays the header out in `width` cells. When it does not fit, whole items go, in this order: the
 * product name, the runway, the lines count (the list says it too), then the email (first
 * shortened, never below 8 cells: which account the balance and the marks are), then the balance
 * drift, then the marked count. The balance, read-only and the service's badge always stay. At
 * 80 columns with marks the email is kept, shortened (issue 23 dropped it before the lines count).
 */
export function layoutHeader(width: number, p: HeaderParts): HeaderLayout {
  // The runway goes first (after the product name), before the email is shortened; the drift after
  // the email.
  const extras = [
    { runway: true, drift: true, upTo: 2 },
    { runway: false, drift: true, upTo: 6 },
    { runway: false, drift: false, upTo: 7 },
  ];
  for (const x of extras) {
    const extra = `${x.runway && p.runway ? `  ${p.runway}` : ''}${x.drift && p.drift ? `  ${p.drift}` : ''}`;
    const l = layoutWith(width, p, extra, x.upTo);
    if (l) return l;
  }
  const last = { head: ' ', money: p.money, rest: '', badges: p.badges };
  const wide = cellWidth(last.head) + cellWidth(last.money) + cellWidth(last.badges) > width;
  return wide && p.moneyShort ? { ...last, money: p.moneyShort } : last;
}

function layoutWith(width: number, p: HeaderParts, extra: string, upTo: number): HeaderLayout | null {
  const badgesOf = (marked: boolean) => `${marked && p.marked ? `  ${p.marked}  ` : ' '}${p.badges}`;
  const restOf = (lines: boolean) => `${lines && p.lines ? `  ${p.lines}` : ''}${extra}`;
  const fits = (l: HeaderLayout) =>
    cellWidth(l.head) + cellWidth(l.money) + cellWidth(l.rest) + cellWidth(l.badges) <= width;
  /** The email as wide as the rest leaves room for, or null under 8 cells. */
  const shortened = (lines: boolean): HeaderLayout | null => {
    const rest = restOf(lines);
    const badges = badgesOf(true);
    const room = width - cellWidth(p.money) - cellWidth(rest) - cellWidth(badges) - 3;
    return room >= EMAIL_MIN && p.email
      ? { head: ` ${fitWidth(p.email, room)}  `, money: p.money, rest, badges }
      : null;
  };
  const tries: Array<() => HeaderLayout | null> = [
    () => ({ head: ` linedesk  ${p.email}  `, money: p.money, rest: restOf(true), badges: badgesOf(true) }),
    () => ({ head: ` ${p.email}  `, money: p.money, rest: restOf(true), badges: badgesOf(true) }),
    () => shortened(true),
    () => ({ head: ` ${p.email}  `, money: p.money, rest: restOf(false), badges: badgesOf(true) }),
    () => shortened(false),
    () => ({ head: ' ', money: p.money, rest: restOf(false), badges: badgesOf(true) }),
    () => ({ head: ' ', money: p.money, rest: restOf(false), badges: badgesOf(false) }),
  ];
  for (const t of tries.slice(0, upTo)) {
    const l = t();
    if (l && fits(l)) return l;
  }
  return null;
}
