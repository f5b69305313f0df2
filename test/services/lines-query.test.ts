/** After a change whose rows were replaced in place, is the page still the server's? (issue 27) */
import { describe, expect, it } from 'vitest';
import { DEFAULT_QUERY, pageStaysAfter } from '../../src/services/lines-query';

describe('pageStaysAfter', () => {
  it('an upgrade moves nothing; an extend only where expiry orders or filters; create and delete always', () => {
    const q = DEFAULT_QUERY;
    expect(pageStaysAfter('upgrade', { ...q, orderBy: 'exp_date', status: 'expiring' })).toBe(true);
    expect(pageStaysAfter('extend', q)).toBe(true);
    expect(pageStaysAfter('extend', { ...q, search: 'ann', type: 'premium', orderBy: 'username' })).toBe(
      true,
    );
    expect(pageStaysAfter('extend', { ...q, orderBy: 'exp_date' })).toBe(false);
    for (const status of ['active', 'expiring', 'expired'] as const)
      expect(pageStaysAfter('extend', { ...q, status })).toBe(false);
    expect(pageStaysAfter('unsuspend', q)).toBe(true);
    expect(pageStaysAfter('unsuspend', { ...q, status: 'suspended' })).toBe(false);
    expect(pageStaysAfter('unsuspend', { ...q, orderBy: 'enabled' })).toBe(false);
    for (const op of ['create', 'trial', 'delete'] as const) expect(pageStaysAfter(op, q)).toBe(false);
  });
});
