/**
 * Sandboxes where a line is listed but not looked up the usual way, each behind a client to use in
 * the test (closed at its end):
 * - `farLines`: 2,000 lines (21 pages, more than a lookup walk reads) behind a server whose search
 *   matches no id, with the list's first and last lines (the last never reached by such a walk);
 * - `brokenLines`: 40 lines behind a server that lists one item that does not read (`broken`).
 */
import { createClient } from '../../src/api/client';
import { withBrokenItem } from './broken-item';
import { faultProxy } from './fault-proxy';
import { DEMO_KEY, sandbox } from './sandbox';
import { cleanups } from './wait';

export async function farLines() {
  const env = await sandbox({ lines: 2_000 });
  const proxy = await faultProxy(env.sb.baseUrl, { dialect: { searchIgnoresIds: true } });
  const client = createClient({ baseUrl: proxy.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
  cleanups.push(async () => {
    await client.close();
    await proxy.close();
  });
  const all = (await env.client.listLines({ limit: 1 })).totalHits;
  const [last] = (await env.client.listLines({ offset: all - 1, limit: 1 })).lines;
  const [first] = (await env.client.listLines({ offset: 0, limit: 1 })).lines;
  return { env, proxy, client, first: first!, last: last! };
}

export async function brokenLines() {
  const env = await sandbox({ lines: 40 });
  const srv = await withBrokenItem(env.sb.baseUrl);
  const client = createClient({ baseUrl: srv.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
  cleanups.push(async () => {
    await client.close();
    await srv.close();
  });
  return { env, srv, client };
}
