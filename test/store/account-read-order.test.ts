/**
 * An account read still on its way must not put an older balance back over one given since by a
 * change's reply or by the change service's own read: the header would quote credits already spent
 * until the next read (a review found the bulk preview's read landing after a job's start).
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client';
import { loaded } from '../../src/store/types';
import { storeOnSandbox } from '../helpers/app';
import { sandbox } from '../helpers/sandbox';

/** The real client; once `arm()`ed, the answer of its next `me()` is held until `release()`. */
function holdingMe(client: ApiClient) {
  let release = () => {};
  let gate: Promise<void> | null = null;
  const held = new Proxy(client, {
    get(target, prop, receiver) {
      if (prop !== 'me') return Reflect.get(target, prop, receiver);
      return async (...args: unknown[]) => {
        const answer = await (target.me as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        const waitFor = gate;
        gate = null;
        if (waitFor) await waitFor;
        return answer;
      };
    },
  });
  const arm = () => {
    gate = new Promise<void>((r) => {
      release = r;
    });
  };
  return { client: held, arm, release: () => release() };
}

type Store = Awaited<ReturnType<typeof storeOnSandbox>>['store'];
type State = ReturnType<Store['getState']>;

describe('the header balance', () => {
  const givers: ReadonlyArray<readonly [string, (s: State) => void]> = [
    ['a single change’s reply', (s) => s.balanceAfter(60)],
    ['a job’s reply', (s) => s.balanceSeen(60)],
    ['the change service’s read', (s) => s.accountRead({ ...loaded(s.account)!, credits: 60 })],
  ];
  for (const [name, give] of givers) {
    it(`an account read sent before ${name} does not put the older balance back`, async () => {
      const env = await sandbox({ lines: 5, credits: 100 });
      const me = holdingMe(env.client);
      const { store } = await storeOnSandbox({}, { client: me.client }, env);
      await store.getState().loadAccount();
      expect(loaded(store.getState().account)?.credits).toBe(100);
      me.arm();
      // Answered with 100 by the server, held on its way back.
      const late = store.getState().loadAccount();
      give(store.getState());
      expect(loaded(store.getState().account)?.credits).toBe(60);
      me.release();
      await late;
      expect(loaded(store.getState().account)?.credits).toBe(60);
      expect(store.getState().account.status).toBe('ready');
    });
  }
});
