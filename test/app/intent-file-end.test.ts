/**
 * An end (or a set-aside) is told as the disk has it: once the job's file is renamed away the job has
 * ended, whatever its owner file does. An owner file that cannot be removed then is left, holding an
 * ended job for nobody, and removed at a later end; the end never throws as if the job stayed open.
 */
import { spawnSync } from 'node:child_process';
import * as nodeFs from 'node:fs';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileIntentLog, type IntentFs } from '../../src/app/intent-file';
import { startTimeOf } from '../../src/app/process-owner';
import type { BulkLine } from '../../src/domain/bulk';
import { extendJob } from '../helpers/jobs';

const aLine = (i: number): BulkLine => ({
  id: `line-${i}`,
  username: `user${i}`,
  before: { expMs: 1_800_000_000_000, connections: 1, enabled: true, isTrial: false },
  cost: 1,
  after: {},
  state: 'done',
});

/** The disk, where removing an owner file fails (EIO) while `failing` says so. */
function ownerRemovalFails() {
  const state = { failing: true };
  const fs: Partial<IntentFs> = {
    rmSync: ((...args: Parameters<typeof nodeFs.rmSync>) => {
      if (state.failing && String(args[0]).endsWith('.owner'))
        throw Object.assign(new Error(`EIO: i/o error, rm '${String(args[0])}'`), {
          code: 'EIO',
          path: String(args[0]),
        });
      return nodeFs.rmSync(...args);
    }) as IntentFs['rmSync'],
  };
  return { fs, state };
}

describe('an end whose owner file cannot be removed', () => {
  it('has ended (never thrown as if the job stayed open); the owner file goes at a later end', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-end-owner-'));
    const { fs, state } = ownerRemovalFails();
    const log = fileIntentLog(dir, undefined, { fs });
    log.begin(extendJob('j1', [aLine(0)]));
    log.begin(extendJob('j2', [aLine(1)]));
    expect(() => log.end('j1')).not.toThrow();
    // Ended as the disk has it: not open, kept as settled; its owner file left for now.
    expect(log.open().map((j) => j.id)).toEqual(['j2']);
    expect(log.settled?.().map((j) => j.id)).toEqual(['j1']);
    expect(existsSync(join(dir, 'j1.jsonl.owner'))).toBe(true);
    // Another linedesk sees nothing of it to hold or take.
    expect(
      fileIntentLog(dir)
        .open()
        .map((j) => j.id),
    ).toEqual(['j2']);
    state.failing = false;
    log.end('j2');
    expect(readdirSync(dir).sort()).toEqual(['j1.jsonl.settled', 'j2.jsonl.settled']);
  });

  it('one left by a linedesk gone since (it could not remove it, then stopped) goes at an end elsewhere', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-end-owner-gone-'));
    const { fs } = ownerRemovalFails();
    const gone = { pid: spawnSync(process.execPath, ['-e', '0']).pid!, start: null };
    const before = fileIntentLog(dir, gone, { fs });
    before.begin(extendJob('j1', [aLine(0)]));
    before.end('j1');
    expect(existsSync(join(dir, 'j1.jsonl.owner'))).toBe(true);
    // A live linedesk's owner file beside no job (a begin under way) is left alone.
    const live = { pid: process.ppid, start: startTimeOf(process.ppid) };
    writeFileSync(join(dir, 'j9.jsonl.owner'), JSON.stringify(live));
    const log = fileIntentLog(dir);
    log.begin(extendJob('j2', [aLine(1)]));
    log.end('j2');
    expect(readdirSync(dir).sort()).toEqual(['j1.jsonl.settled', 'j2.jsonl.settled', 'j9.jsonl.owner']);
  });

  it('a set-aside whose owner file cannot be removed says where the file is now, never "not set aside"', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-aside-owner-'));
    writeFileSync(join(dir, 'j1.jsonl'), 'null\n');
    writeFileSync(join(dir, 'j1.jsonl.owner'), '{"pid":');
    const { fs } = ownerRemovalFails();
    const log = fileIntentLog(dir, undefined, { fs });
    // Torn a minute ago or more: its maker is gone.
    const at = (Date.now() - 5 * 60_000) / 1000;
    nodeFs.utimesSync(join(dir, 'j1.jsonl.owner'), at, at);
    const to = log.setAside?.(join(dir, 'j1.jsonl'));
    expect(to).toMatch(/j1\.jsonl\.damaged-/);
    expect(existsSync(to!)).toBe(true);
    expect(log.damaged?.()).toEqual([]);
  });
});
