// A request made ahead (`after`) holds a connection and writes nothing until its gate opens. Ended
// before then (its caller aborts it, or the connection is closed under it) it never left: "not
// sent", never "unknown". Once its gate opened and it may have reached the server, an abort or a
// reset is "unknown" as for any request. The transport is shared with the credit-spending
// requests, so each case is played with an extend too, against the real sandbox behind a proxy.
import { expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import { AbortedError, type LinedeskError, NetworkError } from '../../src/api/errors';
import { faultProxy } from '../helpers/fault-proxy';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';
import { json, scriptedServer } from '../helpers/scripted-server';
import { cleanups, until } from '../helpers/wait';

const LIST = 'GET /v1/lines/all';
const EXTEND = 'PUT /v1/lines/extend';

async function setup(maxAttempts = 1) {
  const { sb, client: direct } = await sandbox({ lines: 40 });
  const proxy = await faultProxy(sb.baseUrl);
  const client = createClient({
    baseUrl: proxy.baseUrl,
    apiKey: DEMO_KEY,
    retry: { maxAttempts, baseDelayMs: 1, maxDelayMs: 1 },
  });
  cleanups.push(async () => {
    await client.close();
    await proxy.close();
  });
  const line = (await direct.listLines({ limit: 40 })).lines.find((l) => !l.is_trial)!;
  return { proxy, client, line };
}

/** A gate a test opens by hand. */
function gate() {
  let open!: () => void;
  const after = new Promise<void>((r) => {
    open = r;
  });
  return { after, open };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as LinedeskError,
  );

it('a gated read its caller aborts before its gate opens never left: not sent', async () => {
  const { proxy, client } = await setup();
  const abort = new AbortController();
  const call = failure(client.listLines({ limit: 1 }, { after: gate().after, signal: abort.signal }));
  // Its connection is made while it waits.
  await until(() => proxy.connections() === 1);
  abort.abort();
  const e = await call;
  expect(e).toBeInstanceOf(AbortedError);
  expect(e.outcome).toBe('not_sent');
  expect(proxy.received.get(LIST)).toBeUndefined();
});

it('a gated extend its caller aborts before its gate opens never left: not sent, nothing charged', async () => {
  const { proxy, client, line } = await setup();
  const abort = new AbortController();
  const call = failure(
    client.extendLine({ id: line.id, duration: 1 }, { after: gate().after, signal: abort.signal }),
  );
  await until(() => proxy.connections() === 1);
  abort.abort();
  const e = await call;
  expect(e).toBeInstanceOf(AbortedError);
  expect(e.outcome).toBe('not_sent');
  expect(proxy.received.get(EXTEND)).toBeUndefined();
});

it('a gated read whose connection is closed before its gate opens never left: not sent', async () => {
  const { proxy, client } = await setup();
  const call = failure(client.listLines({ limit: 1 }, { after: gate().after }));
  await until(() => proxy.connections() === 1);
  proxy.drop();
  const e = await call;
  expect(e).toBeInstanceOf(NetworkError);
  expect(e.outcome).toBe('not_sent');
  expect(proxy.received.get(LIST)).toBeUndefined();
});

it('a gated extend whose connection is closed before its gate opens is not sent: sent once when its gate opens', async () => {
  const { proxy, client, line } = await setup(3);
  const { after, open } = gate();
  let ended = false;
  const call = client.extendLine({ id: line.id, duration: 1 }, { after });
  call
    .then(
      () => {},
      () => {},
    )
    .finally(() => {
      ended = true;
    });
  await until(() => proxy.connections() === 1);
  proxy.drop();
  // Tried again (it never left), on a new connection, still waiting for its gate.
  await until(() => proxy.connections() === 2 || ended);
  expect(proxy.received.get(EXTEND)).toBeUndefined();
  open();
  const res = await call;
  expect(res.deducedCredits).toBeGreaterThan(0);
  expect(proxy.forwarded.get(EXTEND)).toBe(1);
});

it('a gated extend aborted after its gate opened, once at the server, is unknown', async () => {
  const { proxy, client, line } = await setup(3);
  proxy.set({ rules: [{ match: EXTEND, fault: { kind: 'applyLate', ms: 0, answer: 'hold' } }] });
  proxy.hold();
  const { after, open } = gate();
  const abort = new AbortController();
  const call = failure(client.extendLine({ id: line.id, duration: 1 }, { after, signal: abort.signal }));
  await until(() => proxy.connections() === 1);
  open();
  await until(() => proxy.received.get(EXTEND) === 1);
  abort.abort();
  const e = await call;
  expect(e).toBeInstanceOf(AbortedError);
  expect(e.outcome).toBe('unknown');
  // It was applied behind the abort: "unknown" was the truth.
  await proxy.landed();
  expect(proxy.forwarded.get(EXTEND)).toBe(1);
});

it('a gated extend whose reply is lost after its gate opened is unknown, sent once', async () => {
  const { proxy, client, line } = await setup(3);
  proxy.set({ rules: [{ match: EXTEND, fault: { kind: 'replyLost' } }] });
  const { after, open } = gate();
  const call = failure(client.extendLine({ id: line.id, duration: 1 }, { after }));
  await until(() => proxy.connections() === 1);
  open();
  const e = await call;
  expect(e).toBeInstanceOf(NetworkError);
  expect(e.outcome).toBe('unknown');
  expect(proxy.forwarded.get(EXTEND)).toBe(1);
});

it('a read aborted while it waits to be tried again, after an attempt the server answered, is unknown', async () => {
  const server = await scriptedServer((_req, res) =>
    json(res, 503, { code: 'server_error', message: 'busy', requestId: 'r' }),
  );
  const attempts: number[] = [];
  const client = createClient({
    baseUrl: server.baseUrl,
    apiKey: DEMO_KEY,
    retry: { maxAttempts: 3, baseDelayMs: 60_000, maxDelayMs: 60_000, budgetMs: 600_000 },
    random: () => 1,
    onEvent: (e) => attempts.push(e.attempt),
  });
  cleanups.push(async () => {
    await client.close();
    await server.close();
  });
  const abort = new AbortController();
  const call = failure(client.listLines({ limit: 1 }, { signal: abort.signal }));
  // The first attempt was answered: the read now waits out its backoff.
  await until(() => attempts.length === 1);
  abort.abort();
  const e = await call;
  expect(e).toBeInstanceOf(AbortedError);
  expect(e.outcome).toBe('unknown');
  expect(server.requests).toHaveLength(1);
});
