import type { LineListItem, Package } from '../../src/api/contract';

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

/** A package as the catalog gives it: one month, 5 credits, 2 per extra connection; `over` on top. */
export const packageItem = (over: Partial<Package> = {}): Package =>
  ({
    id: 1,
    package_name: '1 month',
    duration: 1,
    is_trial: false,
    credits_cost: 5,
    extra_connection_credits_cost: 2,
    min_balance: 0,
    ...over,
  }) as Package;
