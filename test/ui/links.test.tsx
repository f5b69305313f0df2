/** The line detail's connection links: shown (the password masked as the detail masks it), each
 *  copied with one key; a line without a usable host shows why, and its keys refuse with that reason. */
import { describe, expect, it } from 'vitest';
import { keyHintText } from '../../src/commands/keymap';
import { loaded } from '../../src/domain/load';
import { renderApp } from '../helpers/app';

const HOST = 'demo.tv.sandbox.linedesk';

/** What the four copy keys put on the clipboard for a sandbox line: playlist, guide, Xtream, portal. */
const copiedLinks = (line: { readonly username: string; readonly password: string }) => [
  `http://${HOST}/get.php?username=${line.username}&password=${line.password}&type=m3u_plus&output=ts`,
  `http://${HOST}/xmltv.php?username=${line.username}&password=${line.password}`,
  `http://${HOST}\n${line.username}\n${line.password}`,
  `http://${HOST}/stalker_portal/c/`,
];

describe('line detail: connection links', () => {
  it('shows the M3U, EPG, Xtream and portal rows; one key copies each', async () => {
    const app = await renderApp({ lines: 40 });
    await app.waitFrame((f) => f.includes('of 40'));
    const line = loaded(app.store.getState().lines)!.lines[0]!;
    await app.press('lines.open');
    await app.waitFrame((f) => f.includes(`Line ${line.username}`) && f.includes('MAG portal'));
    const frame = app.frame();
    expect(frame).toMatch(
      new RegExp(
        `M3U playlist\\s+${keyHintText('link.playlist')} copies {2}http://${HOST}/get\\.php\\?username=`,
      ),
    );
    expect(frame).toMatch(
      new RegExp(`Xtream server\\s+${keyHintText('link.xtream')} copies {2}http://${HOST}\\n`),
    );
    expect(frame).toMatch(
      new RegExp(`MAG portal\\s+${keyHintText('link.portal')} copies {2}http://${HOST}/stalker_portal/c/`),
    );
    expect(frame).toContain('Line id'); // a 24-row terminal still shows the line's id
    expect(frame).not.toContain(line.password);

    await app.press('link.playlist');
    await app.waitFrame((f) => f.includes('Copied the playlist (M3U) link to the test clipboard'));
    await app.press('link.guide');
    await app.waitFrame((f) => f.includes('Copied the guide (EPG) link'));
    await app.press('link.xtream');
    await app.waitFrame((f) => f.includes('Copied the Xtream server, username and password'));
    await app.press('link.portal');
    await app.waitFrame((f) => f.includes('Copied the MAG portal address'));
    expect(app.copied).toEqual(copiedLinks(line));
  });

  it('the copy menu (y) on the browser copies the same links with the same keys as the detail', async () => {
    const app = await renderApp({ lines: 40 });
    await app.waitFrame((f) => f.includes('of 40'));
    const line = loaded(app.store.getState().lines)!.lines[0]!;
    for (const [menu, detail] of [
      ['copy.playlist', 'link.playlist'],
      ['copy.guide', 'link.guide'],
      ['copy.xtream', 'link.xtream'],
      ['copy.portal', 'link.portal'],
    ] as const) {
      expect(keyHintText(menu)).toBe(keyHintText(detail));
      await app.press('line.copy');
      await app.waitFrame((f) => f.includes('Copy to the clipboard') && f.includes('playlist (M3U) link'));
      await app.press(menu);
      await app.waitFrame((f) => !f.includes('Copy to the clipboard'));
    }
    await app.waitFrame((f) => f.includes('Copied the MAG portal address'));
    expect(app.copied).toEqual(copiedLinks(line));
  });

  it('a hostile host from the server: the reason instead of a link, and the keys say it', async () => {
    const app = await renderApp({ lines: 40 });
    await app.waitFrame((f) => f.includes('of 40'));
    const line = loaded(app.store.getState().lines)!.lines[0]!;
    app.sb.repo.db.prepare('UPDATE lines SET hostname = ? WHERE id = ?').run('user@evil.example/x', line.id);
    await app.press('app.refresh');
    await app.waitFrame((f) => f.includes('of 40') && !f.includes('loading'));
    await app.press('lines.open');
    await app.waitFrame((f) => f.includes(`Line ${line.username}`) && f.includes('MAG portal'));
    expect(app.frame()).toMatch(
      /M3U playlist\s+none: the line's server host "user@evil\.example\/x" is unusable/,
    );
    expect(app.frame()).not.toContain(`${keyHintText('link.playlist')} copies`);
    expect(app.frame()).not.toContain('http://user@evil');
    await app.press('link.playlist');
    await app.waitFrame((f) => f.includes("No playlist (M3U) link: the line's server host"));
    // The portal is the account's: still there, still copied.
    await app.press('link.portal');
    await app.waitFrame((f) => f.includes('Copied the MAG portal address'));
    expect(app.copied).toEqual([`http://${HOST}/stalker_portal/c/`]);
  });
});
