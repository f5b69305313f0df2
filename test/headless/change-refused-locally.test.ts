/**
 * A change refused here, before anything leaves (another job's intent file damaged from its first
 * record: no line can be told apart from that job's), exits 1 with the file named: not 5, which says
 * the service could not be reached. Nothing is sent.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { faultProxy } from '../helpers/fault-proxy';
import { envFor, headless, homeDirs } from '../helpers/headless';
import { books, DEMO_KEY, sandbox } from '../helpers/sandbox';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

it('a change refused because an intent file is damaged exits 1 (not "cannot reach the service"), nothing sent', async () => {
  const env = await sandbox({ lines: 20 });
  const proxy = await faultProxy(env.sb.baseUrl, {
    rules: [
      { match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'applyLate', ms: 300, answer: 'gateway' } },
    ],
  });
  cleanups.push(async () => {
    await proxy.landed();
    await proxy.close();
  });
  const home = homeDirs();
  const [a, b] = (await env.client.listLines({ limit: 20, type: 'premium' })).lines;
  const run = (...argv: string[]) => headless(argv, { env: envFor(proxy.baseUrl, DEMO_KEY, home) });
  proxy.hold();
  expect((await run('extend', a!.username, '--yes')).code).toBe(3);
  await proxy.landed();
  const data = home.LINEDESK_DATA_DIR;
  const open = (readdirSync(data, { recursive: true }) as string[]).filter(
    (f) => f.endsWith('.jsonl') && !f.endsWith('journal.jsonl'),
  );
  expect(open).toHaveLength(1);
  const file = join(data, open[0]!);
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, `{"n":0,"job":{"id":"dam\n${text.slice(text.indexOf('\n') + 1)}`);
  const charged = books(env.sb).ledger.length;
  const sent = proxy.forwarded.get('PUT /v1/lines/extend') ?? 0;
  const r = await run('extend', b!.username, '--yes');
  expect(r.stderr).toContain(file);
  expect(r.code, r.stderr).toBe(1);
  expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(sent);
  expect(books(env.sb).ledger).toHaveLength(charged);
});
