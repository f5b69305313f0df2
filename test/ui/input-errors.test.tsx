import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import stripAnsi from 'strip-ansi';
import { describe, expect, it, vi } from 'vitest';
import { SEARCH_MAX } from '../../src/api/contract';
import { RequestValidationError } from '../../src/api/errors';
import { EMPTY_CONFIG, loadConfig, saveConfig } from '../../src/app/config';
import { profilesApi } from '../../src/app/profiles';
import { settingsApi } from '../../src/app/settings';
import { DEFAULT_WINDOW } from '../../src/domain/renewals';
import { describeError } from '../../src/services/describe-error';
import type { SettingsApi } from '../../src/store/deps';
import { renderApp } from '../helpers/app';

const tempConfig = () => {
  const path = join(mkdtempSync(join(tmpdir(), 'linedesk-input-')), 'config.json');
  saveConfig(EMPTY_CONFIG, path);
  return path;
};

async function appWith(deps: Parameters<typeof renderApp>[1]) {
  const app = await renderApp({}, deps);
  await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
  const palette = async (text: string) => {
    await app.press('app.palette');
    await app.type(text);
    await app.press('palette.run');
  };
  return { ...app, palette };
}

describe('the search field: limited as the API limits it, its errors in words', () => {
  it(`a long search stops at ${SEARCH_MAX} characters, the rule said beside the field; no raw error`, async () => {
    const app = await appWith({});
    await app.press('lines.search');
    // Typed in bursts (a terminal delivers fast typing so): one character at a time would be slow.
    for (let i = 0; i < 10; i++) {
      app.ui.stdin.write('a'.repeat((SEARCH_MAX + 100) / 10));
      await new Promise((r) => setImmediate(r));
    }
    await app.waitFrame((f) => f.includes(`at most ${SEARCH_MAX} characters`));
    expect(app.store.getState().searchDraft).toHaveLength(SEARCH_MAX);
    await app.press('search.apply');
    await app.waitFrame((f) => !f.includes('search (at most') && /No lines match|search "a/.test(f));
    const all = app.ui.frames.map((f) => stripAnsi(f)).join('\n');
    expect(all).not.toMatch(/Too big|expected string|GET \/v1/);
  });

  it('a request the contract refuses is described by its rule, a sentence naming the field', async () => {
    const app = await appWith({});
    const err = await app.client.listLines({ search: 'x'.repeat(300) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestValidationError);
    expect(describeError(err)).toBe(`A search is at most ${SEARCH_MAX} characters.`);
    const limit = await app.client.listLines({ limit: 500 }).catch((e: unknown) => e);
    expect(describeError(limit)).toBe('A page holds 1 to 100 lines.');
  });
});

describe(':lowbalance takes digits only, within range; saved or said why not', () => {
  it('refuses 1e3, -5 and a 20-digit number with the rule; saves 500', async () => {
    const path = tempConfig();
    const app = await appWith({ settings: settingsApi('sandbox:test', path) });
    for (const bad of ['1e3', '-5', '12345678901234567890', '0x10']) {
      await app.palette(`lowbalance ${bad}`);
      await vi.waitFor(() =>
        expect(app.store.getState().flash).toMatchObject({
          text: 'lowbalance: digits only, 0 to 1000000000 credits, or off (lowbalance 500)',
          tone: 'error',
        }),
      );
      expect(app.store.getState().lowBalance).toBeNull();
    }
    expect(loadConfig(path)?.lowBalance).toEqual({});
    await app.palette('lowbalance 500');
    await vi.waitFor(() =>
      expect(app.store.getState().flash).toMatchObject({ text: 'The header warns below 500 credits' }),
    );
    expect(loadConfig(path)?.lowBalance).toEqual({ 'sandbox:test': 500 });
  });

  it('a threshold that could not be saved is not announced as set', async () => {
    const settings: SettingsApi = {
      read: () => ({ window: DEFAULT_WINDOW, lowBalance: null }),
      save: () => 'the disk is full',
    };
    const app = await appWith({ settings });
    await app.palette('lowbalance 500');
    await vi.waitFor(() =>
      expect(app.store.getState().flash).toMatchObject({
        text: 'Not saved: the disk is full',
        tone: 'error',
      }),
    );
  });
});

describe('the profile form checks the name as it is typed', () => {
  it('the rule beside the name; a bad character or a name in use is said before Enter', async () => {
    const path = tempConfig();
    saveConfig(
      { ...EMPTY_CONFIG, profiles: { shopa: { baseUrl: 'https://a.example', apiKey: 'k'.repeat(20) } } },
      path,
    );
    const app = await appWith({ profiles: profilesApi(null, 'linedesk-test', path) });
    await app.palette('profile add');
    await app.waitFrame((f) => f.includes('New profile') && f.includes('letters, digits, . _ -'));
    await app.type('shop a');
    await app.waitFrame((f) => f.includes('✗ A profile name takes letters, digits, . _ - (at most 32)'));
    expect(app.store.getState().profileForm?.checking).toBe(false);
    for (let i = 0; i < 2; i++) {
      app.ui.stdin.write('\u007f'); // Backspace
      await new Promise((r) => setImmediate(r));
    }
    await app.type('a');
    await app.waitFrame((f) => f.includes('✗ A profile "shopa" exists'));
  });
});
