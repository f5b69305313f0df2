import { describe, expect, it } from 'vitest';
import type { ServerDate } from '../../src/api/contract';
import { diagnose } from '../../src/domain/diagnosis';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const H = 3_600_000;
const at = (ms: number): ServerDate => ({ ms, raw: new Date(ms).toISOString() });
const line = (over: Partial<{ enabled: boolean; is_trial: boolean; exp_date: ServerDate | null }>) => ({
  enabled: true,
  is_trial: false,
  exp_date: at(NOW + 100 * 24 * H),
  ...over,
});

describe('why a line does or does not work now', () => {
  it('every reason at once, each with its fix', () => {
    const d = diagnose(line({ enabled: false, exp_date: at(NOW - 57 * 24 * H) }), NOW);
    expect(d.works).toBe(false);
    expect(d.why).toBe('suspended and expired 57 days ago');
    expect(d.fixes).toEqual(['unsuspend', 'extend']);
  });

  it('a trial that expired is replaced, not extended', () => {
    const d = diagnose(line({ is_trial: true, exp_date: at(NOW - 3 * H) }), NOW);
    expect(d.fixes).toEqual(['newLine']);
    expect(d.why).toContain('trial line');
  });

  it('works, but expires today: extending is offered', () => {
    const d = diagnose(line({ exp_date: at(NOW + 2 * H) }), NOW);
    expect(d).toEqual({ works: true, why: 'works; but expires today', fixes: ['extend'] });
  });

  it('works, nothing to fix', () => {
    expect(diagnose(line({}), NOW)).toEqual({ works: true, why: 'works; expires in 100 days', fixes: [] });
  });

  it('an unreadable expiry proves nothing', () => {
    const d = diagnose(line({ exp_date: { ms: null, raw: 'someday' } }), NOW);
    expect(d.works).toBeNull();
    expect(d.why).toContain('"someday" could not be read');
  });
});
