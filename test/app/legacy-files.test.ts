import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountTargetId, intentsDir } from '../../src/app/account-id';
import { EMPTY_CONFIG } from '../../src/app/config';
import { fileIntentLog } from '../../src/app/intent-file';
import { adoptLegacyFiles } from '../../src/app/legacy-files';
import { createLog } from '../../src/app/log';
import { notesPath } from '../../src/app/notes-file';
import type { BulkJob } from '../../src/domain/bulk';

const URL_ = 'https://panel.example.com';
const job = (id: string): BulkJob => ({
  id,
  op: 'extend',
  months: 1,
  connections: 1,
  target: URL_,
  createdAt: '2026-11-20T10:00:00.000Z',
  balanceBefore: 500,
  lines: [
    {
      id: 'line-1',
      username: 'smith0042abcd',
      before: { expMs: 0, connections: 1, enabled: true, isTrial: false },
      cost: 1,
      after: {},
      state: 'unknown',
    },
  ],
});

/** A data directory as an earlier linedesk left it: one open change and notes, kept per URL alone. */
function earlier() {
  const data = mkdtempSync(join(tmpdir(), 'linedesk-legacy-'));
  fileIntentLog(intentsDir(data, URL_)).begin(job('job-1'));
  const notes = notesPath(data, URL_);
  mkdirSync(join(data, 'notes'), { recursive: true });
  writeFileSync(notes, '{"version":1,"notes":{}}\n', { mode: 0o600 });
  return { data, notes, log: createLog(join(data, 'log', 'linedesk.log')) };
}

const profiles = (...keys: string[]) => ({
  ...EMPTY_CONFIG,
  profiles: Object.fromEntries(keys.map((apiKey, i) => [`p${i}`, { baseUrl: URL_, apiKey }])),
});

describe('files an earlier linedesk kept per URL', () => {
  it('move to the account when no other key is configured for the URL', () => {
    const { data, notes, log } = earlier();
    const targetId = accountTargetId(URL_, 'key-a');
    const intents = fileIntentLog(intentsDir(data, targetId));
    const problems = adoptLegacyFiles({
      legacyId: URL_,
      targetId,
      dataDir: data,
      intents,
      config: profiles('key-a'),
      log,
    });
    expect(problems).toEqual([]);
    expect(intents.open().map((j) => [j.id, j.target, j.lines[0]!.state])).toEqual([
      ['job-1', targetId, 'unknown'],
    ]);
    expect(existsSync(intentsDir(data, URL_))).toBe(false);
    expect(existsSync(notes)).toBe(false);
    expect(existsSync(notesPath(data, targetId))).toBe(true);
  });

  it('stay where they are, unchecked and said, when several accounts use the URL', () => {
    const { data, notes, log } = earlier();
    const targetId = accountTargetId(URL_, 'key-a');
    const intents = fileIntentLog(intentsDir(data, targetId));
    const problems = adoptLegacyFiles({
      legacyId: URL_,
      targetId,
      dataDir: data,
      intents,
      config: profiles('key-a', 'key-b'),
      log,
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/1 open change\(s\) in .*intents-.* several of your profiles use/);
    expect(intents.open()).toEqual([]);
    expect(readdirSync(intentsDir(data, URL_)).filter((f) => f.endsWith('.jsonl'))).toHaveLength(1);
    expect(existsSync(notes)).toBe(true);
  });

  it('the account id differs by key, carries no key, and is stable', () => {
    const a = accountTargetId(URL_, 'secret-key-a');
    expect(a).toBe(accountTargetId(URL_, 'secret-key-a'));
    expect(a).not.toBe(accountTargetId(URL_, 'secret-key-b'));
    expect(a.startsWith(`${URL_}#`)).toBe(true);
    expect(a).not.toContain('secret');
  });
});
