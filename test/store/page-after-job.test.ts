/**
 * The list's page after a bulk job on the list by id (issue 27 left the page unread after a change
 * that cannot move lines in it): a page read sent before a line's change and answered after its row
 * was replaced in place keeps the replaced row (store/page-cache.ts: rows written since its request
 * was sent win), so the job's end reads no page when every line's row came from its reply; it does
 * when a line's row did not (one changed since marked, not sent).
 */
import { describe, expect, it } from 'vitest';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import type { ServiceClient } from '../../src/services/client';
import { loaded } from '../../src/store/types';
import { storeOnSandbox } from '../helpers/app';
import { sandbox } from '../helpers/sandbox';
import { until } from '../helpers/wait';

const gate = () => {
  let open!: () => void;
  const shut = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { shut, open };
};

/** A store on a small sandbox whose page reads are counted (the lines read again before sending
 *  walk the list in pages of their own: not counted), with the page and account loaded. */
async function countingPageReads() {
  const env = await sandbox({ lines: 40, credits: 100_000 });
  const inner = env.client as ServiceClient;
  const reads: unknown[] = [];
  let pageSize = 0;
  let pending = 0;
  const client: ServiceClient = {
    ...inner,
    listLines: (q, o) => {
      if (q?.limit === pageSize && !q.search) reads.push(q);
      pending++;
      return inner.listLines(q, o).finally(() => pending--);
    },
  };
  const { store } = await storeOnSandbox(
    {},
    { client, intents: memoryIntentLog(), journal: memoryJournal() },
    env,
  );
  const s = () => store.getState();
  pageSize = s().pageSize;
  await Promise.all([s().loadAccount(), s().loadCatalog(), s().loadLines({ offset: 0 })]);
  /** No request in flight, and the page and account as read. */
  const idle = () =>
    until(() => pending === 0 && s().lines.status === 'ready' && s().account.status === 'ready');
  await idle();
  return { inner, reads, s, idle };
}

describe('the page after a bulk extend on the list by id', () => {
  it('a page answered during the job with a row older than its reply keeps the reply’s row', async () => {
    const env = await sandbox({ lines: 40, credits: 100_000 });
    const inner = env.client as ServiceClient;
    // The next page read is answered by the server at once and handed to the store when `list` opens.
    let holdNext = false;
    const list = gate();
    let answered: Promise<unknown> | null = null;
    // The second line's extend is sent when `second` opens.
    const second = gate();
    let secondId = '';
    let pending = 0;
    const counted = <T>(p: Promise<T>) => {
      pending++;
      return p.finally(() => pending--);
    };
    const client: ServiceClient = {
      ...inner,
      listLines: (q, o) => {
        const read = inner.listLines(q, o);
        if (!holdNext) return counted(read);
        holdNext = false;
        answered = read;
        return counted(
          read.then(async (page) => {
            await list.shut;
            return page;
          }),
        );
      },
      extendLine: async (body, o) => {
        if (body.id === secondId) await second.shut;
        return counted(inner.extendLine(body, o));
      },
    };
    const { store } = await storeOnSandbox(
      {},
      { client, intents: memoryIntentLog(), journal: memoryJournal() },
      env,
    );
    const s = () => store.getState();
    await Promise.all([s().loadAccount(), s().loadCatalog(), s().loadLines({ offset: 0 })]);
    const [a, b] = loaded(s().lines)!.lines.filter((l) => l.enabled && !l.is_trial);
    secondId = b!.id;
    const expOf = (id: string) => loaded(s().lines)!.lines.find((l) => l.id === id)?.exp_date?.ms;
    const was = expOf(a!.id);

    // A page read (the user paging back, say) the server answers before the job changes anything.
    holdNext = true;
    void s().loadLines({ force: true });
    await answered;

    s().markLines([a!, b!]);
    s().openBulk('extend');
    const job = s().bulkStart();
    // The first line's reply replaced its row; the page read then lands with the row it read, and
    // the row the reply wrote stays (the page's request was sent before it).
    await until(() => expOf(a!.id) !== was);
    list.open();
    await until(() => s().lines.status === 'ready');
    expect(expOf(a!.id)).not.toBe(was);
    second.open();
    await job;
    expect(s().bulk?.job.lines.map((l) => l.state)).toEqual(['done', 'done']);
    await until(() => pending === 0 && s().lines.status === 'ready' && s().account.status === 'ready');

    const fresh = await inner.listLines({ offset: 0, limit: 10 });
    const shown = loaded(s().lines)!.lines;
    expect(shown.map((l) => [l.id, l.exp_date?.ms])).toEqual(fresh.lines.map((l) => [l.id, l.exp_date?.ms]));
  });

  it('a bulk extend of lines on the list by id reads no page at its end (the replies wrote the rows)', async () => {
    const { inner, reads, s, idle } = await countingPageReads();
    expect(reads.length).toBeGreaterThan(0); // the page and its prefetch: page reads are counted
    const [a, b, c] = loaded(s().lines)!.lines.filter((l) => l.enabled && !l.is_trial);
    const expOf = (id: string) => loaded(s().lines)!.lines.find((l) => l.id === id)?.exp_date?.ms;
    const was = [a, b, c].map((l) => expOf(l!.id));

    s().markLines([a!, b!, c!]);
    s().openBulk('extend');
    reads.length = 0;
    await s().bulkStart();
    expect(s().bulk?.job.lines.map((l) => l.state)).toEqual(['done', 'done', 'done']);
    await idle();
    expect(reads).toEqual([]);
    // The rows on screen are the server's: the replies' rows, as a fresh read shows them.
    expect([a, b, c].map((l) => expOf(l!.id))).not.toEqual(was);
    const fresh = await inner.listLines({ offset: 0, limit: s().pageSize });
    expect(loaded(s().lines)!.lines.map((l) => [l.id, l.exp_date?.ms])).toEqual(
      fresh.lines.map((l) => [l.id, l.exp_date?.ms]),
    );
  });

  it('a line changed since marked (not sent) has its row read again at the end: the page is read', async () => {
    const { inner, reads, s, idle } = await countingPageReads();
    const [a, b] = loaded(s().lines)!.lines.filter((l) => l.enabled && !l.is_trial);
    const expOf = (id: string) => loaded(s().lines)!.lines.find((l) => l.id === id)?.exp_date?.ms;
    const was = expOf(b!.id);

    s().markLines([a!, b!]);
    s().openBulk('extend');
    // Someone else extends the second line after it was marked: read again, it is not sent.
    await inner.extendLine({ id: b!.id, duration: 1 });
    reads.length = 0;
    await s().bulkStart();
    expect(s().bulk?.job.lines.map((l) => l.state)).toEqual(['done', 'skipped']);
    await idle();
    expect(reads).toContainEqual(expect.objectContaining({ offset: 0 })); // the page (and its prefetch)
    expect(expOf(b!.id)).not.toBe(was);
    const fresh = await inner.listLines({ offset: 0, limit: s().pageSize });
    expect(loaded(s().lines)!.lines.map((l) => [l.id, l.exp_date?.ms])).toEqual(
      fresh.lines.map((l) => [l.id, l.exp_date?.ms]),
    );
  });
  it('a job whose every line changed since marked (none sent) shows their rows as the server has them', async () => {
    const { inner, s, idle } = await countingPageReads();
    const [a, b] = loaded(s().lines)!.lines.filter((l) => l.enabled && !l.is_trial);
    const expOf = (id: string) => loaded(s().lines)!.lines.find((l) => l.id === id)?.exp_date?.ms;
    s().markLines([a!, b!]);
    s().openBulk('extend');
    // Both extended elsewhere after they were marked: read again, neither is sent.
    await inner.extendLine({ id: a!.id, duration: 1 });
    await inner.extendLine({ id: b!.id, duration: 1 });
    await s().bulkStart();
    expect(s().bulk?.job.lines.map((l) => l.state)).toEqual(['skipped', 'skipped']);
    await idle();
    const fresh = await inner.listLines({ offset: 0, limit: s().pageSize });
    const expected = [a, b].map((l) => fresh.lines.find((f) => f.id === l!.id)?.exp_date?.ms);
    expect([a, b].map((l) => expOf(l!.id))).toEqual(expected);
  });
});
