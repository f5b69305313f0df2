import type { LineListItem } from '../../src/api/contract';

/**
 * A line as the list gives it, for tests that need one without a sandbox: an enabled paid line of
 * one connection, no host, no label, no expiry; `over` sets what the test is about.
 */
export const lineItem = (over: Partial<LineListItem> = {}): LineListItem => ({
  id: '1',
  hostname: null,
  username: 'u',
  password: 'p',
  label: '',
  enabled: true,
  connections: 1,
  is_trial: false,
  exp_date: null,
  start_date: null,
  created_at: null,
  ...over,
});
