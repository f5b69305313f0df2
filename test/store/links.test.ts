/** The store's messages fill {M3U_URL}, {EPG_URL} and {PORTAL_URL} with the service's link templates
 *  (the deps' `links`, as app/connection.ts gives them) and the account as loaded. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type LinkTemplates, linkTemplatesFor } from '../../src/domain/links';
import { loaded } from '../../src/domain/load';
import { selectLinksOf } from '../../src/store/selectors';
import { storeOnSandbox } from '../helpers/app';

const HOST = 'demo.tv.sandbox.linedesk';
const body = '{M3U_URL}|{EPG_URL}|{PORTAL_URL}';
const tpl = { id: 'links', name: 'Links', body };

async function started(links?: LinkTemplates) {
  const s = await storeOnSandbox({ lines: 12 }, links ? { links } : {});
  await s.store.getState().start();
  const line = loaded(s.store.getState().lines)!.lines[0]!;
  return { ...s, line };
}

describe('messages: the link placeholders', () => {
  it('the defaults: the line host, its credentials, the account portal', async () => {
    const { store, line } = await started();
    const { text, missing } = store.getState().messageFor(tpl, line);
    expect(text).toBe(
      [
        `http://${HOST}/get.php?username=${line.username}&password=${line.password}&type=m3u_plus&output=ts`,
        `http://${HOST}/xmltv.php?username=${line.username}&password=${line.password}`,
        `http://${HOST}/stalker_portal/c/`,
      ].join('|'),
    );
    expect(missing).toEqual([]);
  });

  it("the service's templates; a line with an unusable host leaves its links missing, named", async () => {
    const { templates } = linkTemplatesFor(
      { links: { m3u: 'https://{hostname}/p/{username}.m3u', portal: 'http://{hostname}/c/' } },
      null,
    );
    const { store, line } = await started(templates);
    expect(store.getState().messageFor(tpl, line).text).toBe(
      `https://${HOST}/p/${line.username}.m3u|http://${HOST}/xmltv.php?username=${line.username}&password=${line.password}|http://${HOST}/c/`,
    );
    const hostile = { ...line, hostname: 'https://evil.example' };
    expect(store.getState().messageFor(tpl, hostile)).toEqual({
      text: '||',
      missing: ['M3U_URL', 'EPG_URL', 'PORTAL_URL'],
    });
  });
});

describe("a line's links: one path for the screens", () => {
  it('selectLinksOf keeps its links while the line, the account and the templates hold', async () => {
    const { store, line } = await started();
    const links = selectLinksOf(store.getState(), line);
    expect(selectLinksOf(store.getState(), line)).toBe(links);
    expect(selectLinksOf(store.getState(), { ...line })).toEqual(links);
    const { templates } = linkTemplatesFor({ links: { m3u: 'https://{hostname}/p/{username}.m3u' } }, null);
    store.setState({ linkTemplates: templates });
    const other = selectLinksOf(store.getState(), line);
    expect(other).not.toBe(links);
    expect(other.m3u).toMatchObject({ ok: true, url: `https://${HOST}/p/${line.username}.m3u` });
  });

  it('the screens and the store build no links of their own: only the selector calls buildLinks', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
      );
    const callers = ['src/ui', 'src/store', 'src/commands', 'src/keys']
      .flatMap(files)
      .filter((f) => /\bbuildLinks\(/.test(readFileSync(f, 'utf8')));
    expect(callers).toEqual([join('src/store', 'selectors.ts')]);
  });
});
