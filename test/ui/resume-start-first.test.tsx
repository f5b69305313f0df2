/**
 * At start with an interrupted job, the intent log's check comes before anything else, but the
 * lookup of the lines to mark again does not hold the first screen: the account and the first page
 * load while it runs (the offer says the lines are being looked up), and no line is marked before it
 * is looked up.
 */
import { describe, expect, it } from 'vitest';
import { PAGE_MAX } from '../../src/services/page-walk';
import { renderApp } from '../helpers/app';
import { interruptedJob, offer } from '../helpers/interrupted';

describe('the first screen with an interrupted job', () => {
  it('loads while the lines to mark again are looked up', async () => {
    const { env, proxy, deps, changed, unsent } = await interruptedJob();
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    // The lookup's list reads (a walk's pages: PAGE_MAX at a time; the browser's page asks for its
    // page size) wait. Were the two the same, the first page would wait too and this test fail.
    proxy.set({ onList: (_n, q) => (q.get('limit') === String(PAGE_MAX) ? held : undefined) });
    const app = await renderApp({}, deps(), env);
    await app.waitFrame(
      (f) =>
        app.store.getState().lines.status === 'ready' &&
        app.store.getState().account.status === 'ready' &&
        offer(f).includes('The line changed since marked: being looked up, to be marked again') &&
        offer(f).includes(`The ${unsent.length} lines never sent: being looked up, to be marked again`),
    );
    // Nothing is marked before it is looked up.
    expect(app.store.getState().marked.size).toBe(0);
    release();
    await app.waitFrame((f) => offer(f).includes('1 skipped (changed since marked: marked again)'));
    expect([...app.store.getState().marked.keys()].sort()).toEqual([...unsent, changed.id].sort());
    expect(app.frame()).not.toContain('being looked up');
  });
});
