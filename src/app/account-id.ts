import { createHash } from 'node:crypto';
import { join } from 'node:path';

/**
 * A remote service is told apart by account, not by URL alone: two profiles on one panel are two
 * resellers with their own lines and balance, and an open change judged with the other's view (the
 * line not found, another balance) could be called "not applied" when it was. The id carries a
 * fingerprint of the key: a hash, never the key itself.
 */
export function accountTargetId(baseUrl: string, apiKey: string): string {
  const fingerprint = createHash('sha256').update(`linedesk-account\0${apiKey}`).digest('hex').slice(0, 16);
  return `${baseUrl}#${fingerprint}`;
}

/** One intent directory per account (its target id). */
export const intentsDir = (data: string, targetId: string) =>
  join(data, `intents-${createHash('sha256').update(targetId).digest('hex').slice(0, 12)}`);
