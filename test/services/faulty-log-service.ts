/**
 * Change services over an intent log on a faulty disk: `serviceOnFaultyLog` (the disk of
 * `faultyIntentFs`) and `offlineService` (a disk the test gives, no server), with `logDir` (a fresh
 * log folder) and `pendingOnDisk` (what the log on disk still has pending).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiClient } from '../../src/api/client';
import { fileIntentLog, type IntentFs } from '../../src/app/intent-file';
import { memoryJournal } from '../../src/services/changes/journal';
import {
  type ChangeEvent,
  type ChangeServiceDeps,
  createChangeService,
} from '../../src/services/changes/service';
import { faultyIntentFs } from '../helpers/faulty-fs';
import { cleanups } from '../helpers/wait';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

/**
 * The log in `dir` whose listing and file reads fail as the test switches `failing`. Gives the
 * service, its journal, the events it sent and their notices, and the disk's switches and what it
 * recorded (`written`).
 */
export function serviceOnFaultyLog(
  client: ChangeServiceDeps['client'],
  dir: string,
  more: Partial<ChangeServiceDeps> = {},
) {
  const { fs, failing, written } = faultyIntentFs(dir);
  const journal = memoryJournal();
  const changes = createChangeService({
    client,
    target,
    intents: fileIntentLog(dir, undefined, { fs }),
    journal,
    sleep: async () => {},
    ...more,
  });
  const events: ChangeEvent[] = [];
  changes.subscribe((e) => events.push(e));
  const notices = () => events.flatMap((e) => (e.type === 'notice' ? [e.text] : []));
  return { fs, failing, written, journal, changes, events, notices };
}

/** A fresh intent log folder, removed at the test's end. */
export function logDir() {
  const dir = mkdtempSync(join(tmpdir(), 'intents-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A change service over the intent log in `dir` on the disk `fs`, with no server: its client is
 * empty, for tests whose lines are all stopped before their request. `more` replaces its other parts
 * (its journal…). Gives the service and the notices it sent.
 */
export function offlineService(dir: string, fs: Partial<IntentFs>, more: Partial<ChangeServiceDeps> = {}) {
  const notices: string[] = [];
  const changes = createChangeService({
    client: {} as ApiClient,
    target,
    intents: fileIntentLog(dir, undefined, { fs }),
    journal: memoryJournal(),
    sleep: async () => {},
    ...more,
  });
  changes.subscribe((e) => {
    if (e.type === 'notice') notices.push(e.text);
  });
  return { changes, notices };
}

/** The ids of the lines the intent log in `dir` still has pending, read from disk. */
export const pendingOnDisk = (dir: string) =>
  fileIntentLog(dir)
    .open()
    .flatMap((j) => j.lines.filter((l) => l.state === 'pending').map((l) => l.id));
