/** A failed expired-view lookup removes only its own cached entry, never a newer one. */
import { describe, expect, it, vi } from 'vitest';
import type { LinesPage } from '../../src/api/contract';
import type { ServiceClient } from '../../src/services/client';
import type { ExpiredBlock } from '../../src/services/expired-count';
import { DEFAULT_QUERY, linesPager } from '../../src/services/lines-query';

const lookups: Array<{ resolve: (b: ExpiredBlock | null) => void; reject: (e: unknown) => void }> = [];

vi.mock('../../src/services/expired-view', () => ({
  findExpiredBlock: () =>
    new Promise<ExpiredBlock | null>((resolve, reject) => lookups.push({ resolve, reject })),
  expiredPage: async (): Promise<LinesPage> =>
    ({
      offset: 0,
      limit: 10,
      totalHits: 0,
      totalReturns: 0,
      hasPreviousPage: false,
      previousOffset: null,
      hasNextPage: false,
      nextOffset: null,
      lines: [],
      unreadable: [],
    }) as LinesPage,
}));

describe('linesPager: expired-view lookups', () => {
  it('an older lookup failing after a forget leaves the newer lookup cached (no extra search)', async () => {
    const pager = linesPager({} as ServiceClient, () => 1_000);
    const q = { ...DEFAULT_QUERY, status: 'expired' as const };
    const old = pager.page(q, 0, 10);
    expect(lookups).toHaveLength(1);
    pager.forget(); // the page cache was cleared (a change): the next read looks the block up again
    const fresh = pager.page(q, 0, 10);
    expect(lookups).toHaveLength(2);
    lookups[0]?.reject(new Error('network'));
    await expect(old).rejects.toThrow('network');
    lookups[1]?.resolve({ start: 0, count: 0 } as ExpiredBlock);
    await fresh;
    const again = pager.page(q, 0, 10);
    expect(lookups).toHaveLength(2); // answered from the newer lookup, not searched again
    await again;
  });
});
