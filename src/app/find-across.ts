import { checkBaseUrl } from '../api/base-url';
import { createClient } from '../api/client';
import { sanitize } from '../api/sanitize';
import type { ServiceClient } from '../services/client';
import type { FindAcrossApi } from '../services/find-lines';
import {
  type FindAnswer,
  type FindSource,
  findFailure,
  findInService,
  orderSources,
} from '../services/find-lines';
import type { Notes } from '../services/notes';
import { accountTargetId } from './account-id';
import { type Config, EMPTY_CONFIG, loadConfig } from './config';
import { fileNotes, notesPath } from './notes-file';

interface FindAcrossOptions {
  readonly userAgent: string;
  /** The service in use: its client is reused (never closed here); listed as itself when it is
   *  not a profile (the sandbox, a URL from the environment). */
  readonly current: {
    readonly profile: string | null;
    readonly label: string;
    readonly baseUrl: string;
    readonly client: Pick<ServiceClient, 'listLines'>;
  };
  /** The config file (tests pass a temporary one). */
  readonly configPath?: string;
  /** How long one source may take, its id walk included. */
  readonly deadlineMs?: number;
  /** Sources asked at once. */
  readonly concurrency?: number;
  /** Notes are searched too: the session's own, and each profile's file in the data directory. */
  readonly notes?: { readonly current: Notes | null; readonly dataDir: string };
}

const DEADLINE_MS = 15_000;
const CONCURRENCY = 4;

interface Entry {
  readonly source: FindSource;
  /** The service in use's client, or the profile's URL and key (a client is made per search). */
  readonly client?: Pick<ServiceClient, 'listLines'>;
  readonly baseUrl?: string;
  readonly apiKey?: string;
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/**
 * `:find` over every profile of the config (and the service in use): the keys stay here, in the app
 * layer; the store gets sources and answers. Each source has its own client (closed when it is
 * done), deadline and failure; a few are asked at once.
 */
export function findAcrossApi(o: FindAcrossOptions): FindAcrossApi {
  const deadlineMs = o.deadlineMs ?? DEADLINE_MS;
  const entries = (): { entries: Entry[]; problem: string | null } => {
    let config: Config = EMPTY_CONFIG;
    let problem: string | null = null;
    try {
      config = loadConfig(o.configPath) ?? EMPTY_CONFIG;
    } catch (err) {
      problem = `The profiles could not be read (${sanitize((err as Error).message)}); only this session's service is searched`;
    }
    const list: Entry[] = Object.entries(config.profiles).map(([name, p]) =>
      name === o.current.profile
        ? {
            source: { id: name, name, host: hostOf(o.current.baseUrl), profile: null, isCurrent: true },
            client: o.current.client,
          }
        : {
            source: { id: name, name, host: hostOf(p.baseUrl), profile: name, isCurrent: false },
            baseUrl: p.baseUrl,
            apiKey: p.apiKey,
          },
    );
    if (!list.some((e) => e.source.isCurrent)) {
      const source = {
        id: 'current',
        name: o.current.label,
        host: hostOf(o.current.baseUrl),
        profile: null,
        isCurrent: true,
      };
      list.push({ source, client: o.current.client });
    }
    const order = orderSources(list.map((e) => e.source));
    return { entries: order.map((s) => list.find((e) => e.source === s)!), problem };
  };

  // A profile's notes are kept per account (its URL and a fingerprint of its key), as its session keeps them.
  const notesOf = (e: Entry): Notes | null => {
    if (!o.notes) return null;
    if (e.client) return o.notes.current;
    try {
      return fileNotes(notesPath(o.notes.dataDir, accountTargetId(checkBaseUrl(e.baseUrl!).href, e.apiKey!)));
    } catch {
      return null;
    }
  };

  const searchOne = async (e: Entry, text: string, signal: AbortSignal): Promise<FindAnswer['result']> => {
    const deadline = AbortSignal.timeout(deadlineMs);
    const both = AbortSignal.any([signal, deadline]);
    let client: Pick<ServiceClient, 'listLines'> & { close?: () => Promise<void> };
    try {
      client =
        e.client ??
        createClient({
          baseUrl: e.baseUrl!,
          apiKey: e.apiKey!,
          userAgent: o.userAgent,
          retry: { maxAttempts: 2 },
          deadlineMs: Math.min(10_000, deadlineMs),
        });
    } catch (err) {
      return { ok: false, reason: findFailure(err) };
    }
    try {
      return { ok: true, found: await findInService(client, text, both, undefined, notesOf(e)) };
    } catch (err) {
      const timedOut = deadline.aborted && !signal.aborted;
      return { ok: false, reason: findFailure(err, timedOut ? deadlineMs : undefined) };
    } finally {
      // Only the clients made here; the service in use keeps its own.
      if (!e.client) await client.close?.().catch(() => {});
    }
  };

  return {
    sources() {
      const { entries: list, problem } = entries();
      return { sources: list.map((e) => e.source), problem };
    },
    async search(text, ids, signal, onAnswer) {
      const now = entries().entries;
      let next = 0;
      const worker = async () => {
        while (next < ids.length && !signal.aborted) {
          const id = ids[next++]!;
          const e = now.find((x) => x.source.id === id);
          const result: FindAnswer['result'] = e
            ? await searchOne(e, text, signal)
            : { ok: false, reason: 'this profile is no longer in the config' };
          if (!signal.aborted) onAnswer({ source: id, result });
        }
      };
      await Promise.all(Array.from({ length: Math.min(o.concurrency ?? CONCURRENCY, ids.length) }, worker));
    },
  };
}
