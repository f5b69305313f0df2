import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  configProblems,
  EMPTY_CONFIG,
  keyTail,
  loadConfig,
  saveConfig,
} from '../../src/app/config';
import { settingsApi } from '../../src/app/settings';
import { chooseTarget } from '../../src/app/target';

const dir = () => mkdtempSync(join(tmpdir(), 'ld-config-'));
const config = {
  ...EMPTY_CONFIG,
  welcomed: true,
  defaultProfile: 'main',
  profiles: {
    main: { baseUrl: 'https://main.example', apiKey: 'key-main-1111' },
    shop2: { baseUrl: 'https://shop2.example', apiKey: 'key-shop2-2222' },
  },
};
const none = { sandbox: false, baseUrl: null, profile: null };

describe('precedence: flags > environment > default profile > sandbox', () => {
  it('follows the rules in order', () => {
    expect(chooseTarget({ ...none, sandbox: true }, { LINEDESK_PROFILE: 'shop2' }, config)).toEqual({
      kind: 'sandbox',
    });
    expect(chooseTarget({ ...none, profile: 'shop2' }, { LINEDESK_PROFILE: 'main' }, config)).toMatchObject({
      profile: 'shop2',
      apiKey: 'key-shop2-2222',
    });
    expect(
      chooseTarget(
        { ...none, baseUrl: 'https://x.example' },
        { LINEDESK_API_KEY: 'k', LINEDESK_PROFILE: 'main' },
        config,
      ),
    ).toMatchObject({ baseUrl: 'https://x.example', apiKey: 'k' });
    expect(
      chooseTarget(
        none,
        { LINEDESK_PROFILE: 'shop2', LINEDESK_BASE_URL: 'https://x', LINEDESK_API_KEY: 'k' },
        config,
      ),
    ).toMatchObject({ profile: 'shop2' });
    expect(
      chooseTarget(none, { LINEDESK_BASE_URL: 'https://x', LINEDESK_API_KEY: 'k' }, config),
    ).toMatchObject({ baseUrl: 'https://x', profile: null });
    expect(chooseTarget(none, {}, config)).toMatchObject({ profile: 'main' });
    expect(chooseTarget(none, {}, { ...config, defaultProfile: null })).toEqual({ kind: 'sandbox' });
    expect(chooseTarget(none, {}, null)).toEqual({ kind: 'welcome' });
  });
  it('a base URL takes its key from the environment, else from the profile with that URL', () => {
    expect(chooseTarget({ ...none, baseUrl: 'https://shop2.example/' }, {}, config)).toMatchObject({
      apiKey: 'key-shop2-2222',
      profile: 'shop2',
    });
    expect(chooseTarget({ ...none, baseUrl: 'https://other.example' }, {}, config)).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/LINEDESK_API_KEY/),
    });
  });
  it('plain http is judged by its spelling up front: a loopback address or a localhost name; the message says a name is checked again', () => {
    const env = { LINEDESK_API_KEY: 'k' };
    for (const url of [
      'http://127.0.0.1:7411',
      'http://127.3.4.5',
      'http://[::1]:7411',
      'http://[::ffff:127.0.0.1]:7411',
      'http://localhost:7411',
      'http://shop.localhost:7411',
      'https://10.0.0.5',
      'https://panel.example.com',
    ])
      expect(chooseTarget({ ...none, baseUrl: url }, env, null), url).toMatchObject({ kind: 'remote' });
    for (const url of [
      'http://panel.example.com',
      'http://10.0.0.5',
      'http://[::ffff:10.0.0.5]',
      'http://[fd00::2]',
    ])
      expect(chooseTarget({ ...none, baseUrl: url }, env, null), url).toMatchObject({
        kind: 'error',
        field: 'base-url',
        message: expect.stringMatching(/localhost name, which must also resolve only there when connecting/),
      });
  });
  it('an unknown profile is a clear error naming the known ones', () => {
    expect(chooseTarget({ ...none, profile: 'nope' }, {}, config)).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/Known: main, shop2/),
    });
  });
});

describe('config file', () => {
  it('is written atomically with mode 0600 in a 0700 directory, even under umask 000', () => {
    const d = join(dir(), 'nested');
    const old = process.umask(0o000);
    try {
      saveConfig(config, join(d, 'config.json'));
    } finally {
      process.umask(old);
    }
    expect(statSync(join(d, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(d).mode & 0o777).toBe(0o700);
    expect(readdirSync(d)).toEqual(['config.json']); // no temporary file left
    expect(loadConfig(join(d, 'config.json'))).toEqual(config);
  });
  it('a config others can read is refused with how to fix it, as ssh does', () => {
    const p = join(dir(), 'config.json');
    saveConfig(config, p);
    chmodSync(p, 0o644);
    expect(() => loadConfig(p)).toThrow(ConfigError);
    expect(() => loadConfig(p)).toThrow(`chmod 600 ${p}`);
  });
  it('absent is null; broken JSON or a wrong version is a clear error', () => {
    expect(loadConfig(join(dir(), 'none.json'))).toBeNull();
    const p = join(dir(), 'config.json');
    writeFileSync(p, '{nope', { mode: 0o600 });
    expect(() => loadConfig(p)).toThrow(/not valid JSON/);
    for (const whole of ['null', '42', '[]', '{"version":2}']) {
      writeFileSync(p, whole, { mode: 0o600 });
      expect(() => loadConfig(p)).toThrow(ConfigError);
    }
    expect(existsSync(p)).toBe(true);
  });
  it('a bad entry is named and left out, the rest is used, and a save keeps it as it was', () => {
    const p = join(dir(), 'config.json');
    const bad = { baseUrl: 42, apiKey: null };
    writeFileSync(
      p,
      JSON.stringify({
        version: 1,
        defaultProfile: 'shop',
        profiles: {
          shop: { baseUrl: 'https://a.example', apiKey: 'k1' },
          broken: bad,
          'bad name!': { baseUrl: 'x', apiKey: 'y' },
        },
        renewals: { withinDays: 'soon' },
        lowBalance: 'many',
        futureSetting: { kept: true },
        noteColumn: true,
      }),
      { mode: 0o600 },
    );
    const c = loadConfig(p)!;
    expect(Object.keys(c.profiles)).toEqual(['shop']);
    expect(c.noteColumn).toBe(true);
    expect(c.renewals).toBeUndefined();
    const problems = configProblems(p);
    expect(problems.join('\n')).toMatch(/profiles\.broken: .*left out/);
    expect(problems.join('\n')).toMatch(/profiles\.bad name!: not a usable profile name/);
    expect(problems.join('\n')).toMatch(/renewals\.withinDays: .*left out/);
    // A settings save writes the good entries and keeps the bad ones as they were, for the user to fix.
    saveConfig({ ...c, noteColumn: false }, p);
    const raw = JSON.parse(readFileSync(p, 'utf8'));
    expect(raw.profiles.broken).toEqual(bad);
    expect(raw.profiles['bad name!']).toEqual({ baseUrl: 'x', apiKey: 'y' });
    expect(raw.renewals).toEqual({ withinDays: 'soon' });
    // A left-out setting that has a default, and a newer version's field, are kept as they were too.
    expect(raw.lowBalance).toBe('many');
    expect(raw.futureSetting).toEqual({ kept: true });
    expect(raw.noteColumn).toBe(false);
    expect(loadConfig(p)!.profiles.shop).toEqual({ baseUrl: 'https://a.example', apiKey: 'k1' });
  });
  it('a key is only ever shown as its last four characters', () => {
    expect(keyTail('abcdefgh1234')).toBe('…1234');
  });
});

describe('the Note column setting', () => {
  it('is saved in the config beside the rest, and read back; absent means hidden', () => {
    const path = join(dir(), 'config.json');
    saveConfig(config, path);
    const s = settingsApi('profile:main', path);
    expect(s.read().noteColumn).toBe(false);
    expect(s.save({ noteColumn: true })).toBeNull();
    expect(settingsApi('profile:main', path).read().noteColumn).toBe(true);
    expect(loadConfig(path)).toMatchObject({ noteColumn: true, profiles: config.profiles });
    expect(s.save({ lowBalance: 5 })).toBeNull();
    expect(loadConfig(path)?.noteColumn).toBe(true);
  });
});
