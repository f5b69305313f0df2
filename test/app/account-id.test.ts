import { describe, expect, it } from 'vitest';
import { accountTargetId } from '../../src/app/account-id';

const URL_ = 'https://panel.example.com/';

describe('the account id of a remote service', () => {
  it('differs by key, carries no key, and is stable', () => {
    const a = accountTargetId(URL_, 'secret-key-a');
    expect(a).toBe(accountTargetId(URL_, 'secret-key-a'));
    expect(a).not.toBe(accountTargetId(URL_, 'secret-key-b'));
    expect(a.startsWith(`${URL_}#`)).toBe(true);
    expect(a).not.toContain('secret');
  });
});
