import { memoryJournal } from '../../src/services/changes/journal';

/** A journal of `n` applied extends (one a minute from 2026-11-01, on the test store's account). */
export function appliedJournal(n: number) {
  const journal = memoryJournal();
  for (let i = 0; i < n; i++)
    journal.append({
      opId: `j:${i}`,
      time: new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString(),
      target: 'sandbox:test', // the test store's account: the view shows one account (issue 24)
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
