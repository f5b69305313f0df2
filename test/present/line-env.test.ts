import { describe, expect, it } from 'vitest';
import type { LineListItem } from '../../src/api/contract';
import { buildLinks, type LinkTemplates, linkTemplatesFor, linkValues } from '../../src/domain/links';
import { fillTemplate } from '../../src/domain/templates';
import { LINE_ENV_NAMES, lineEnv } from '../../src/present/line-env';
import { lineItem } from '../helpers/fixtures';

const line = (over: Partial<LineListItem>): LineListItem =>
  lineItem({ id: 'L1', hostname: 'tv.example.com:8080', username: 'ana & co', password: 'p#ss?=1', ...over });

describe('a command of yours gets the line’s connection links', () => {
  it('as the detail builds them (credentials URL-encoded), empty when the line has no usable host', () => {
    const l = line({});
    const env = lineEnv(l, { nowMs: 0, links: buildLinks(l, null) });
    expect(env.LINEDESK_M3U_URL).toBe(
      'http://tv.example.com:8080/get.php?username=ana%20%26%20co&password=p%23ss%3F%3D1&type=m3u_plus&output=ts',
    );
    expect(env.LINEDESK_EPG_URL).toBe(
      'http://tv.example.com:8080/xmltv.php?username=ana%20%26%20co&password=p%23ss%3F%3D1',
    );
    expect(env.LINEDESK_SERVER_URL).toBe('http://tv.example.com:8080');
    // A host a server made hostile gives no link at all, never a link to somewhere else.
    const bad = line({ hostname: 'evil.example/x?y=' });
    const none = lineEnv(bad, { nowMs: 0, links: buildLinks(bad, null) });
    expect([none.LINEDESK_M3U_URL, none.LINEDESK_EPG_URL, none.LINEDESK_SERVER_URL]).toEqual(['', '', '']);
    expect(LINE_ENV_NAMES).toEqual(expect.arrayContaining(['LINEDESK_M3U_URL', 'LINEDESK_PORTAL_URL']));
  });

  it('the same link values a customer message fills, for every link, a missing one empty', () => {
    const { templates } = linkTemplatesFor({ links: { portal: 'http://{hostname}/c/' } }, null);
    for (const [l, t] of [
      [line({}), templates],
      [line({}), undefined],
      [line({ hostname: 'evil.example/x?y=' }), templates],
    ] as Array<[LineListItem, LinkTemplates | undefined]>) {
      const links = buildLinks(l, null, t);
      const v = linkValues(links);
      const env = lineEnv(l, { nowMs: 0, links });
      expect([
        env.LINEDESK_M3U_URL,
        env.LINEDESK_EPG_URL,
        env.LINEDESK_SERVER_URL,
        env.LINEDESK_PORTAL_URL,
      ]).toEqual([v.m3u, v.epg, v.server, v.portal].map((u) => u ?? ''));
      const message = fillTemplate(
        { id: 't', name: 't', body: '{M3U_URL}|{EPG_URL}|{PORTAL_URL}' } as never,
        { username: l.username, password: l.password, expMs: null, links: v },
        0,
      );
      expect(message).toBe([env.LINEDESK_M3U_URL, env.LINEDESK_EPG_URL, env.LINEDESK_PORTAL_URL].join('|'));
    }
  });
});
