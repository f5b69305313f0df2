import { describe, expect, it } from 'vitest';
import { stepConnections, stepMonths } from '../../src/domain/steps';

describe('steppers for ←/→', () => {
  it('walk the regular durations and stop at their ends', () => {
    expect(stepMonths(1, 1)).toBe(3);
    expect(stepMonths(6, 1)).toBe(12);
    expect(stepMonths(12, 1)).toBe(12);
    expect(stepMonths(3, -1)).toBe(1);
    expect(stepMonths(1, -1)).toBe(1);
  });

  it('keep connections from 1 to 6', () => {
    expect(stepConnections(1, -1)).toBe(1);
    expect(stepConnections(5, 1)).toBe(6);
    expect(stepConnections(6, 1)).toBe(6);
  });
});
