import { chmodSync, existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, EMPTY_CONFIG, keyTail, loadConfig, saveConfig } from '../../src/app/config';
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
  it('absent is null; broken JSON or a bad field is a clear error', () => {
    expect(loadConfig(join(dir(), 'none.json'))).toBeNull();
    const p = join(dir(), 'config.json');
    writeFileSync(p, '{nope', { mode: 0o600 });
    expect(() => loadConfig(p)).toThrow(/not valid JSON/);
    writeFileSync(
      p,
      JSON.stringify({
        version: 1,
        defaultProfile: null,
        profiles: { 'bad name!': { baseUrl: 'x', apiKey: 'y' } },
      }),
      { mode: 0o600 },
    );
    expect(() => loadConfig(p)).toThrow(ConfigError);
    expect(existsSync(p)).toBe(true);
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
