import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import { type CommandId, command, keyHintText } from '../../src/commands/keymap';
import { keyBytes } from '../helpers/app';
import { spawnSandbox } from '../helpers/bundle';
import { spawnApp } from '../helpers/pty';

const key = (id: CommandId) => keyBytes(command(id).keys[0]!);
const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

/** The built app in a real pty on its own sandbox, on the premium lines (every one extendable). */
async function onPremium() {
  const { child, info } = await spawnSandbox(['--lines', '20']);
  cleanups.push(() => child.kill());
  const apiKey = info.accounts[0]!.apiKey;
  const client = createClient({ baseUrl: info.baseUrl, apiKey });
  cleanups.push(() => void client.close());
  const app = spawnApp([], { LINEDESK_BASE_URL: info.baseUrl, LINEDESK_API_KEY: apiKey });
  cleanups.push(app.cleanup);
  await app.waitFor((s) => /1–\d+ of 20/.test(s));
  app.write(key('lines.filterType'));
  await app.waitFor((s) => s.includes('type premium') && !s.includes('loading'));
  return { app, client, opening: (await client.me()).credits };
}

// Keys as SSH delivers them, through the real terminal and Ink's own reading of stdin: the bundle
// is what runs, so its key parsing is the one tested. Nothing here sleeps: it polls the screen.
describe('keys typed ahead, in a real terminal', () => {
  it('e and Enter in one write: nothing charged; the dialog says so; Enter once it is armed charges once', async () => {
    const { app, client, opening } = await onPremium();
    app.write(`${key('line.extend')}${key('action.confirm')}`);
    // Whichever comes: the dialog saying the Enter was dropped, or (as before) the change done.
    await app.waitFor(
      (s) => s.includes('1 key typed ahead of this dialog was ignored') || s.includes('Charged'),
    );
    expect((await client.me()).credits).toBe(opening);
    expect(app.screen()).not.toContain('Charged');
    // The hint offers Enter only once the dialog has been on screen for the arm delay.
    await app.waitFor((s) => s.includes(`${keyHintText('action.confirm')} confirms`));
    const cost = Number(/Cost\s+(\d+) credits?/.exec(app.screen())![1]);
    app.write(key('action.confirm'));
    await app.waitFor((s) => s.includes('Charged'));
    expect((await client.me()).credits).toBe(opening - cost);
  }, 30_000);

  it('e, then Enter as soon as the dialog is drawn: held, asked again; nothing charged', async () => {
    const { app, client, opening } = await onPremium();
    app.write(key('line.extend'));
    await app.waitFor((s) => s.includes('estimate from package prices'));
    app.write(key('action.confirm'));
    await app.waitFor((s) => s.includes('press Enter again to confirm') || s.includes('Charged'));
    expect((await client.me()).credits).toBe(opening);
  }, 30_000);

  it('every line marked, then Esc, : and a command in one write: the palette takes it; nothing starts', async () => {
    const { app, client, opening } = await onPremium();
    app.write(key('lines.markAll'));
    await app.waitFor((s) => /\d+ marked/.test(s));
    // `extent` is no command (`:extend` is one now, and opens the preview as `e` does): had its
    // letters gone to the browser, `e` would have opened the bulk preview.
    app.write('\u001b:extent\r');
    await app.waitFor((s) => s.includes('Unknown command "extent"') || /done [1-9]/.test(s));
    expect(app.screen()).not.toContain('marked lines by');
    expect((await client.me()).credits).toBe(opening);
  }, 30_000);
});
