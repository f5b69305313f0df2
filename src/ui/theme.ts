import type { Token } from '../present/tokens';

export { statusToken, type Token, toneToken } from '../present/tokens';

/** Each semantic token's colour; components never name raw colours. NO_COLOR (any value) turns colour off. */
const PALETTE: Readonly<Record<Token, string>> = {
  'status.active': 'green',
  'status.expiring': 'yellow',
  'status.expired': 'red',
  'status.suspended': 'magenta',
  'status.unknown': 'gray',
  'tone.info': 'cyan',
  'tone.success': 'green',
  'tone.error': 'red',
  'tone.warning': 'yellow',
  'ui.focus': 'cyan',
  'ui.muted': 'gray',
  'ui.accent': 'cyan',
  'ui.badge': 'yellow',
  'ui.danger': 'red',
  'ui.mark': 'yellow',
};

const noColor = () => process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '';

/** The colour of a token, or undefined when colour is off (words still carry the meaning). */
export function color(token: Token): string | undefined {
  return noColor() ? undefined : PALETTE[token];
}
