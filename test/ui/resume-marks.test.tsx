/**
 * The resume offer says "marked again" of the lines an interrupted job left marked to review (changed
 * since marked) only once they are: not while their lookup runs, and not when it failed or did not
 * find one (then it says so, naming the line). And it marks them once per offer: a check again does
 * not mark again a line the user unmarked since.
 */
import { describe, expect, it } from 'vitest';
import { memoryIntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { renderApp } from '../helpers/app';
import { broken } from '../helpers/broken-item';
import { interruptedJob, offer } from '../helpers/interrupted';
import { extendJob, jobLine } from '../helpers/jobs';
import { brokenLines, farLines } from '../helpers/unreached';

describe('the resume offer’s lines changed since marked', () => {
  it('are said marked again only once the lookup has marked them', async () => {
    const { env, proxy, deps, changed } = await interruptedJob();
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    // The next start's list reads (its lookups, before the page) wait: the offer is on screen first.
    proxy.set({ onList: () => held });
    const app = await renderApp({}, deps(), env);
    await app.waitFrame((f) => offer(f).includes('1 skipped (changed since marked'));
    expect(offer(app.frame())).not.toContain('marked again)');
    expect(offer(app.frame())).toContain(
      'The line changed since marked: being looked up, to be marked again',
    );
    expect(app.store.getState().marked.has(changed.id)).toBe(false);
    release();
    await app.waitFrame((f) => offer(f).includes('1 skipped (changed since marked: marked again)'));
    expect(app.store.getState().marked.has(changed.id)).toBe(true);
  });

  it('says, naming it, that one not found now is not marked again', async () => {
    const { env, deps, changed } = await interruptedJob();
    env.sb.repo.deleteLine(changed.id);
    const app = await renderApp({}, deps(), env);
    await app.waitFrame((f) =>
      offer(f).includes('The line changed since marked: not found now (named below)'),
    );
    expect(offer(app.frame())).toContain(`extend ${changed.username}: not found now, not marked again`);
    expect(app.store.getState().marked.has(changed.id)).toBe(false);
  });

  it('one the lookup at start did not reach is "not looked up", not "not found"; a check again looks it up', async () => {
    // A list of 21 pages (more than the lookup at start reads) on a server whose search matches no
    // id: the lookup walks its 20 pages, and the line at the list's end is never read.
    const { env, client, first, last } = await farLines();
    const intents = memoryIntentLog();
    intents.begin(
      extendJob('job-far', [
        jobLine(first!),
        jobLine(last!, {
          state: 'skipped',
          notSentAsRead: 'changed',
          detail: 'not sent: changed since it was marked',
        }),
      ]),
    );
    const app = await renderApp({}, { client, intents }, env);
    await app.waitFrame((f) =>
      offer(f).includes('The line changed since marked: not looked up (named below)'),
    );
    expect(offer(app.frame())).toContain(
      `extend ${last!.username}: not looked up (the lookup reads 20 pages at most)`,
    );
    expect(offer(app.frame())).not.toContain('not found');
    expect(app.store.getState().marked.has(last!.id)).toBe(false);
    expect(app.store.getState().marked.has(first!.id)).toBe(true);
    // The key the offer shows looks it up again, the whole list this time: found, marked again.
    await app.waitFrame((f) => f.includes('r looks up again the line (not looked up)'));
    await app.press('resume.recheck');
    await app.waitFrame((f) => offer(f).includes('1 skipped (changed since marked: marked again)'));
    expect(app.store.getState().marked.has(last!.id)).toBe(true);
    expect(app.frame()).not.toContain('not looked up');
  }, 30_000);

  it('one the server lists in a form that does not read is "not readable", never "did not reach it" nor "not found"', async () => {
    const { env, client } = await brokenLines();
    const [first] = (await env.client.listLines({ offset: 0, limit: 1 })).lines;
    const intents = memoryIntentLog();
    intents.begin(
      extendJob('job-unreadable', [
        jobLine(first!),
        jobLine(
          { ...first!, id: broken.id, username: broken.username },
          { state: 'skipped', notSentAsRead: 'changed', detail: 'not sent: changed since it was marked' },
        ),
      ]),
    );
    const app = await renderApp({}, { client, intents }, env);
    await app.waitFrame((f) =>
      offer(f).includes('The line changed since marked: not readable (named below)'),
    );
    expect(offer(app.frame())).toContain(
      `extend ${broken.username}: not readable (listed by the server in a form that does not read)`,
    );
    expect(offer(app.frame())).not.toMatch(/not found|did not reach|not looked up/);
    expect(app.store.getState().marked.has(broken.id)).toBe(false);
  });

  it('says, naming it, that one is not marked again when the lookup failed', async () => {
    const { env, proxy, deps, changed } = await interruptedJob();
    proxy.set({ rules: [{ match: 'GET /v1/lines/all', fault: { kind: 'error5xx' } }] });
    const app = await renderApp({}, deps(), env);
    await app.waitFrame((f) =>
      offer(f).includes('The line changed since marked: lookup failed (named below)'),
    );
    expect(offer(app.frame())).toContain(`extend ${changed.username}: lookup failed, not marked again`);
    // Its lines never sent too: their lookup failed, said so, never "not looked up".
    expect(offer(app.frame())).toMatch(/The \d+ lines never sent: lookup failed/);
    expect(offer(app.frame())).not.toContain('not looked up');
    expect(app.store.getState().marked.has(changed.id)).toBe(false);
  });

  it('what Esc leaves marked is counted from the marks now: a line the user unmarked since is not', async () => {
    const { env, deps, changed, unsent } = await interruptedJob();
    const app = await renderApp({}, deps(), env);
    const all = unsent.length + 1;
    await app.waitFrame((f) => f.includes(`Esc closes (${all} lines stay marked)`));
    app.store.getState().unmark(changed.id);
    await app.waitFrame((f) => f.includes(`Esc closes (${all - 1} lines stay marked)`));
    for (const id of unsent) app.store.getState().unmark(id);
    await app.waitFrame((f) => /Esc closes(?! \()/.test(f));
    expect(app.frame()).not.toContain('stay marked');
  });

  it('a check again (resume.recheck) does not mark again the lines the user unmarked since', async () => {
    const { env, proxy, intents, deps, changed, unsent } = await interruptedJob();
    // A line whose outcome the next start cannot learn (its first reads fail): r checks it again.
    const [job] = intents.open();
    intents.line(job!.id, { ...job!.lines.find((l) => l.state === 'done')!, state: 'unknown' });
    proxy.set({
      rules: [
        { match: 'GET /v1/lines/all', nth: 1, fault: { kind: 'error5xx' } },
        { match: 'GET /v1/me', nth: 1, fault: { kind: 'error5xx' } },
      ],
    });
    const app = await renderApp({}, { ...deps(), journal: memoryJournal() }, env);
    await app.waitFrame((f) => offer(f).includes('1 skipped (changed since marked: marked again)'));
    await app.waitFrame(
      (f) => offer(f).includes('1 unknown') && f.includes('r checks the unknown ones again'),
    );
    await app.waitFrame(() => unsent.every((id) => app.store.getState().marked.has(id)));
    // The user unmarks the changed line and one never sent (the selection's own action).
    app.store.getState().unmark(changed.id);
    app.store.getState().unmark(unsent[0]!);
    await app.press('resume.recheck');
    await app.waitFrame((f) => offer(f).includes('0 unknown'));
    await app.waitFrame(() => !app.store.getState().recovery?.checking);
    // The check again that r runs, once more and awaited: it resolves only once its marking is done,
    // so the marks read below are final (the key's own run is not awaited). What the user unmarked
    // stays unmarked; the rest stay marked.
    await app.store.getState().recheckRecovery();
    expect(app.store.getState().marked.has(changed.id)).toBe(false);
    expect(app.store.getState().marked.has(unsent[0]!)).toBe(false);
    for (const id of unsent.slice(1)) expect(app.store.getState().marked.has(id)).toBe(true);
  });
});
