import { describe, expect, it } from 'vitest';
import { storeOnSandbox } from '../helpers/app';

/** Work that was done, with something left to say, is not an error: the flash's word says which. */
describe('flash tones', () => {
  it('a paste that marked most of its lines is a warning, not an error', async () => {
    const env = await storeOnSandbox({ lines: 60 });
    await env.store.getState().loadLines();
    const rows = env.sb.repo.db
      .prepare('SELECT username FROM lines WHERE account_id = 1 ORDER BY id LIMIT 2')
      .all() as { username: string }[];
    await env.store.getState().markPasted(`${rows[0]!.username}\n${rows[1]!.username}\nnobody-at-all-001`);
    const flash = env.store.getState().flash!;
    expect(flash.text).toMatch(/^Marked 2 of 3 pasted; not found: nobody-at-all-001/);
    expect(flash.tone).toBe('warning');
  });

  it('a notify without a tone is info', async () => {
    const env = await storeOnSandbox({ lines: 1 });
    env.store.getState().notify('hello');
    expect(env.store.getState().flash?.tone).toBe('info');
  });
});
