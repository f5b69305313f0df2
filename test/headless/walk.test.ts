/**
 * A full walk of the list is complete or fails (issue 22, part 3): `lines --all` against the sandbox
 * over HTTP while the proxy deletes or creates a line between two pages.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client';
import { faultProxy } from '../helpers/fault-proxy';
import { envFor, headless } from '../helpers/headless';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';

/** Every line id as the sandbox holds it now, in id order (read while nothing changes). */
async function idsNow(client: ApiClient): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await client.listLines({ offset, limit: 100 });
    ids.push(...page.lines.map((l) => l.id));
    if (page.nextOffset === null) return ids;
  }
}

/** A list request for a later page (offset > 0): where a change falls between two pages. */
const laterPage = (q: URLSearchParams) => Number(q.get('offset') ?? 0) > 0 && !q.get('search');

async function setup(lines: number) {
  const env = await sandbox({ lines });
  /** Deletes the first line by id (a line the walk has already read). */
  const deleteFirst = async () => {
    const first = (await env.client.listLines({ offset: 0, limit: 1 })).lines[0]!;
    await env.client.deleteLine({ id: first.id });
    return first.id;
  };
  return { ...env, deleteFirst };
}

describe('lines --all while the list changes between pages', () => {
  it('a line deleted after the first page: read again; every live line once, the deleted one not listed (exit 0)', async () => {
    const t = await setup(250);
    const deleted: string[] = [];
    const proxy = await faultProxy(t.sb.baseUrl, {
      onList: async (_n, q) => {
        if (laterPage(q) && !deleted.length) deleted.push(await t.deleteFirst());
      },
    });
    try {
      // The table is printed once the walk ends, so it can walk again (JSON streams: see below).
      const r = await headless(['lines', '--all', '--fields', 'id'], {
        env: envFor(proxy.baseUrl, DEMO_KEY),
      });
      expect(r.code).toBe(0);
      const ids = r.stdout.trimEnd().split('\n').slice(1);
      expect(deleted).toHaveLength(1);
      expect(ids).not.toContain(deleted[0]);
      expect(ids).toEqual(await idsNow(t.client));
      expect(ids).toHaveLength(249);
    } finally {
      await proxy.close();
    }
  });

  it('a line created after the first page, before the boundary (by username): read again, the new line listed (exit 0)', async () => {
    const t = await setup(250);
    let created: string | null = null;
    const proxy = await faultProxy(t.sb.baseUrl, {
      onList: async (_n, q) => {
        if (laterPage(q) && !created)
          created = (await t.client.createTrial({ duration: 24, username: 'aaaa-walk-created' })).line!.id;
      },
    });
    try {
      // Sorted by username, the new line is the first: every line read so far moves down by one.
      const r = await headless(['lines', '--all', '--sort', 'username'], {
        env: envFor(proxy.baseUrl, DEMO_KEY),
      });
      expect(r.code).toBe(0);
      const users = r.stdout
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((row) => row.split('\t')[0]);
      expect(users).toHaveLength(251);
      expect(users[0]).toBe('aaaa-walk-created');
      expect(new Set(users).size).toBe(251);
      expect(created).not.toBeNull();
    } finally {
      await proxy.close();
    }
  });

  it('a list that keeps changing: exit 1 and "the list changed while reading; run again", no table printed', async () => {
    const t = await setup(250);
    const proxy = await faultProxy(t.sb.baseUrl, {
      onList: async (_n, q) => {
        if (laterPage(q)) await t.deleteFirst();
      },
    });
    try {
      const env = envFor(proxy.baseUrl, DEMO_KEY);
      const table = await headless(['lines', '--all'], { env });
      // Read again a bounded number of times: three walks that stop at their second page.
      expect(proxy.forwarded.get('GET /v1/lines/all')).toBeLessThanOrEqual(6);
      expect(table.code).toBe(1);
      expect(table.stdout).toBe('');
      expect(table.stderr).toMatch(/the list changed while reading; run again/);
      const json = await headless(['lines', '--all', '--json'], { env });
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'list_changed', exit: 1 });
      // JSON streams: the first page was printed; the document is closed and says why it stopped.
      const doc = JSON.parse(json.stdout);
      expect(doc.lines).toHaveLength(100);
      expect(doc.error).toMatchObject({ code: 'list_changed', exit: 1 });
    } finally {
      await proxy.close();
    }
  });

  it('--ndjson streams: a change after the first page stops with exit 1 and says the output is incomplete', async () => {
    const t = await setup(250);
    let done = false;
    const proxy = await faultProxy(t.sb.baseUrl, {
      onList: async (_n, q) => {
        if (laterPage(q) && !done) {
          done = true;
          await t.deleteFirst();
        }
      },
    });
    try {
      const r = await headless(['lines', '--all', '--ndjson'], { env: envFor(proxy.baseUrl, DEMO_KEY) });
      expect(r.code).toBe(1);
      // The first page was printed before the change could be seen; nothing after it.
      expect(r.stdout.trimEnd().split('\n')).toHaveLength(100);
      expect(r.stderr).toMatch(
        /the list changed while reading; run again.*stopped after 100 lines: the output is incomplete/,
      );
    } finally {
      await proxy.close();
    }
  });

  it('--json streams: a change after the first page closes the document with "error" after the lines, each printed once (exit 1)', async () => {
    const t = await setup(250);
    const deleted: string[] = [];
    const proxy = await faultProxy(t.sb.baseUrl, {
      onList: async (_n, q) => {
        if (laterPage(q) && !deleted.length) deleted.push(await t.deleteFirst());
      },
    });
    try {
      const r = await headless(['lines', '--all', '--json'], { env: envFor(proxy.baseUrl, DEMO_KEY) });
      expect(r.code).toBe(1);
      const doc = JSON.parse(r.stdout);
      expect(Object.keys(doc)).toEqual(['totalHits', 'lines', 'error']);
      expect(doc.totalHits).toBe(250);
      const ids = (doc.lines as Array<{ id: string }>).map((l) => l.id);
      expect(ids).toHaveLength(100);
      expect(new Set(ids).size).toBe(100);
      expect(doc.error).toEqual({
        code: 'list_changed',
        message:
          'the list changed while reading; run again (stopped after 100 lines: the output is incomplete)',
        path: null,
        exit: 1,
      });
      expect(JSON.parse(r.stderr).error).toEqual(doc.error);
    } finally {
      await proxy.close();
    }
  });
});
