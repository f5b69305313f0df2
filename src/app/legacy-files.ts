import { existsSync, readdirSync, renameSync, rmdirSync } from 'node:fs';
import type { IntentLog } from '../store/intent-log';
import { accountTargetId, intentsDir } from './account-id';
import type { Config } from './config';
import { fileIntentLog } from './intent-file';
import type { Log } from './log';
import { notesPath } from './notes-file';

interface Adopt {
  /** The id an earlier linedesk used: the base URL alone. */
  readonly legacyId: string;
  /** The account's id now (URL and key fingerprint). */
  readonly targetId: string;
  readonly dataDir: string;
  readonly intents: IntentLog;
  readonly config: Config | null;
  readonly log: Log;
}

const sameUrl = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/**
 * Open changes and notes an earlier linedesk kept per URL move to this account when nothing else
 * could have made them: no profile for the URL holds another key. Otherwise they stay where they are,
 * untouched and unchecked (checked with the wrong account, an applied change could be called "not
 * applied"), and the returned sentences say so and where they are.
 */
export function adoptLegacyFiles(a: Adopt): string[] {
  const legacyIntents = intentsDir(a.dataDir, a.legacyId);
  const legacyNotes = notesPath(a.dataDir, a.legacyId);
  const jobs = existsSync(legacyIntents) ? fileIntentLog(legacyIntents).open() : [];
  const hasNotes = existsSync(legacyNotes);
  if (!jobs.length && !hasNotes) return [];
  const keys = Object.values(a.config?.profiles ?? {})
    .filter((p) => sameUrl(p.baseUrl, a.legacyId))
    .map((p) => accountTargetId(a.legacyId, p.apiKey));
  const certain = keys.every((id) => id === a.targetId);
  if (!certain) {
    const what = [
      jobs.length ? `${jobs.length} open change(s) in ${legacyIntents}` : '',
      hasNotes ? `notes in ${legacyNotes}` : '',
    ]
      .filter(Boolean)
      .join(' and ');
    a.log.write(`legacy files for ${a.legacyId} not adopted: several accounts use this URL`);
    return [
      `An earlier linedesk kept ${what} for this URL, which several of your profiles use: not knowing whose they are, they are left unchecked there. Open the profile that made them and check it by hand.`,
    ];
  }
  const legacyLog = fileIntentLog(legacyIntents);
  for (const job of jobs) {
    a.intents.begin({ ...job, target: a.targetId });
    legacyLog.end(job.id);
  }
  if (existsSync(legacyIntents) && readdirSync(legacyIntents).length === 0) rmdirSync(legacyIntents);
  const notesNow = notesPath(a.dataDir, a.targetId);
  if (hasNotes && !existsSync(notesNow)) renameSync(legacyNotes, notesNow);
  a.log.write(
    `legacy files for ${a.legacyId} adopted: ${jobs.length} open change(s)${hasNotes ? ', notes' : ''}`,
  );
  return [];
}
