import { join } from 'node:path';
import { checkBaseUrl } from '../api/base-url';
import { sha256Hex } from './sha256';
import type { TargetChoice } from './target';

/**
 * A remote service is told apart by account, not by URL alone: two profiles on one panel are two
 * resellers with their own lines and balance, and an open change judged with the other's view (the
 * line not found, another balance) could be called "not applied" when it was. The id carries a
 * fingerprint of the key: a hash, never the key itself.
 */
export function accountTargetId(baseUrl: string, apiKey: string): string {
  const fingerprint = sha256Hex(`linedesk-account\0${apiKey}`).slice(0, 16);
  return `${baseUrl}#${fingerprint}`;
}

/**
 * Whether `other` is another key's account on the service of `targetId` (the same URL, another key
 * fingerprint): the reseller's other keys spend from the same balance. Sandboxes have no other keys.
 */
export function sameServiceAs(targetId: string): (other: string) => boolean {
  const at = targetId.lastIndexOf('#');
  if (targetId.startsWith('sandbox:') || at < 0) return () => false;
  const service = targetId.slice(0, at + 1);
  return (other) =>
    other !== targetId && other.startsWith(service) && /^[0-9a-f]+$/.test(other.slice(service.length));
}

/** One intent directory per account (its target id). */
export const intentsDir = (data: string, targetId: string) =>
  join(data, `intents-${sha256Hex(targetId).slice(0, 12)}`);

/**
 * The account a choice names (Target.id and its words), without connecting: the journal's reader
 * shows one account's entries by it. The one rule `connect` uses too.
 */
export function accountOf(
  choice: Exclude<TargetChoice, { kind: 'error' }>,
  data: string,
): { readonly id: string; readonly label: string } {
  if (choice.kind !== 'remote') return { id: `sandbox:${join(data, 'sandbox.sqlite')}`, label: 'SANDBOX' };
  const baseUrl = checkBaseUrl(choice.baseUrl).href;
  const host = new URL(baseUrl).host;
  return {
    id: accountTargetId(baseUrl, choice.apiKey),
    label: choice.profile ? `${choice.profile} · ${host}` : host,
  };
}
