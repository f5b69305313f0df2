/**
 * A line whose username is longer than a search may be (SEARCH_MAX, 200), on a server whose search
 * matches usernames only (the kind `findLine` tries the username for). Its search would be refused
 * before it is sent (RequestValidationError): the read-again of a one-line job and the settle's
 * evidence skip it and walk the list, as the paste lookup does (review rev2 #3, #7).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import { gatherEvidence } from '../../src/services/changes/evidence';
import { readAgain } from '../../src/services/changes/fresh-lines';
import type { ServiceClient } from '../../src/services/client';
import { fitsSearch, lookupPasted } from '../../src/services/paste-lookup';
import { lineItem } from '../helpers/fixtures';
import { extendJob, jobLine } from '../helpers/jobs';
import { listPage } from '../helpers/list-page';
import { DEMO_KEY } from '../helpers/sandbox';
import { listOnlyServer } from '../helpers/scripted-server';

const id = '0b6f5a8e-2f0b-4c43-9d5e-3f1f5a0c0001';
const username = `long${'x'.repeat(246)}`; // 250 characters
const raw = {
  id,
  hostname: 'h',
  username,
  password: 'p'.repeat(14),
  label: '',
  enabled: true,
  connections: 1,
  is_trial: false,
  exp_date: '2027-06-02T09:46:43.000Z',
  start_date: '2026-06-02T09:46:43.000Z',
  created_at: '2026-06-02T09:46:43.000Z',
};

let srv: Awaited<ReturnType<typeof listOnlyServer>>;
let client: ReturnType<typeof createClient>;
beforeAll(async () => {
  // Search by usernames only (an id matches nothing), as some servers do.
  srv = await listOnlyServer((s) => [raw].filter((l) => !s || l.username.includes(s)));
  client = createClient({ baseUrl: srv.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
});
afterAll(async () => {
  await client.close();
  await srv.close();
});

const line = lineItem({ id, username, connections: 1 });

describe('review rev2: a username over 200 characters, read again or settled', () => {
  it('the paste lookup finds it (by its walk): the line is there', async () => {
    const got = await lookupPasted(client, [id], { cancelled: () => false, progress: () => {} });
    expect(got.found.get(id)?.username).toBe(username);
  });

  it('readAgain of a one-line job finds it, it does not throw', async () => {
    const job = extendJob('j', [jobLine(line)]);
    const again = await readAgain(client, job, { cancelled: () => false, nowMs: Date.now() });
    expect(again).not.toBeNull(); // fails: RequestValidationError "A search is at most 200 characters"
  });

  it('gatherEvidence (the settle of an unknown outcome) reads the line, it does not throw', async () => {
    const job = extendJob('j', [jobLine(line)]);
    const e = await gatherEvidence(client as never, job, job.lines[0]!);
    expect(e.line?.id).toBe(id); // fails: throws before any request
  });
});

describe('what fits a search is counted in code points, as the request counts it', () => {
  it('fitsSearch: 200 characters fit, 201 do not; a character outside the BMP counts once', () => {
    expect(fitsSearch('x'.repeat(200))).toBe(true);
    expect(fitsSearch('x'.repeat(201))).toBe(false);
    expect(fitsSearch('😀'.repeat(150))).toBe(true); // 300 UTF-16 units
    expect(fitsSearch('😀'.repeat(201))).toBe(false);
  });

  it('a pasted name of 150 emoji (300 UTF-16 units) is searched for, not walked', async () => {
    const name = '😀'.repeat(150);
    const rows = [lineItem({ id: 'id1', username: name })];
    const searches: string[] = [];
    const client = {
      listLines: async (q: { search?: string; offset?: number; limit?: number }) => {
        if (q.search) searches.push(q.search);
        return listPage(
          rows.filter((r) => !q.search || r.username.includes(q.search)),
          q,
        );
      },
    } as unknown as Pick<ServiceClient, 'listLines'>;
    const got = await lookupPasted(client, [name], { cancelled: () => false, progress: () => {} });
    expect(got.found.get(name)?.id).toBe('id1');
    expect(searches).toEqual([name]);
  });
});
