/**
 * The sandbox behind a scripted server that sends list replies with items that do not read:
 * - `withBrokenItem`: one item (`broken`: its connections are not a number) added to the last page
 *   of every list reply a search of it would find: a line the server lists but in a form that does
 *   not read;
 * - `withNamelessLine`: one of the sandbox's lines sent with no id (`null`), wherever it is listed.
 */
import { json, scriptedServer } from './scripted-server';

export const broken = {
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

/**
 * The sandbox, with every list reply carrying one item that does not read (on its last page): `item`
 * (asked each reply, so a test may change it between lookups), `broken` unless told.
 */
export function withBrokenItem(target: string, item: () => typeof broken = () => broken) {
  return listsEdited(target, (page, s) => {
    const bad = item();
    if (page.nextOffset === null && (!s || bad.username.includes(s) || bad.id.includes(s))) {
      page.lines.push(bad);
      page.totalHits++;
      page.totalReturns++;
    }
  });
}

/**
 * The sandbox, with the line of id `id` sent in every list reply that holds it in a form that does
 * not read, its id included (`id: null`): an item that may be any line asked for but its username.
 */
export function withNamelessLine(target: string, id: string) {
  return listsEdited(target, (page) => {
    page.lines = page.lines.map((l) => (l.id === id ? { ...l, id: null } : l));
  });
}

interface ListReply {
  lines: Record<string, unknown>[];
  nextOffset: number | null;
  totalHits: number;
  totalReturns: number;
}

/** The sandbox behind a scripted server that hands each list reply to `edit` (with its search). */
async function listsEdited(target: string, edit: (page: ListReply, search: string | null) => void) {
  return scriptedServer(async (req, res) => {
    // The sandbox may be closed first at a test's end: a request then is dropped, never thrown.
    const up = await fetch(`${target}${req.url}`, {
      method: req.method,
      headers: Object.fromEntries(
        Object.entries(req.headers).flatMap(([k, v]) =>
          typeof v === 'string' && k !== 'host' && k !== 'content-length' ? [[k, v]] : [],
        ),
      ),
      ...(req.body ? { body: req.body } : {}),
    }).catch(() => null);
    const text = await up?.text().catch(() => null);
    if (!up || text == null) {
      res.destroy();
      return;
    }
    const u = new URL(req.url, 'http://x');
    if (u.pathname !== '/v1/lines/all' || !up.ok) {
      res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' });
      res.end(text);
      return;
    }
    const page = JSON.parse(text) as ListReply;
    edit(page, u.searchParams.get('search'));
    json(res, 200, page);
  });
}
