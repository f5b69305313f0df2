import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildLinks,
  checkHost,
  defaultLinkTemplates,
  type Link,
  type LinkAccount,
  linkTemplatesFor,
  PASSWORD_MASK,
  parseLinkTemplate,
} from '../../src/domain/links';

const account = (hostname = 'panel.example.com', portal = 'http://panel.example.com/stalker_portal/c/') =>
  ({ server_information: { hostname, mag_portal_url: portal } }) satisfies LinkAccount;
const line = (o: { hostname?: string | null; username?: string; password?: string } = {}) => ({
  hostname: 'tv.example.com',
  username: 'alice0000001',
  password: 'pw0000000000001',
  ...o,
});
const url = (l: Link) => {
  if (!l.ok) throw new Error(`no link: ${l.reason}`);
  return l.url;
};
const reason = (l: Link) => (l.ok ? null : l.reason);

describe('buildLinks with the default templates', () => {
  it('builds the playlist, guide, server and portal from the line host and credentials', () => {
    const links = buildLinks(line(), account());
    expect(url(links.m3u)).toBe(
      'http://tv.example.com/get.php?username=alice0000001&password=pw0000000000001&type=m3u_plus&output=ts',
    );
    expect(url(links.epg)).toBe(
      'http://tv.example.com/xmltv.php?username=alice0000001&password=pw0000000000001',
    );
    expect(url(links.server)).toBe('http://tv.example.com');
    expect(url(links.portal)).toBe('http://panel.example.com/stalker_portal/c/');
    expect(links.host).toBe('tv.example.com');
  });

  it("uses the account's host when the line has none (null or blank), with its port", () => {
    for (const hostname of [null, '', '   ']) {
      const links = buildLinks(line({ hostname }), account('panel.example.com:8080'));
      expect(url(links.m3u)).toMatch(/^http:\/\/panel\.example\.com:8080\/get\.php\?/);
    }
  });

  it('URL-encodes hostile usernames and passwords: spaces, &, #, =, ?, /, %, +, unicode', () => {
    const password = 'a b&c#d=e?f/g%h+i€ü😀';
    const username = 'bob&type=evil#x';
    const links = buildLinks(line({ username, password }), account());
    const m3u = new URL(url(links.m3u));
    expect(m3u.host).toBe('tv.example.com');
    expect(m3u.pathname).toBe('/get.php');
    expect(m3u.hash).toBe('');
    expect(m3u.searchParams.get('username')).toBe(username);
    expect(m3u.searchParams.get('password')).toBe(password);
    expect(m3u.searchParams.getAll('type')).toEqual(['m3u_plus']);
    expect(url(links.m3u)).toContain(
      'password=a%20b%26c%23d%3De%3Ff%2Fg%25h%2Bi%E2%82%AC%C3%BC%F0%9F%98%80&type',
    );
  });

  it.each([
    ['a path', 'evil.example/steal'],
    ['credentials', 'user@evil.example'],
    ['credentials before the real host', 'tv.example.com@evil.example'],
    ['a scheme', 'http://evil.example'],
    ['a scheme without slashes', 'javascript:alert(1)'],
    ['a query', 'evil.example?x=1'],
    ['a fragment', 'evil.example#x'],
    ['a space', 'evil example.com'],
    ['a backslash', 'evil.example\\path'],
    ['two ports', 'evil.example:80:80'],
    ['a port out of range', 'evil.example:70000'],
    ['a percent escape', 'evil%2eexample'],
    ['a control', 'evil\u0007.example'],
    ['a leading hyphen', '-evil.example'],
  ])(
    "a line's hostname with %s makes no link and says why (never the account's host instead)",
    (_, hostname) => {
      const links = buildLinks(line({ hostname }), account());
      expect(links.host).toBeNull();
      for (const l of [links.m3u, links.epg, links.server]) {
        expect(l.ok).toBe(false);
        expect(reason(l)).toMatch(/^the line's server host ".*" is unusable: /);
      }
      // The portal is the account's, and does not depend on the line's host.
      expect(url(links.portal)).toBe('http://panel.example.com/stalker_portal/c/');
    },
  );

  it('no host at all: the reason, not a broken link', () => {
    const links = buildLinks(line({ hostname: null }), account(''));
    expect(reason(links.m3u)).toBe('no server host: neither the line nor the account names one');
    expect(reason(links.server)).toBe('no server host: neither the line nor the account names one');
    const unloaded = buildLinks(line({ hostname: null }), null);
    expect(reason(unloaded.epg)).toBe("no server host: the line has none, and the account's is not loaded");
    expect(reason(unloaded.portal)).toBe('the account is not loaded');
  });

  it('an international host goes in its ASCII form; IPv4, IPv6 and ports are kept', () => {
    expect(url(buildLinks(line({ hostname: 'bücher.example' }), null).server)).toBe(
      'http://xn--bcher-kva.example',
    );
    expect(url(buildLinks(line({ hostname: '10.0.0.5:8000' }), null).server)).toBe('http://10.0.0.5:8000');
    expect(url(buildLinks(line({ hostname: '[::1]:8080' }), null).server)).toBe('http://[::1]:8080');
    expect(url(buildLinks(line({ hostname: ' TV.Example.com ' }), null).server)).toBe(
      'http://tv.example.com',
    );
  });

  it("the account's portal address is used only when it is an http(s) URL without credentials", () => {
    for (const bad of ['javascript:alert(1)', 'ftp://x.example/', 'http://u:p@x.example/', 'not a url'])
      expect(reason(buildLinks(line(), account('h.example', bad)).portal)).toMatch(
        /is not an http\(s\) URL$/,
      );
    expect(reason(buildLinks(line(), account('h.example', '')).portal)).toBe(
      'the account names no portal address',
    );
  });

  it('hidden: the link with its password masked, where the password is hidden', () => {
    const links = buildLinks(line({ password: 'p&ss word' }), account());
    expect(links.m3u.ok && links.m3u.hidden).toBe(
      `http://tv.example.com/get.php?username=alice0000001&password=${PASSWORD_MASK}&type=m3u_plus&output=ts`,
    );
    expect(links.m3u.ok && links.m3u.hasPassword).toBe(true);
    expect(links.server.ok && links.server.hidden).toBe('http://tv.example.com');
    expect(links.server.ok && links.server.hasPassword).toBe(false);
  });

  it('property: any credentials come back out of the link as they went in, and never move its host or path', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), fc.string({ maxLength: 30 }), (u, p) => {
        const links = buildLinks(line({ username: u, password: p }), null);
        const m = new URL(url(links.m3u));
        expect(m.host).toBe('tv.example.com');
        expect(m.pathname).toBe('/get.php');
        expect(m.hash).toBe('');
        expect(m.searchParams.get('username')).toBe(u);
        expect(m.searchParams.get('password')).toBe(p);
        expect(m.searchParams.get('output')).toBe('ts');
      }),
    );
  });

  it('property: any hostname gives a link on that host and the template path, or a reason', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 40 }),
          fc
            .tuple(fc.domain(), fc.constantFrom('', ':80', ':8080', '/x', '@evil.example', '?q', '#f'))
            .map(([d, t]) => d + t),
          fc.tuple(fc.constantFrom('http://', 'https://', 'x:', ''), fc.domain()).map(([s, d]) => s + d),
          fc.constantFrom('a/b', 'a@b', 'a?b'),
        ),
        (hostname) => {
          const links = buildLinks(line({ hostname }), null);
          if (!links.m3u.ok) {
            expect(links.m3u.reason).toMatch(/server host|no server host/);
            return;
          }
          const m = new URL(links.m3u.url);
          expect(m.host).toBe(new URL(`http://${links.host}`).host);
          expect(m.pathname).toBe('/get.php');
          expect(m.username + m.password).toBe('');
        },
      ),
    );
  });
});

describe('checkHost', () => {
  it('keeps an explicit default port (an https template must not lose :80)', () => {
    expect(checkHost('tv.example.com:80')).toEqual({
      ok: true,
      host: 'tv.example.com:80',
      name: 'tv.example.com',
    });
  });
});

describe('link templates', () => {
  const error = (t: unknown) => {
    const r = parseLinkTemplate(t);
    return r.ok ? null : r.error;
  };

  it('accepts the defaults, https, a fixed host, and the password anywhere after the address', () => {
    expect(error('https://{hostname}/playlist/{username}/{password}/m3u_plus')).toBeNull();
    expect(error('https://cdn.example.com:8443/get.php?u={username}')).toBeNull();
    expect(error('http://{hostname}')).toBeNull();
  });

  it.each([
    [42, /expected text/],
    ['', /1–500 characters/],
    ['http://{hostname}/a b', /space/],
    ['http://{hostname}/ü', /non-ASCII/],
    ['ftp://{hostname}/', /http:\/\/ or https:\/\//],
    ['{hostname}/get.php', /http:\/\/ or https:\/\//],
    ['http://{hostname}/{user}', /unknown placeholder \{user\}/],
    ['http://{hostname}/{', /stray "\{"/],
    ['http://{hostname}/}', /stray "\}"/],
    ['http://{hostname}:0/', /port is not 1–65535/],
    ['http://{hostname}:8080:1/', /whole address/],
    ['http://{username}:{password}@{hostname}/', /whole address/],
    ['http://x.example/?h={hostname}', /whole address/],
    ['http://{hostname}/?again={hostname}', /whole address/],
    ['http://user@x.example/', /address "user@x.example"/],
    ['http://{username}.example/', /only \{hostname\}/],
  ])('refuses %j', (t, why) => {
    expect(error(t)).toMatch(why);
  });

  it("{hostname}:port: the template's port replaces the host's own", () => {
    const r = parseLinkTemplate('https://{hostname}:8443/x');
    if (!r.ok) throw new Error(r.error);
    const t = { ...defaultLinkTemplates(), m3u: r.template };
    expect(url(buildLinks(line({ hostname: 'tv.example.com:8080' }), null, t).m3u)).toBe(
      'https://tv.example.com:8443/x',
    );
    expect(url(buildLinks(line(), null, t).m3u)).toBe('https://tv.example.com:8443/x');
  });

  it('a fixed-host template needs no host from the line', () => {
    const r = parseLinkTemplate('https://cdn.example.com/p/{username}/{password}.m3u');
    if (!r.ok) throw new Error(r.error);
    const links = buildLinks(line({ hostname: null }), null, { ...defaultLinkTemplates(), m3u: r.template });
    expect(url(links.m3u)).toBe('https://cdn.example.com/p/alice0000001/pw0000000000001.m3u');
    expect(links.server.ok).toBe(false);
  });

  it("per profile: the profile's own, then the config's links, then the defaults; a bad one named and left out", () => {
    const { templates, errors } = linkTemplatesFor(
      {
        links: { m3u: 'https://{hostname}/top.m3u', epg: 'https://{hostname}/top.xml', bogus: 'x' },
        profiles: {
          shop: {
            links: {
              m3u: 'https://{hostname}/shop.m3u?u={username}',
              epg: 'ftp://{hostname}/guide',
              portal: 'http://{hostname}/c/',
            },
          },
          other: { links: 'nonsense' },
        },
      },
      'shop',
    );
    const links = buildLinks(line(), account(), templates);
    expect(url(links.m3u)).toBe('https://tv.example.com/shop.m3u?u=alice0000001');
    expect(url(links.epg)).toBe('https://tv.example.com/top.xml'); // the profile's was bad
    expect(url(links.server)).toBe('http://tv.example.com');
    expect(url(links.portal)).toBe('http://tv.example.com/c/');
    expect(errors).toEqual([
      'Link template links.bogus: unknown link (known: m3u, epg, server, portal); left out',
      'Link template profiles.shop.links.epg: must start with http:// or https://; left out (the default is used)',
    ]);
    // Another profile's problems are not this service's.
    expect(linkTemplatesFor({ profiles: { other: { links: 'nonsense' } } }, 'other').errors).toEqual([
      'Link templates profiles.other.links: expected an object (m3u, epg, server, portal); left out',
    ]);
    expect(linkTemplatesFor(null, null)).toEqual({ templates: defaultLinkTemplates(), errors: [] });
  });
});
