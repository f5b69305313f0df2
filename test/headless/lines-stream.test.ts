/**
 * `lines --all` streams (issue 27): the next page is asked for before this one is printed, JSON is
 * printed page by page as one valid document, and a reader that goes away ends the walk quietly.
 * Against the sandbox over HTTP, through the fault proxy that sees every list request.
 */
import { describe, expect, it } from 'vitest';
import type { HeadlessIo } from '../../src/headless/output';
import { runHeadless } from '../../src/headless/run';
import { faultProxy } from '../helpers/fault-proxy';
import { envFor, headless } from '../helpers/headless';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';
import { until } from '../helpers/wait';

// biome-ignore lint/suspicious/noExplicitAny: one store for 'error' (with an error) and 'drain' (without)
type Listener = (err: any) => void;

/** A stdout whose `write` answers `ok(n)` for the nth write (false: full until `drain()`), with every event's listeners. */
function slowStdout(ok: (n: number) => boolean, onWrite: (text: string, n: number) => void = () => {}) {
  const listeners = new Map<string, Set<Listener>>();
  const add = (e: string, fn: Listener) => {
    if (!listeners.has(e)) listeners.set(e, new Set());
    listeners.get(e)!.add(fn);
  };
  let writes = 0;
  const chunks: string[] = [];
  return {
    chunks,
    stream: {
      write: (s: string) => {
        chunks.push(s);
        onWrite(s, ++writes);
        return ok(writes);
      },
      on: (e: 'error', fn: Listener) => add(e, fn),
      once: (e: string, fn: Listener) => add(e, fn),
      off: (e: string, fn: Listener) => listeners.get(e)?.delete(fn),
    },
    emit: (e: string, err?: NodeJS.ErrnoException) => {
      for (const fn of [...(listeners.get(e) ?? [])]) fn(err);
    },
  };
}

const io = (stdout: HeadlessIo['stdout'], stderr: string[], env: NodeJS.ProcessEnv): HeadlessIo => ({
  stdout,
  stderr: { write: (s: string) => stderr.push(s) > 0 },
  stdin: (async function* () {})(),
  env,
  tune: { client: { retry: { maxAttempts: 1 } } },
});

describe('lines --all streams', () => {
  it('asks for the next page before it prints this one (a full stdout still has the next request on its way)', async () => {
    const { sb } = await sandbox({ lines: 250 });
    const events: string[] = [];
    const proxy = await faultProxy(sb.baseUrl, { onList: (n) => void events.push(`list ${n}`) });
    try {
      // The first write finds stdout full: without the request sent ahead, nothing is asked for until
      // it drains; with it, the second page's request reaches the server while the reader is slow.
      const out = slowStdout(
        (n) => n !== 1,
        (_s, n) => events.push(`write ${n}`),
      );
      const stderr: string[] = [];
      const done = runHeadless(
        ['lines', '--ndjson', '--all'],
        io(out.stream, stderr, envFor(proxy.baseUrl, DEMO_KEY)),
      );
      await until(() => events.includes('write 1'));
      await until(() => events.includes('list 2'), 3000).catch(() => {});
      const beforeDrain = [...events];
      out.emit('drain');
      expect(await done).toBe(0);
      expect(beforeDrain).toEqual(['list 1', 'write 1', 'list 2']);
      // Every line once, in the order of a walk without the request sent ahead.
      const ids = out.chunks
        .join('')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).id as string);
      expect(ids).toHaveLength(250);
      expect(new Set(ids).size).toBe(250);
      expect(events.filter((e) => e.startsWith('list'))).toHaveLength(3);
    } finally {
      await proxy.close();
    }
  });

  it('--json --all is printed as pages land: one document, equal to the NDJSON lines, byte for byte the whole one', async () => {
    const { sb } = await sandbox({ lines: 250 });
    let printedAtLastPage: number | null = null;
    let stdoutLength = 0;
    const proxy = await faultProxy(sb.baseUrl, {
      onList: (n) => {
        if (n === 3) printedAtLastPage = stdoutLength;
      },
    });
    try {
      const env = envFor(proxy.baseUrl, DEMO_KEY);
      const out = slowStdout(
        () => true,
        (s) => {
          stdoutLength += s.length;
        },
      );
      const code = await runHeadless(['lines', '--json', '--all'], io(out.stream, [], env));
      expect(code).toBe(0);
      // The document had begun before the last page was asked for: it is not held whole in memory.
      expect(printedAtLastPage).toBeGreaterThan(1000);
      const json = out.chunks.join('');
      const nd = await headless(['lines', '--ndjson', '--all'], { env });
      const lines = nd.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines).toHaveLength(250);
      expect(JSON.parse(json)).toEqual({ totalHits: 250, lines });
      expect(json).toBe(`${JSON.stringify({ totalHits: 250, lines }, null, 2)}\n`);
      // An empty list, and a page of one, are the same document as before.
      const none = await headless(
        ['lines', '--json', '--all', '--status', 'suspended', '--search', 'zzzz-none'],
        {
          env,
        },
      );
      expect(none.stdout).toBe(`${JSON.stringify({ totalHits: 0, lines: [] }, null, 2)}\n`);
      const one = await headless(['lines', '--json', '--limit', '1', '--fields', 'id'], { env });
      expect(one.stdout).toBe(
        `${JSON.stringify({ totalHits: 250, lines: [{ id: lines[0].id }] }, null, 2)}\n`,
      );
    } finally {
      await proxy.close();
    }
  });

  it('--csv streams one header, then each page: the same rows as NDJSON; an empty list is its header once', async () => {
    const { sb } = await sandbox({ lines: 250 });
    const env = envFor(sb.baseUrl, DEMO_KEY);
    const csv = await headless(['lines', '--csv', '--all', '--fields', 'id,username'], { env });
    const nd = await headless(['lines', '--ndjson', '--all', '--fields', 'id,username'], { env });
    expect(csv.code).toBe(0);
    const rows = nd.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l))
      .map((r) => `${r.id},${r.username}`);
    expect(csv.stdout).toBe(`${['id,username', ...rows].join('\n')}\n`);
    const none = await headless(['lines', '--csv', '--all', '--fields', 'id', '--search', 'zzzz-none'], {
      env,
    });
    expect(none.stdout).toBe('id\n');
  });

  it('a reader that goes away while the next page is on its way: exit 0, nothing on stderr, that request not read', async () => {
    const { sb } = await sandbox({ lines: 2000 });
    // The request sent ahead fails after the reader is gone: nobody reads its page, and its failure
    // must not surface as an unhandled rejection (a stack trace) or change the exit code.
    const proxy = await faultProxy(sb.baseUrl, {
      rules: [{ match: 'GET /v1/lines/all', nth: 2, fault: { kind: 'resetBefore' } }],
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const out = slowStdout(() => true);
      out.stream.write = (s: string) => {
        out.chunks.push(s);
        out.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
        return true;
      };
      const stderr: string[] = [];
      const code = await runHeadless(
        ['lines', '--ndjson', '--all'],
        io(out.stream, stderr, envFor(proxy.baseUrl, DEMO_KEY)),
      );
      expect(code).toBe(0);
      expect(stderr.join('')).toBe('');
      // Let the request sent ahead settle (reset, or ended with the connection): an unhandled
      // rejection is reported on a later turn of the event loop.
      for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
      expect(unhandled).toEqual([]);
      expect(proxy.forwarded.get('GET /v1/lines/all')).toBe(1);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await proxy.close();
    }
  });
});
