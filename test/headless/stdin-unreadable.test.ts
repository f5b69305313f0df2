/**
 * `--stdin` when the server lists one of the lines given in a form that does not read: the line is
 * there (its item names it), so it is never "no line answers to" nor `line_not_found`; the words say
 * the server sent it in a form that does not read, and the code claims no absence.
 */
import { describe, expect, it } from 'vitest';
import { envFor, headless } from '../helpers/headless';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';
import { json, scriptedServer } from '../helpers/scripted-server';

const broken = {
  id: '0b6f5a8e-2f0b-4c43-9d5e-3f1f5a0c0002',
  hostname: 'h',
  username: 'brokenline01',
  password: 'p'.repeat(14),
  label: '',
  enabled: true,
  connections: 'x',
  is_trial: false,
  exp_date: '2027-06-02T09:46:43.000Z',
  start_date: '2026-06-02T09:46:43.000Z',
  created_at: '2026-06-02T09:46:43.000Z',
};

/** The sandbox, with every list reply carrying one item that does not read (on its last page). */
async function withBrokenItem(target: string) {
  return scriptedServer(async (req, res) => {
    const up = await fetch(`${target}${req.url}`, {
      method: req.method,
      headers: Object.fromEntries(
        Object.entries(req.headers).flatMap(([k, v]) =>
          typeof v === 'string' && k !== 'host' && k !== 'content-length' ? [[k, v]] : [],
        ),
      ),
      ...(req.body ? { body: req.body } : {}),
    });
    const text = await up.text();
    const u = new URL(req.url, 'http://x');
    if (u.pathname !== '/v1/lines/all' || !up.ok) {
      res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' });
      res.end(text);
      return;
    }
    const page = JSON.parse(text);
    const s = u.searchParams.get('search');
    if (page.nextOffset === null && (!s || broken.username.includes(s))) {
      page.lines.push(broken);
      page.totalHits++;
      page.totalReturns++;
    }
    json(res, 200, page);
  });
}

describe('--stdin: a line the server sends in a form that does not read', () => {
  it('is said so, never "no line answers" nor line_not_found', async () => {
    const { sb } = await sandbox({ lines: 40 });
    const srv = await withBrokenItem(sb.baseUrl);
    try {
      const env = envFor(srv.baseUrl, DEMO_KEY);
      const alone = await headless(['unsuspend', '--stdin', '--json'], { env, stdin: 'brokenline01\n' });
      expect(alone.code).toBe(1);
      expect(alone.stderr).not.toMatch(/no line answers/i);
      const err = JSON.parse(alone.stderr.trim().split('\n').at(-1)!).error;
      expect(err.code).not.toBe('line_not_found');
      expect(err.code).toBe('line_unsettled');
      expect(err.message).not.toMatch(/None of the lines given was found/);
      expect(alone.stderr).toMatch(
        /stdin line 1: "brokenline01" was not readable \(listed by the server in a form that does not read\)/,
      );
      // A line proven absent is still "not found" beside it.
      const both = await headless(['unsuspend', '--stdin', '--json'], {
        env,
        stdin: 'brokenline01\nno-such-line-here\n',
      });
      expect(both.stderr).toContain('stdin line 2: no line answers to "no-such-line-here"');
      expect(JSON.parse(both.stderr.trim().split('\n').at(-1)!).error.code).toBe('line_unsettled');
    } finally {
      await srv.close();
    }
  });
});
