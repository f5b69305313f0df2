/** The loopback check's quick spellings answer as Node's BlockList does (issue #27: it is not loaded for them). */
import { BlockList } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLoopbackAddress } from '../../src/api/base-url';

const blockList = new BlockList();
blockList.addSubnet('127.0.0.0', 8, 'ipv4');
blockList.addAddress('::1', 'ipv6');
const byBlockList = (a: string) => blockList.check(a, a.includes(':') ? 'ipv6' : 'ipv4');

describe('isLoopbackAddress', () => {
  it('answers as a BlockList of 127.0.0.0/8 and ::1 for any IPv4 or IPv6 address', () => {
    const near127 = fc
      .tuple(fc.constantFrom(126, 127, 128, 12, 1, 0, 255), fc.nat(255), fc.nat(255), fc.nat(255))
      .map((p) => p.join('.'));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.ipV4(),
          near127,
          fc.ipV6(),
          fc.constantFrom('::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:0:0:1', '::2'),
        ),
        (a) => {
          expect(isLoopbackAddress(a)).toBe(byBlockList(a));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('is false for what is not an address', () => {
    for (const a of ['localhost', '127.0.0.1.example', '0127.0.0.1', '127.1', '', '::1x'])
      expect(isLoopbackAddress(a)).toBe(false);
  });
});
