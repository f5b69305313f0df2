import { describe, expect, it } from 'vitest';
import { accountTargetId, sameServiceAs } from '../../src/app/account-id';

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

describe('another key of the same service', () => {
  it("is the same URL with another key's fingerprint; never itself, another URL, or a sandbox", () => {
    const a = accountTargetId(URL_, 'key-a');
    const same = sameServiceAs(a);
    expect(same(accountTargetId(URL_, 'key-b'))).toBe(true);
    expect(same(a)).toBe(false);
    expect(same(accountTargetId('https://panel.example.com/other/', 'key-b'))).toBe(false);
    expect(same(`${URL_}#not-hex`)).toBe(false);
    expect(sameServiceAs('sandbox:/tmp/x.sqlite')('sandbox:/tmp/y.sqlite')).toBe(false);
  });
});
