/**
 * What the change service's tests start from: a sandbox behind the fault proxy (which counts what
 * reaches the service), a client through it, and an intent log's directory of its own; all closed
 * and removed after each test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '../../src/api/client';
import { type Dialect, type FaultRule, faultProxy } from '../helpers/fault-proxy';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';
import { cleanups } from '../helpers/wait';

export async function proxiedSandbox(opts: {
  readonly lines: number;
  readonly rules?: readonly FaultRule[];
  readonly dialect?: Dialect;
}) {
  const env = await sandbox({ lines: opts.lines });
  const proxy = await faultProxy(env.sb.baseUrl, { rules: opts.rules ?? [], dialect: opts.dialect ?? {} });
  const client = createClient({ baseUrl: proxy.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
  const dir = mkdtempSync(join(tmpdir(), 'intents-'));
  cleanups.push(async () => {
    await proxy.landed();
    await client.close();
    await proxy.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { env, proxy, client, dir };
}
