import type { LineStatus } from '../domain/line-status';

/**
 * The semantic tokens both front-ends print with: a column's tone, a flash's tone, a status. The
 * screens give each a colour (ui/theme.ts); the commands a terminal tint (headless/format.ts). Names
 * only: no colour lives here.
 */
const TOKENS = [
  'status.active',
  'status.expiring',
  'status.expired',
  'status.suspended',
  'status.unknown',
  'tone.info',
  'tone.success',
  'tone.error',
  'tone.warning',
  'ui.focus',
  'ui.muted',
  'ui.accent',
  'ui.badge',
  'ui.danger',
  'ui.mark',
] as const;

export type Token = (typeof TOKENS)[number];

/**
 * A flash's tone, also said in a word (NO_COLOR): `warning` is work done with something left to say
 * ("Marked 28 of 30; not found: …"), `error` only what failed. A partial success is never an error.
 */
export type Tone = 'info' | 'success' | 'warning' | 'error';

export const statusToken = (s: LineStatus): Token => `status.${s}`;
export const toneToken = (t: Tone): Token => `tone.${t}`;
