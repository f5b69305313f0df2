import { memoryJournal } from '../../src/services/changes/journal';

/** The test store's account: the journal view shows one account (issue 24). */
const TEST_ACCOUNT = 'sandbox:test';

/**
 * A journal of `n` applied extends (one a minute from 2026-11-01), each on the account `target` names
 * for it: the test store's by default.
 */
export function appliedJournal(n: number, target: (i: number) => string = () => TEST_ACCOUNT) {
  const journal = memoryJournal();
  for (let i = 0; i < n; i++)
    journal.append({
      opId: `j:${i}`,
      time: new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString(),
      target: target(i),
      operation: 'extend',
      lineId: `id${i}`,
      username: `user${String(i).padStart(3, '0')}`,
      quotedCost: 1,
      estimate: true,
      deducedCredits: 1,
      newBalance: 100 - i,
      outcome: 'applied',
    });
  return journal;
}
