import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../src/app/config';
import { settingsApi } from '../../src/app/settings';

// The config's `keys` and `commands` are read with it (judged entry by entry by the command table at
// start, never here) and kept as written when linedesk saves a setting, bad entries included.
describe("the config's keys and commands", () => {
  it('are read as written, cost nothing else when bad, and survive a save of another setting', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'ld-config-keys-')), 'config.json');
    const keys = { 'line.extend': 'E', 'line.explode': 'X', 'lines.down': 42 };
    const commands = [
      { name: 'wa', key: 'W', scope: 'line', program: '~/bin/wa', args: ['--to', '$(id)'] },
      { name: 'Bad Name' },
    ];
    const raw = { version: 1, defaultProfile: null, profiles: {}, welcomed: true, keys, commands };
    writeFileSync(path, JSON.stringify(raw), { mode: 0o600 });
    const read = readConfig(path);
    expect(read.problems).toEqual([]);
    expect(read.config?.keys).toEqual(keys);
    expect(read.config?.commands).toEqual(commands);
    expect(settingsApi('sandbox:x', path, read.config).save({ noteColumn: true })).toBeNull();
    const saved = JSON.parse(readFileSync(path, 'utf8'));
    expect(saved.noteColumn).toBe(true);
    expect(saved.keys).toEqual(keys);
    expect(saved.commands).toEqual(commands);
  });
});
