/**
 * A job recorded for this service under another key or account is adopted only when the server shows
 * this account every line it names; otherwise its lines are held. What the notice says of it is only
 * what was proven: a line proven absent (the whole list read) makes it "not this account's"; a line
 * the lookup at start did not reach (a list longer than its page limit), or a lookup that failed,
 * proves nothing: then the job "could not be checked", and its lines are held all the same.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import type { LineListItem } from '../../src/api/contract';
import type { BulkJob } from '../../src/domain/bulk';
import type { ForeignJob } from '../../src/services/changes/intent-log';
import { type ChangeEvent, createChangeService } from '../../src/services/changes/service';
import type { ServiceClient } from '../../src/services/client';
import { broken, withBrokenItem, withNamelessLine } from '../helpers/broken-item';
import type { Dialect, FaultRule } from '../helpers/fault-proxy';
import { extendJob, jobLine } from '../helpers/jobs';
import { DEMO_KEY } from '../helpers/sandbox';
import { cleanups } from '../helpers/wait';
import { proxiedSandbox } from './proxied-sandbox';

async function startWith(
  lines: number,
  pick: (all: number, env: Awaited<ReturnType<typeof proxiedSandbox>>['env']) => Promise<LineListItem>,
  opts: {
    dialect?: Dialect;
    rules?: readonly FaultRule[];
    broken?: boolean;
    nameless?: boolean;
    /** The move into this account's log fails with this. */
    adoptFails?: Error;
  } = {},
) {
  const { broken: withBroken, nameless, adoptFails, ...rest } = opts;
  const proxied = await proxiedSandbox({ lines, ...rest });
  const { env } = proxied;
  let client = proxied.client;
  if (withBroken || nameless) {
    // The server lists one more item, in a form that does not read, or its first line with no id
    // (broken-item.ts).
    const first = (await env.client.listLines({ limit: 1 })).lines[0]!;
    const srv = withBroken
      ? await withBrokenItem(env.sb.baseUrl)
      : await withNamelessLine(env.sb.baseUrl, first.id);
    client = createClient({ baseUrl: srv.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
    cleanups.push(async () => {
      await client.close();
      await srv.close();
    });
  }
  const all = (await env.client.listLines({ limit: 1 })).totalHits;
  const line = await pick(all, env);
  const job: BulkJob = extendJob('job-foreign', [jobLine(line, { state: 'unknown' })]);
  let adopted = false;
  const foreign: ForeignJob = {
    job,
    where: '/somewhere/else',
    heldElsewhere: null,
    adopt: () => {
      if (adoptFails) throw adoptFails;
      adopted = true;
    },
  };
  const changes = createChangeService({
    client,
    target: { id: 'sandbox:test', label: 'SANDBOX' },
    foreignIntents: () => [foreign],
    sleep: async () => {},
  });
  const events: ChangeEvent[] = [];
  changes.subscribe((e) => events.push(e));
  await changes.recoverIntents();
  const notices = events.flatMap((e) => (e.type === 'notice' ? [e.text] : []));
  const held = events.flatMap((e) => (e.type === 'open' ? [...e.open.held.keys()] : []));
  return { line, adopted: () => adopted, notices, held };
}

const last = async (all: number, env: { client: Pick<ServiceClient, 'listLines'> }) =>
  (await env.client.listLines({ offset: all - 1, limit: 1 })).lines[0]!;

describe('a job recorded under another key or account', () => {
  it('a line past the lookup’s page limit: "could not be checked", never "not this account’s"; held', async () => {
    // 21 pages on a server whose search matches no id: the lookup at start reads 20, not the last line.
    const r = await startWith(2_000, last, { dialect: { searchIgnoresIds: true } });
    expect(r.adopted()).toBe(false);
    expect(r.held).toContain(r.line.id);
    expect(r.notices).toHaveLength(1);
    expect(r.notices[0]).toMatch(
      /could not be checked: one of its lines was not looked up \(the lookup reads 20 pages at most\)/,
    );
    expect(r.notices[0]).toMatch(/its lines are held, nothing is re-sent; it is kept in \/somewhere\/else/);
    expect(r.notices[0]).not.toMatch(/not this account/);
  }, 30_000);

  it('a line listed in a form that does not read: "could not be checked" and why, never "longer than 20 pages"', async () => {
    const r = await startWith(
      40,
      async (all, env) => ({ ...(await last(all, env)), id: broken.id, username: broken.username }),
      {
        broken: true,
      },
    );
    expect(r.adopted()).toBe(false);
    expect(r.held).toContain(broken.id);
    expect(r.notices[0]).toMatch(
      /could not be checked: one of its lines was not readable \(listed by the server in a form that does not read\)/,
    );
    expect(r.notices[0]).not.toMatch(/longer than|not this account/);
  });

  it('a line not listed, but the list holds one whose id does not read: "could not be checked", it may be that one', async () => {
    const r = await startWith(
      40,
      async (all, env) => ({ ...(await last(all, env)), id: '7d4b0e52-64d9-4c3e-9a57-0c2b1e9f3a10' }),
      { nameless: true },
    );
    expect(r.adopted()).toBe(false);
    expect(r.held).toContain('7d4b0e52-64d9-4c3e-9a57-0c2b1e9f3a10');
    expect(r.notices[0]).toMatch(
      /could not be checked: one of its lines was not identified \(it may be the line the server listed in a form that does not read\)/,
    );
    expect(r.notices[0]).not.toMatch(/not readable|not this account/);
  });

  it('the lookup failed: "could not be checked", and why; held', async () => {
    const r = await startWith(40, last, {
      rules: [{ match: 'GET /v1/lines/all', fault: { kind: 'error5xx' } }],
    });
    expect(r.adopted()).toBe(false);
    expect(r.held).toContain(r.line.id);
    expect(r.notices[0]).toMatch(/could not be checked: the lookup failed/);
    expect(r.notices[0]).not.toMatch(/not this account/);
  });

  it('a line proven absent (the whole list read): not this account’s as far as the server shows', async () => {
    const r = await startWith(40, async (all, env) => ({
      ...(await last(all, env)),
      id: crypto.randomUUID(),
    }));
    expect(r.adopted()).toBe(false);
    expect(r.held).toContain(r.line.id);
    expect(r.notices[0]).toMatch(/is not this account's as far as the server shows: its lines are held/);
  });

  it('every line shown to this account: adopted', async () => {
    const r = await startWith(40, last);
    expect(r.adopted()).toBe(true);
    expect(r.notices.join('\n')).not.toMatch(/could not be checked|not this account/);
  });

  it('shown to this account but the move fails: held, and the disk’s error named', async () => {
    const r = await startWith(40, last, {
      adoptFails: Object.assign(new Error("EACCES: permission denied, rename '/somewhere/else'"), {
        code: 'EACCES',
        path: '/somewhere/else',
      }),
    });
    expect(r.adopted()).toBe(false);
    expect(r.held).toContain(r.line.id);
    expect(r.notices[0]).toMatch(
      /is this account's but could not be moved into its intent log \(permission denied: \/somewhere\/else \(EACCES\)\): its lines are held/,
    );
    // And what to do about it, last.
    expect(r.notices[0]).toMatch(
      /; linedesk cannot create or write its files in \/somewhere; give this user write permission on it, then start again$/,
    );
  });
});
