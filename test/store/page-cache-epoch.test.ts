/**
 * The list's page cache after a change or a refresh: a page read sent before it (the server answered
 * it before the change, the store gets it after) is not joined by a later load, not cached, and its
 * rows do not replace a row the change's reply wrote. A user who saw the old expiry after an extend
 * could renew the line again and pay twice. And a delete of the last page's only line moves the view
 * back to the last page that has lines.
 */
import { describe, expect, it } from 'vitest';
import type { LineListItem } from '../../src/api/contract';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import type { ServiceClient } from '../../src/services/client';
import { loaded } from '../../src/store/types';
import { openQuoted, storeOnSandbox } from '../helpers/app';
import { sandbox } from '../helpers/sandbox';
import { until } from '../helpers/wait';

const gate = () => {
  let open!: () => void;
  const shut = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { shut, open };
};

/** A store whose next page read (after `hold()`) is answered by the server at once and handed to
 *  the store only when `release()` is called. */
async function setup(lines = 40) {
  const env = await sandbox({ lines, credits: 100_000 });
  const inner = env.client as ServiceClient;
  /** Reads still to pass before the one held (-1: none held). */
  let holdAfter = -1;
  let list = gate();
  let answered: Promise<unknown> | null = null;
  let pending = 0;
  const client: ServiceClient = {
    ...inner,
    listLines: (q, o) => {
      pending++;
      const read = inner.listLines(q, o);
      const done = () => pending--;
      if (holdAfter < 0 || holdAfter-- > 0) return read.finally(done);
      answered = read;
      const held = list;
      return read
        .then(async (page) => {
          await held.shut;
          return page;
        })
        .finally(done);
    },
  };
  const { store } = await storeOnSandbox(
    {},
    { client, intents: memoryIntentLog(), journal: memoryJournal() },
    env,
  );
  const s = () => store.getState();
  await Promise.all([s().loadAccount(), s().loadCatalog(), s().loadLines({ offset: 0 })]);
  // The next page's prefetch too.
  await until(() => s().lines.status === 'ready' && pending === 0);
  const expOf = (id: string) => loaded(s().lines)!.lines.find((l) => l.id === id)?.exp_date?.ms;
  const extend = async (line: LineListItem) => {
    await openQuoted(store, { op: 'extend', line, readAt: Date.now() });
    await s().confirmAction();
    expect(s().action?.phase).toBe('done');
    s().closeAction();
  };
  return {
    env,
    inner,
    store,
    s,
    expOf,
    extend,
    /** The next page read (or the one after `skip` more) is held once the server has answered it. */
    hold: (skip = 0) => {
      holdAfter = skip;
      answered = null;
      list = gate();
    },
    /** Resolves once the held read was answered by the server (not yet handed over). */
    answered: () => until(() => answered !== null).then(() => answered),
    release: () => list.open(),
    pending: () => pending,
  };
}

describe('the page cache and a read sent before a change', () => {
  it('a refresh after an extend does not join the read sent before it; the cache keeps no old page', async () => {
    const t = await setup();
    const line = loaded(t.s().lines)!.lines.find((l) => l.enabled && !l.is_trial)!;
    const was = t.expOf(line.id);

    // A page read the server answers before the extend (sent from a script on the same account:
    // no reply of it replaces the row here, the user's refresh is what shows it).
    t.hold();
    const before = t.s().loadLines({ force: true });
    await t.answered();
    await t.inner.extendLine({ id: line.id, duration: 1 });

    // The refresh (and its next page's prefetch) lands; then the old read is handed over.
    const refresh = t.s().refreshLines();
    await until(() => t.s().lines.status === 'ready' && t.pending() === 1, 3_000);
    expect(t.expOf(line.id)).not.toBe(was);
    t.release();
    await Promise.all([before, refresh]);
    await until(() => t.pending() === 0);
    expect(t.expOf(line.id)).not.toBe(was);

    // The page again from the cache (next page and back): the new expiry still.
    t.s().pageNext();
    await until(() => t.s().offset === 10 && t.s().lines.status === 'ready');
    t.s().pagePrev();
    await until(() => t.s().offset === 0 && t.s().lines.status === 'ready');
    const fresh = await t.inner.listLines({ offset: 0, limit: 10 });
    expect(loaded(t.s().lines)!.lines.map((l) => [l.id, l.exp_date?.ms])).toEqual(
      fresh.lines.map((l) => [l.id, l.exp_date?.ms]),
    );
  });

  it('a page read sent before an extend and landing after it keeps the row the reply wrote', async () => {
    const t = await setup();
    const line = loaded(t.s().lines)!.lines.find((l) => l.enabled && !l.is_trial)!;
    const was = t.expOf(line.id);

    t.hold();
    const before = t.s().loadLines({ force: true });
    await t.answered();
    await t.extend(line);
    const now = t.expOf(line.id);
    expect(now).not.toBe(was);

    // A single extend on the list by id reads no page at its end: what lands now stays.
    t.release();
    await before;
    await until(() => t.s().lines.status === 'ready');
    expect(t.expOf(line.id)).toBe(now);
  });

  it('a prefetched page that lands after the cache was cleared is not cached', async () => {
    const t = await setup();
    // The next page's prefetch is held: the server answers it before the extend (a script's).
    t.hold(1);
    await t.s().loadLines({ offset: 0, force: true });
    await t.answered();
    const next = await t.inner.listLines({ offset: 10, limit: 10 });
    const line = next.lines.find((l) => l.enabled && !l.is_trial)!;
    const was = line.exp_date?.ms;
    await t.inner.extendLine({ id: line.id, duration: 1 });

    // The user refreshes: the page and a new prefetch land, then the old prefetch is handed over.
    await t.s().refreshLines();
    await until(() => t.pending() === 1);
    t.release();
    await until(() => t.pending() === 0);
    await new Promise((r) => setImmediate(r));
    t.s().pageNext();
    await until(() => t.s().offset === 10 && t.s().lines.status === 'ready');
    expect(t.expOf(line.id)).not.toBe(was);
  });
});

describe('a delete of the last page’s only line', () => {
  it('moves the view back to the last page that has lines, the cursor on its last row', async () => {
    const t = await setup(41);
    t.s().lastLine();
    await until(() => t.s().offset === 40 && t.s().lines.status === 'ready');
    const only = loaded(t.s().lines)!.lines;
    expect(only).toHaveLength(1);

    await openQuoted(t.store, { op: 'delete', line: only[0]!, readAt: Date.now() });
    t.s().setActionTyped(only[0]!.username);
    await t.s().confirmAction();
    expect(t.s().action?.phase).toBe('done');
    t.s().closeAction();

    await until(() => t.s().lines.status === 'ready' && t.s().offset === 30);
    const page = loaded(t.s().lines)!;
    expect(page.lines).toHaveLength(10);
    expect(page.totalHits).toBe(40);
    expect(t.s().cursor).toBe(9);
  });
});
