import { existsSync, renameSync } from 'node:fs';
import { checkBaseUrl } from '../api/base-url';
import { accountTargetId } from './account-id';
import type { Config } from './config';
import type { Log } from './log';
import { notesPath } from './notes-file';

interface Adopt {
  /** The id an earlier linedesk used: the base URL alone. */
  readonly legacyId: string;
  /** The account's id now (URL and key fingerprint). */
  readonly targetId: string;
  readonly dataDir: string;
  readonly config: Config | null;
  readonly log: Log;
}

const normal = (url: string) => {
  try {
    return checkBaseUrl(url).href;
  } catch {
    return url.replace(/\/+$/, '');
  }
};

/**
 * Notes an earlier linedesk kept per URL move to this account when no profile for the URL (however
 * it is written) holds another key; otherwise they stay where they are, and the returned sentence
 * says so and where. (Open changes are found and judged by the store: services/changes/intent-log.ts ForeignJob.)
 */
export function adoptLegacyNotes(a: Adopt): string[] {
  const legacyNotes = notesPath(a.dataDir, a.legacyId);
  if (!existsSync(legacyNotes)) return [];
  const url = normal(a.legacyId);
  const ids = Object.values(a.config?.profiles ?? {})
    .filter((p) => normal(p.baseUrl) === url)
    .map((p) => accountTargetId(a.legacyId, p.apiKey));
  const notesNow = notesPath(a.dataDir, a.targetId);
  if (!ids.every((id) => id === a.targetId) || existsSync(notesNow)) {
    a.log.write(`legacy notes for ${a.legacyId} not adopted`);
    return [
      `An earlier linedesk kept notes for this URL in ${legacyNotes}; several of your profiles use it, so they are not shown here. The file is left as it is.`,
    ];
  }
  renameSync(legacyNotes, notesNow);
  a.log.write(`legacy notes for ${a.legacyId} adopted`);
  return [];
}
