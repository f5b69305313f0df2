/**
 * `linedesk line` prints a line's connection links (and `--json` has them as `links`); `linedesk
 * message` fills {M3U_URL}, {EPG_URL}, {PORTAL_URL}. Against the sandbox over HTTP, with link templates
 * from the config (the top-level `links`, a profile's own) and hostile hosts written into its database.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envFor, headless, homeDirs } from '../helpers/headless';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';

const HOST = 'demo.tv.sandbox.linedesk';

function writeConfig(dir: string, config: unknown) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(config));
  chmodSync(file, 0o600);
}

async function setup() {
  const env0 = await sandbox({ lines: 12 });
  const home = homeDirs();
  const env = envFor(env0.sb.baseUrl, DEMO_KEY, home);
  const first = JSON.parse((await headless(['lines', '--json', '--limit', '1'], { env })).stdout).lines[0];
  const line = env0.sb.repo.db.prepare('SELECT * FROM lines WHERE id = ?').get(first.id) as {
    id: string;
    username: string;
    password: string;
  };
  return { ...env0, env, home, line };
}

describe('linedesk line: connection links', () => {
  it('--json has them as `links`; the password only with --show-password', async () => {
    const { env, line } = await setup();
    const hidden = JSON.parse((await headless(['line', line.username, '--json'], { env })).stdout);
    expect(hidden.links).toEqual({
      host: HOST,
      m3u: { url: null, reason: 'it holds the password: --show-password prints it' },
      epg: { url: null, reason: 'it holds the password: --show-password prints it' },
      portal: { url: `http://${HOST}/stalker_portal/c/`, reason: null },
      xtream: { server: { url: `http://${HOST}`, reason: null }, username: line.username },
    });
    expect(JSON.stringify(hidden)).not.toContain(line.password);

    const shown = JSON.parse(
      (await headless(['line', line.username, '--json', '--show-password'], { env })).stdout,
    );
    expect(shown.links.m3u).toEqual({
      url: `http://${HOST}/get.php?username=${line.username}&password=${line.password}&type=m3u_plus&output=ts`,
      reason: null,
    });
    expect(shown.links.epg.url).toBe(
      `http://${HOST}/xmltv.php?username=${line.username}&password=${line.password}`,
    );
    expect(shown.links.xtream).toEqual({
      server: { url: `http://${HOST}`, reason: null },
      username: line.username,
      password: line.password,
    });
  });

  it('text: one row per link, the password masked unless --show-password', async () => {
    const { env, line } = await setup();
    const r = await headless(['line', line.username], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `M3U playlist\thttp://${HOST}/get.php?username=${line.username}&password=********&type=m3u_plus&output=ts\n`,
    );
    expect(r.stdout).toContain(
      `EPG guide\thttp://${HOST}/xmltv.php?username=${line.username}&password=********\n`,
    );
    expect(r.stdout).toContain(`Xtream server\thttp://${HOST}\n`);
    expect(r.stdout).toContain(`MAG portal\thttp://${HOST}/stalker_portal/c/\n`);
    expect(r.stdout).not.toContain(line.password);
    const shown = await headless(['line', line.username, '--show-password'], { env });
    expect(shown.stdout).toContain(`&password=${line.password}&type=m3u_plus`);
  });

  it("the account's host when the line has none; a hostile host says why instead of a link", async () => {
    const { sb, env, line } = await setup();
    sb.repo.db.prepare('UPDATE lines SET hostname = NULL WHERE id = ?').run(line.id);
    const fallback = JSON.parse(
      (await headless(['line', line.id, '--json', '--show-password'], { env })).stdout,
    );
    expect(fallback.links.m3u.url).toMatch(new RegExp(`^http://${HOST.replace(/\./g, '\\.')}/get\\.php\\?`));

    sb.repo.db.prepare('UPDATE lines SET hostname = ? WHERE id = ?').run('evil.example/x?y=1#', line.id);
    const evil = await headless(['line', line.id, '--json', '--show-password'], { env });
    expect(evil.code).toBe(0);
    const doc = JSON.parse(evil.stdout);
    expect(doc.links.host).toBeNull();
    expect(doc.links.m3u.url).toBeNull();
    expect(doc.links.m3u.reason).toMatch(/^the line's server host "evil\.example\/x\?y=1#" is unusable: /);
    expect(doc.links.xtream.server.url).toBeNull();
    const text = await headless(['line', line.id], { env });
    expect(text.stdout).toMatch(/M3U playlist\tnone: the line's server host .* is unusable/);
    expect(text.stdout).not.toContain('http://evil');

    sb.repo.db.prepare('UPDATE lines SET hostname = NULL WHERE id = ?').run(line.id);
    sb.repo.db.prepare("UPDATE accounts SET hostname = '' WHERE email = 'demo@sandbox.linedesk'").run();
    const none = JSON.parse((await headless(['line', line.id, '--json'], { env })).stdout);
    expect(none.links.epg).toEqual({
      url: null,
      reason: 'no server host: neither the line nor the account names one',
    });
  });

  it("templates from the config: a profile's own over the top-level; a bad one named on stderr and left out", async () => {
    const { sb, home, line } = await setup();
    writeConfig(home.LINEDESK_CONFIG_DIR, {
      version: 1,
      defaultProfile: null,
      links: { m3u: 'https://{hostname}/top/{username}.m3u', epg: 'https://{hostname}/top.xml' },
      profiles: {
        shop: {
          baseUrl: sb.baseUrl,
          apiKey: DEMO_KEY,
          links: {
            m3u: 'https://{hostname}:8443/p/{username}/{password}',
            epg: 'http://x.example/?h={hostname}',
          },
        },
      },
    });
    const env = { ...home, LINEDESK_PROFILE: 'shop', NO_COLOR: '' };
    const r = await headless(['line', line.username, '--json', '--show-password'], { env });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.links.m3u.url).toBe(`https://${HOST}:8443/p/${line.username}/${line.password}`);
    expect(doc.links.epg.url).toBe(`https://${HOST}/top.xml`); // the profile's was refused
    expect(r.stderr).toContain(
      'Link template profiles.shop.links.epg: {hostname} must be the whole address, right after http:// or https:// (once; a :port may follow); left out (the default is used)',
    );
    // Without the profile (a base URL and a key): only the top-level templates.
    const plain = JSON.parse(
      (
        await headless(['line', line.username, '--json', '--show-password'], {
          env: envFor(sb.baseUrl, DEMO_KEY, home),
        })
      ).stdout,
    );
    expect(plain.links.m3u.url).toBe(`https://${HOST}/top/${line.username}.m3u`);
  });

  it('message: {M3U_URL}, {EPG_URL} and {PORTAL_URL} are filled; a line without a host leaves them missing', async () => {
    const { sb, home, line } = await setup();
    writeConfig(home.LINEDESK_CONFIG_DIR, {
      version: 1,
      defaultProfile: null,
      profiles: {},
      templates: [{ id: 'links', name: 'Links', body: 'M3U {M3U_URL}\nEPG {EPG_URL}\nSTB {PORTAL_URL}' }],
    });
    const env = envFor(sb.baseUrl, DEMO_KEY, home);
    const r = await headless(['message', 'links', line.username], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        `M3U http://${HOST}/get.php?username=${line.username}&password=${line.password}&type=m3u_plus&output=ts`,
        `EPG http://${HOST}/xmltv.php?username=${line.username}&password=${line.password}`,
        `STB http://${HOST}/stalker_portal/c/`,
        '',
      ].join('\n'),
    );
    sb.repo.db.prepare('UPDATE lines SET hostname = ? WHERE id = ?').run('user@evil.example', line.id);
    const bad = await headless(['message', 'links', line.username], { env });
    expect(bad.stdout).toBe(`M3U \nEPG \nSTB http://${HOST}/stalker_portal/c/\n`);
  });
});
