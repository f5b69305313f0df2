/**
 * The view stack on screen (issue 25): Esc returns to the view below as it was left — the browser's
 * cursor, the find's row, the form's typed values.
 */
import { describe, expect, it } from 'vitest';
import { findAcrossApi } from '../../src/app/find-across';
import { selectDialog, viewIds } from '../../src/store/view-stack';
import { renderApp } from '../helpers/app';
import { findEnv, rename } from '../helpers/find-env';

type App = Awaited<ReturnType<typeof renderApp>>;

/** The username on the cursor's row of the browser or the find results. */
const cursorRow = (frame: string) => /›\s+([A-Za-z0-9._~-]{12,30})/.exec(frame)?.[1];

const startApp = async () => {
  const app = await renderApp({ lines: 40 });
  await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
  return app;
};

/** The new-line form with a username and a label typed, the focus back on the package. */
async function formTyped(app: App) {
  await app.press('line.create');
  await app.waitFrame((f) => f.includes('New line —') && f.includes('‹ Premium'));
  await app.press('form.next'); // connections
  await app.press('form.next'); // username
  await app.type('stackprobe0001');
  await app.press('form.next');
  await app.press('form.next'); // label
  await app.type('Room 12');
  await app.waitFrame((f) => f.includes('stackprobe0001') && f.includes('Room 12'));
}

describe('Esc returns to where you were', () => {
  it('from a screen opened over the browser: the browser, its cursor on the same line', async () => {
    const app = await startApp();
    for (let i = 0; i < 4; i++) await app.press('lines.down');
    await app.waitFrame(() => app.store.getState().cursor === 4);
    const before = cursorRow(app.frame());
    expect(before).toBeDefined();
    await app.press('nav.account');
    await app.waitFrame((f) => !/\d+–\d+ of \d+/.test(f));
    await app.press('app.back');
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    expect(cursorRow(app.frame())).toBe(before);
    // From a line opened there, q comes back the same way.
    await app.press('lines.open');
    await app.waitFrame((f) => f.includes('Diagnosis'));
    await app.press('app.backOrQuit');
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    expect(cursorRow(app.frame())).toBe(before);
  });

  it('help opened over the form: back to the form, what was typed still there', async () => {
    const app = await startApp();
    await formTyped(app);
    while (app.store.getState().form?.focus !== 'package') await app.press('form.prev');
    await app.press('form.help');
    await app.waitFrame((f) => f.includes('Keys —') && !f.includes('Room 12'));
    await app.press('help.close');
    await app.waitFrame((f) => f.includes('New line —'));
    expect(app.frame()).toContain('stackprobe0001');
    expect(app.frame()).toContain('Room 12');
    expect(selectDialog(app.store.getState())).toBe('form');
  });

  it('the bouquet picker opened from the form: back to the form with its values and the pick', async () => {
    const app = await startApp();
    await formTyped(app);
    while (app.store.getState().form?.focus !== 'bouquets') await app.press('form.next');
    await app.press('form.toggle');
    await app.waitFrame((f) => f.includes('filter:') && !f.includes('Room 12'));
    await app.type('ukspo');
    await app.waitFrame((f) => f.includes('UK Sports') && !f.includes('UK News'));
    await app.press('picker.toggle');
    await app.press('picker.done');
    await app.waitFrame((f) => f.includes('New line —') && f.includes('1 chosen'));
    expect(app.frame()).toContain('stackprobe0001');
    expect(app.frame()).toContain('Room 12');
    // Esc in the picker undoes its changes and comes back to the form all the same.
    await app.press('form.toggle');
    await app.waitFrame((f) => f.includes('filter:'));
    await app.press('picker.cancel');
    await app.waitFrame((f) => f.includes('New line —') && f.includes('1 chosen'));
    expect(app.frame()).toContain('Room 12');
  });

  it('a line opened from the find results: back to the results, the same row selected', async () => {
    const env = await findEnv();
    rename(env.alpha, 71, 'ticket-user-alpha2');
    const app = await renderApp(
      {},
      {
        findAcross: findAcrossApi({
          userAgent: 'linedesk-test',
          current: {
            profile: 'alpha',
            label: 'alpha',
            baseUrl: env.alpha.sb.baseUrl,
            client: env.alpha.client,
          },
          configPath: env.configPath,
        }),
      },
      env.alpha,
    );
    await app.waitFrame((f) => f.includes('of 120'));
    await app.press('app.palette');
    await app.type('find ticket-user');
    await app.press('palette.run');
    await app.waitFrame((f) => !f.includes('searching…') && f.includes('ticket-user-alpha2'));
    await app.press('find.down');
    await app.waitFrame((f) => cursorRow(f) === 'ticket-user-alpha2');
    await app.press('find.open');
    await app.waitFrame((f) => f.includes('Diagnosis') && f.includes('ticket-user-alpha2'));
    await app.press('app.back');
    await app.waitFrame((f) => f.includes('Find "ticket-user"'));
    expect(cursorRow(app.frame())).toBe('ticket-user-alpha2');
    expect(viewIds(app.store.getState())).toEqual(['lines', 'find']);
  });

  it('a line opened from the renewals: back to the renewals, the same row selected', async () => {
    const app = await renderApp({ lines: 200 });
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    await app.press('nav.renewals');
    await app.waitFrame(() => app.store.getState().renewals.status === 'ready');
    for (let i = 0; i < 3; i++) await app.press('renewals.down');
    await app.waitFrame(() => app.store.getState().renewalsCursor === 3);
    const before = cursorRow(app.frame());
    expect(before).toBeDefined();
    await app.press('renewals.open');
    await app.waitFrame((f) => f.includes('Diagnosis') && f.includes(before!));
    await app.press('app.backOrQuit');
    await app.waitFrame(() => viewIds(app.store.getState()).join() === 'lines,renewals');
    await app.waitFrame((f) => cursorRow(f) === before);
    expect(app.store.getState().renewalsCursor).toBe(3);
  });

  it('a customer message chosen from the copy menu: Esc goes back to the screen, the menu done with', async () => {
    const app = await startApp();
    await app.press('lines.open');
    await app.waitFrame((f) => f.includes('Diagnosis'));
    await app.press('detail.copy');
    await app.waitFrame(() => selectDialog(app.store.getState()) === 'copy');
    await app.press('copy.message');
    await app.waitFrame(() => selectDialog(app.store.getState()) === 'message');
    await app.press('message.close');
    await app.waitFrame((f) => f.includes('Diagnosis'));
    expect(viewIds(app.store.getState())).toEqual(['lines', 'detail']);
  });
});
