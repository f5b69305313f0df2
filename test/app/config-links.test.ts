/** Link templates live in the config (top-level `links`, a profile's `links`): read entry by entry by
 *  domain/links.ts, and kept as written when the app saves the config for something else. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configProblems, loadConfig } from '../../src/app/config';
import { settingsApi } from '../../src/app/settings';
import { linkTemplatesFor } from '../../src/domain/links';

describe('link templates in the config', () => {
  it("a settings save keeps the top-level and the profiles' links, bad ones included; none is a config problem", () => {
    const p = join(mkdtempSync(join(tmpdir(), 'ld-links-')), 'config.json');
    const top = { epg: 'https://{hostname}/epg.xml' };
    const own = { m3u: 'https://{hostname}:8443/{username}/{password}', epg: 'ftp://nope' };
    writeFileSync(
      p,
      JSON.stringify({
        version: 1,
        defaultProfile: 'shop',
        links: top,
        profiles: { shop: { baseUrl: 'https://a.example', apiKey: 'k1', links: own } },
      }),
      { mode: 0o600 },
    );
    expect(configProblems(p)).toEqual([]);
    const c = loadConfig(p)!;
    expect(linkTemplatesFor(c, 'shop').errors).toEqual([
      'Link template profiles.shop.links.epg: must start with http:// or https://; left out (the default is used)',
    ]);
    expect(settingsApi('t', p).save({ lowBalance: 10 })).toBeNull();
    const raw = JSON.parse(readFileSync(p, 'utf8'));
    expect(raw.links).toEqual(top);
    expect(raw.profiles.shop.links).toEqual(own);
    expect(raw.lowBalance).toEqual({ t: 10 });
  });
});
