/**
 * What changed in a line between its marking and its sending that changes a bulk job's plan for it
 * (its cost, or whether it is sent): the read again before a job spends sends only lines whose plan
 * stands (services/changes/fresh-lines.ts).
 */
import { describe, expect, it } from 'vitest';
import { type BulkLine, planChanged } from '../../src/domain/bulk';

const was: BulkLine['before'] = {
  expMs: Date.parse('2026-12-01T00:00:00Z'),
  expRaw: '2026-12-01T00:00:00Z',
  connections: 1,
  enabled: true,
  isTrial: false,
};
const later = { ...was, expMs: Date.parse('2027-01-01T00:00:00Z'), expRaw: '2027-01-01T00:00:00Z' };

describe('planChanged', () => {
  it('a later expiry leaves an unsuspend as planned; not an extend (paid twice), an upgrade (prorated) nor a delete', () => {
    expect(planChanged('extend', was, later)).toBe(
      'its expiry moved from 2026-12-01 to 2027-01-01: someone may have extended it already',
    );
    expect(planChanged('upgrade', was, later)).toBe(
      'its expiry changed from 2026-12-01 to 2027-01-01: the upgrade’s price, by the days left, differs',
    );
    expect(planChanged('unsuspend', { ...was, enabled: false }, { ...later, enabled: false })).toBeNull();
    expect(planChanged('delete', was, later)).toBe(
      'its expiry changed from 2026-12-01 to 2027-01-01: the paid time it loses differs',
    );
  });

  it('a moved expiry says from when to when: the times when both fall on one day', () => {
    const hour = { ...was, expMs: was.expMs! + 3_600_000, expRaw: '2026-12-01T01:00:00Z' };
    expect(planChanged('extend', was, hour)).toBe(
      'its expiry moved from 2026-12-01 00:00 UTC to 2026-12-01 01:00 UTC: someone may have extended it already',
    );
    expect(planChanged('extend', was, { ...was, expMs: null, expRaw: null })).toMatch(
      /^its expiry moved from 2026-12-01 to no expiry:/,
    );
  });

  it('another number of connections, a trial, a suspension: the plan changed, said in words', () => {
    expect(planChanged('extend', was, { ...was, connections: 2 })).toBe('its connections went from 1 to 2');
    expect(planChanged('upgrade', was, { ...was, connections: 3 })).toBe('its connections went from 1 to 3');
    expect(planChanged('extend', was, { ...was, isTrial: true })).toBe('it is a trial now');
    expect(planChanged('unsuspend', { ...was, enabled: false }, was)).toBe('it is not suspended any more');
    expect(planChanged('unsuspend', was, { ...was, enabled: false })).toBe('it was suspended meanwhile');
    // What a plan does not depend on: a delete's connections, an extend's state.
    expect(planChanged('delete', was, { ...was, connections: 4 })).toBeNull();
    expect(planChanged('extend', was, { ...was, enabled: false })).toBeNull();
  });
});
