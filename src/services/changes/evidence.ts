import type { CreateLineBody, CreateTrialBody, LineListItem } from '../../api/contract';
import { Conflict, LineNotFound } from '../../api/errors';
import type { BulkJob, BulkLine } from '../../domain/bulk';
import type { Evidence } from '../../domain/proof';
import type { ServiceClient } from '../client';
import { findInPages, fitsSearch } from '../paste-lookup';

/**
 * The line as the server lists it now, found by id. Search may not match ids (some servers match
 * usernames only) or may lag, so the id is tried, then the username; only an exact id counts. A text
 * longer than a search may be is not searched for (the request would be refused unsent): a caller
 * whose line it did not find walks the list (`findInPages`).
 */
export async function findLine(
  client: Pick<ServiceClient, 'listLines'>,
  id: string,
  username: string,
): Promise<LineListItem | null> {
  for (const search of [id, username]) {
    if (!search || !fitsSearch(search)) continue;
    const page = await client.listLines({ search, limit: 100 });
    const hit = page.lines.find((l) => l.id === id);
    if (hit) return hit;
  }
  return null;
}

const TAKEN = /exist|taken|already|in use/i;

/** What the server shows for one line of a job, as evidence for `judge`. Throws when it can't be asked. */
export async function gatherEvidence(
  client: ServiceClient,
  job: BulkJob,
  item: BulkLine,
): Promise<{ evidence: Evidence; line?: LineListItem }> {
  if (job.op === 'create' || job.op === 'trial') {
    // The simulate endpoint answers "Username already exists" for a taken username and charges nothing:
    // evidence that does not depend on search. The quote before sending proved the name was free then.
    try {
      if (job.op === 'trial') await client.simulateTrial(item.body as CreateTrialBody);
      else await client.simulateCreate(item.body as CreateLineBody);
      return { evidence: { kind: 'unchanged' } };
    } catch (err) {
      if (!(err instanceof Conflict && TAKEN.test(err.message))) throw err;
      const page = await client.listLines({ search: item.username, limit: 100 }).catch(() => null);
      const line = page?.lines.find((l) => l.username === item.username);
      return { evidence: { kind: 'changed' }, ...(line ? { line } : {}) };
    }
  }
  // A username too long to search for: the walk of the list stands in for its search (a line not
  // found by it is "missing", as one no search found).
  const walked = async () => {
    const hit = (await findInPages(client, [item.id])).get(item.id);
    return hit?.id === item.id ? hit : null; // only an exact id counts
  };
  const line =
    (await findLine(client, item.id, item.username)) ??
    (item.username && !fitsSearch(item.username) ? await walked() : null);
  if (job.op === 'delete') {
    if (line) return { evidence: { kind: 'unchanged' }, line };
    // Not listed proves nothing; a quote for the id does: line_not_found means it is gone.
    try {
      await client.simulateUpgrade({ id: item.id, new_connections: item.before.connections || 1 });
      return { evidence: { kind: 'unchanged' } };
    } catch (err) {
      if (err instanceof LineNotFound) return { evidence: { kind: 'changed' } };
      return { evidence: { kind: 'missing' } };
    }
  }
  if (!line) return { evidence: { kind: 'missing' } };
  return { evidence: { kind: compare(job, item, line) }, line };
}

function compare(job: BulkJob, item: BulkLine, now: LineListItem): Evidence['kind'] {
  switch (job.op) {
    case 'extend': {
      const before = item.before.expMs;
      const after = now.exp_date?.ms ?? null;
      if (before !== null && after !== null)
        return after > before ? 'changed' : after === before ? 'unchanged' : 'missing';
      // A date we cannot read is compared as the text the server sent.
      const beforeRaw = item.before.expRaw ?? null;
      const afterRaw = now.exp_date?.raw ?? null;
      if (beforeRaw === null && afterRaw === null) return 'unchanged';
      return beforeRaw === afterRaw ? 'unchanged' : 'changed';
    }
    case 'upgrade':
      if (now.connections === job.connections && item.before.connections !== job.connections)
        return 'changed';
      return now.connections === item.before.connections ? 'unchanged' : 'missing';
    case 'unsuspend':
      return now.enabled ? 'changed' : 'unchanged';
    default:
      return 'missing';
  }
}
