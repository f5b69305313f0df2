import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountTargetId } from '../../src/app/account-id';
import { EMPTY_CONFIG } from '../../src/app/config';
import { adoptLegacyNotes } from '../../src/app/legacy-files';
import { createLog } from '../../src/app/log';
import { notesPath } from '../../src/app/notes-file';

const URL_ = 'https://panel.example.com/';

/** A data directory as an earlier linedesk left it: notes kept per URL alone. */
function earlier() {
  const data = mkdtempSync(join(tmpdir(), 'linedesk-legacy-'));
  const notes = notesPath(data, URL_);
  mkdirSync(join(data, 'notes'), { recursive: true });
  writeFileSync(notes, '{"version":1,"notes":{}}\n', { mode: 0o600 });
  return { data, notes, log: createLog(join(data, 'log', 'linedesk.log')) };
}

const profiles = (...entries: [string, string][]) => ({
  ...EMPTY_CONFIG,
  profiles: Object.fromEntries(entries.map(([baseUrl, apiKey], i) => [`p${i}`, { baseUrl, apiKey }])),
});

describe('notes an earlier linedesk kept per URL', () => {
  it('move to the account when no other key is configured for the URL', () => {
    const { data, notes, log } = earlier();
    const targetId = accountTargetId(URL_, 'key-a');
    const config = profiles([URL_, 'key-a']);
    expect(adoptLegacyNotes({ legacyId: URL_, targetId, dataDir: data, config, log })).toEqual([]);
    expect(existsSync(notes)).toBe(false);
    expect(existsSync(notesPath(data, targetId))).toBe(true);
  });

  it('stay where they are, and are said, when another key uses the URL, however it is written', () => {
    const { data, notes, log } = earlier();
    const targetId = accountTargetId(URL_, 'key-a');
    const config = profiles([URL_, 'key-a'], ['https://PANEL.example.com:443', 'key-b']);
    const problems = adoptLegacyNotes({ legacyId: URL_, targetId, dataDir: data, config, log });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/kept notes for this URL in .* several of your profiles use it/);
    expect(existsSync(notes)).toBe(true);
    expect(existsSync(notesPath(data, targetId))).toBe(false);
  });

  it('the account id differs by key, carries no key, and is stable', () => {
    const a = accountTargetId(URL_, 'secret-key-a');
    expect(a).toBe(accountTargetId(URL_, 'secret-key-a'));
    expect(a).not.toBe(accountTargetId(URL_, 'secret-key-b'));
    expect(a.startsWith(`${URL_}#`)).toBe(true);
    expect(a).not.toContain('secret');
  });
});
