import stripAnsi from 'strip-ansi';
import { describe, expect, it, vi } from 'vitest';
import { findAcrossApi } from '../../src/app/find-across';
import { profilesApi } from '../../src/app/profiles';
import { selectScreen, viewIds } from '../../src/store/view-stack';
import { glyphMode, setGlyphMode } from '../../src/ui/glyphs';
import { renderApp, storeOnSandbox } from '../helpers/app';
import { DOWN_KEY, findEnv, WRONG_KEY } from '../helpers/find-env';
import { DEMO_KEY } from '../helpers/sandbox';

/** The app on alpha (the profile in use) with the test's four profiles. */
async function findApp() {
  const env = await findEnv();
  const app = await renderApp(
    {},
    {
      findAcross: findAcrossApi({
        userAgent: 'linedesk-test',
        current: {
          profile: 'alpha',
          label: 'alpha · here',
          baseUrl: env.alpha.sb.baseUrl,
          client: env.alpha.client,
        },
        configPath: env.configPath,
      }),
      profiles: profilesApi('alpha', 'linedesk-test', env.configPath),
    },
    env.alpha,
  );
  await app.waitFrame((f) => f.includes('of 120'));
  const find = async (text: string) => {
    await app.press('app.palette');
    await app.type(`find ${text}`);
    await app.press('palette.run');
  };
  /** No frame drawn so far holds any of the keys, nor anything the find screen could draw (a
   *  frame cuts a long reason at the terminal's width). */
  const noKeyShown = () => {
    const all = [
      ...app.ui.frames.map((f) => stripAnsi(f)),
      JSON.stringify(app.store.getState().findGroups),
    ].join('\n');
    for (const key of [DEMO_KEY, DOWN_KEY, WRONG_KEY]) expect(all).not.toContain(key);
    for (const key of [DEMO_KEY, DOWN_KEY, WRONG_KEY]) expect(all).not.toContain(key.slice(-12));
  };
  return { ...env, app, find, noKeyShown };
}

describe(':find across two sandboxes, an unreachable profile and a bad key', () => {
  it('lists the matches by profile, the failed ones with reasons; Enter opens a line of the profile in use', async () => {
    const { app, find, noKeyShown, inAlpha } = await findApp();
    await find('ticket-user');
    await app.waitFrame((f) => !f.includes('searching…') && f.includes('wrongkey'));
    const f = app.frame();
    expect(f).toContain('Find "ticket-user" in 4 services');
    expect(f).toMatch(/── alpha · 127\.0\.0\.1:\d+ \(in use\): 1 match/);
    expect(f).toMatch(/── beta · 127\.0\.0\.1:\d+: 1 match/);
    expect(f).toMatch(/── down · 127\.0\.0\.1:\d+: failed: unreachable: Could not connect/);
    expect(f).toMatch(/── wrongkey · 127\.0\.0\.1:\d+: failed: bad key: The API key was refused/);
    // Grouped: each match under its own profile's heading, the profile in use first.
    const at = (s: string) => f.indexOf(s);
    expect(at('── alpha')).toBeLessThan(at('ticket-user-alpha1'));
    expect(at('ticket-user-alpha1')).toBeLessThan(at('── beta'));
    expect(at('── beta')).toBeLessThan(at('ticket-user-beta01'));
    expect(f).toMatch(/›\s+ticket-user-alpha1/);
    // The profile in use: Enter just opens the line; Esc comes back to the matches.
    await app.press('find.open');
    await app.waitFrame((x) => x.includes('Diagnosis') && x.includes(inAlpha.id));
    expect(app.store.getState().switchProfile).toBeNull();
    await app.press('app.back');
    await app.waitFrame((x) => x.includes('Find "ticket-user"'));
    noKeyShown();
  });

  it('in ASCII glyphs the cursor on a match is ">"', async () => {
    const before = glyphMode();
    setGlyphMode('ascii');
    try {
      const { app, find } = await findApp();
      await find('ticket-user');
      await app.waitFrame((f) => !f.includes('searching…') && f.includes('wrongkey'));
      expect(app.frame()).toMatch(/^>\s+ticket-user-alpha1/m);
      expect(app.frame()).not.toContain('›');
    } finally {
      setGlyphMode(before);
    }
  });

  it('Enter on a match then q comes back to the matches, the cursor on the line it opened', async () => {
    const { app, find } = await findApp();
    await find('ticket-user');
    await app.waitFrame((f) => !f.includes('searching…') && f.includes('wrongkey'));
    await app.press('find.open');
    await app.waitFrame((x) => x.includes('Diagnosis'));
    await app.press('app.backOrQuit');
    await app.waitFrame((x) => x.includes('Find "ticket-user"'));
    expect(app.frame()).toMatch(/›\s+ticket-user-alpha1/);
    expect(viewIds(app.store.getState())).toEqual(['lines', 'find']);
  });

  it('an id is found; Enter on a match in another profile sets the switch with the line to open', async () => {
    const { app, find, noKeyShown, inBeta } = await findApp();
    await find(inBeta.id);
    await app.waitFrame((f) => !f.includes('searching…') && f.includes('ticket-user-beta01'));
    expect(app.frame()).toMatch(/── alpha · [^\n]*: no match/);
    // The only match is beta's: the cursor is on it.
    await app.press('find.open');
    await vi.waitFor(() => expect(app.store.getState().quitRequested).toBe(true));
    expect(app.store.getState().switchProfile).toEqual({
      profile: 'beta',
      openLine: { id: inBeta.id, username: 'ticket-user-beta01', find: inBeta.id },
    });
    noKeyShown();
  });

  it('↓ moves to the next match across groups; r searches again', async () => {
    const { app, find, alpha } = await findApp();
    await find('ticket-user');
    await app.waitFrame((f) => !f.includes('searching…') && f.includes('wrongkey'));
    await app.press('find.down');
    await app.waitFrame((f) => /›\s+ticket-user-beta01/.test(f));
    // A new line in the profile in use, then r: it is listed.
    await alpha.client.createTrial({ duration: 24, username: 'ticket-user-alpha2' });
    await app.press('app.refresh');
    await app.waitFrame((f) => f.includes('ticket-user-alpha2') && /\(in use\): 2 matches/.test(f));
    // The cursor stays on the line it was on.
    expect(app.frame()).toMatch(/›\s+ticket-user-beta01/);
  });

  it('the next store opens the line it was switched for, once its first load is done', async () => {
    const { beta, inBeta } = await findEnv();
    const { store } = await storeOnSandbox(
      {},
      { openLine: { id: inBeta.id, username: inBeta.username } },
      beta,
    );
    await store.getState().start();
    await vi.waitFor(() => {
      const top = selectScreen(store.getState());
      expect(top?.id === 'detail' && top.line.id).toBe(inBeta.id);
    });
  });

  it('after a switch for a match, q on the opened line comes back to the find, the cursor on it', async () => {
    const env = await findEnv();
    const app = await renderApp(
      {},
      {
        findAcross: findAcrossApi({
          userAgent: 'linedesk-test',
          current: {
            profile: 'beta',
            label: 'beta · here',
            baseUrl: env.beta.sb.baseUrl,
            client: env.beta.client,
          },
          configPath: env.configPath,
        }),
        openLine: { id: env.inBeta.id, username: env.inBeta.username, find: 'ticket-user' },
      },
      env.beta,
    );
    await app.waitFrame((f) => f.includes('Diagnosis') && f.includes(env.inBeta.id));
    await app.press('app.backOrQuit');
    await app.waitFrame((f) => f.includes('Find "ticket-user"') && !f.includes('searching…'));
    expect(app.frame()).toMatch(/›\s+ticket-user-beta01/);
    expect(viewIds(app.store.getState())).toEqual(['lines', 'find']);
  });

  it('a line no longer there is said so, and the browser stays', async () => {
    const { alpha, inBeta } = await findEnv();
    const { store } = await storeOnSandbox(
      {},
      { openLine: { id: inBeta.id, username: inBeta.username } },
      alpha,
    );
    await store.getState().start();
    await vi.waitFor(() =>
      expect(store.getState().flash?.text).toBe(
        `Line ticket-user-beta01 (${inBeta.id}) was not found on SANDBOX`,
      ),
    );
    expect(viewIds(store.getState())).toEqual(['lines']);
  });

  it('without text it asks for one, and without the find it says so', async () => {
    const { store } = await storeOnSandbox();
    await store.getState().findAcross('   ');
    expect(store.getState().flash?.text).toMatch(/find: a username or id/);
    await store.getState().findAcross('smith');
    expect(store.getState().flash?.text).toBe('Find across accounts is not available in this session');
  });
});
