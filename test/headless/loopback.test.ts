/**
 * A command whose plain-http service name resolves off this machine is refused before connecting:
 * exit 2 (the configuration is wrong, nothing was sent; a retry on 5 would never help), the host and
 * the address named, never the key.
 */
import { describe, expect, it } from 'vitest';
import type { Resolver } from '../../src/api/node-http';
import { envFor, headless } from '../helpers/headless';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';

const to =
  (address: string): Resolver =>
  async () => [{ address, family: 4 }];
const tune = (lookup: Resolver) => ({
  sleep: () => new Promise<void>((r) => setTimeout(r, 5)),
  client: { retry: { maxAttempts: 1 }, lookup },
});

describe('plain http to a name that resolves elsewhere', () => {
  it('is refused before connecting, exit 2, reason named, key never printed; the same name on loopback works', async () => {
    const { sb } = await sandbox({ lines: 5 });
    const port = new URL(sb.baseUrl).port;
    const env = envFor(`http://shop.localhost:${port}`, DEMO_KEY);

    const ok = await headless(['account', '--json'], { env, tune: tune(to('127.0.0.1')) });
    expect(ok.code).toBe(0);
    const before = sb.repo.accounts()[0]!.credits;

    for (const argv of [
      ['account'],
      ['account', '--json'],
      ['lines', '--ndjson'],
      ['extend', 'anyone0001', '--months', '1', '--yes'],
    ]) {
      const r = await headless(argv, { env, tune: tune(to('192.0.2.7')) });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toContain('shop.localhost');
      expect(r.stderr).toContain('192.0.2.7');
      expect(r.stderr).toMatch(/nothing was sent/i);
      expect(r.stdout + r.stderr).not.toContain(DEMO_KEY);
      if (argv.includes('--json'))
        expect(JSON.parse(r.stderr).error).toMatchObject({ code: 'config', exit: 2 });
    }
    expect(sb.repo.accounts()[0]!.credits).toBe(before);
  });
});
