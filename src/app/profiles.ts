import { createClient } from '../api/client';
import { NotAuthorized } from '../api/errors';
import { PROFILE_NAME_RULE, profileNameProblem } from '../domain/profile-name';
import { describeError } from '../services/describe-error';
import type { ProfilesApi } from '../services/settings';
import { type Config, EMPTY_CONFIG, keyTail, loadConfig, PROFILE_NAME, saveConfig } from './config';

/** What is wrong with an account, and in which field: the form keeps its focus there. */
export interface AccountProblem {
  readonly field: 'url' | 'key';
  readonly message: string;
}

/**
 * Checks an account with GET /v1/me; null when the key works. A refused or missing key is the key's
 * problem; anything else (a URL that is not one, a service that cannot be reached or answers oddly)
 * is the URL's.
 */
export async function checkAccountFields(
  baseUrl: string,
  apiKey: string,
  userAgent: string,
): Promise<AccountProblem | null> {
  if (!apiKey) return { field: 'key', message: 'Enter the API key' };
  let client: ReturnType<typeof createClient>;
  try {
    client = createClient({ baseUrl, apiKey, userAgent, retry: { maxAttempts: 2 }, deadlineMs: 10_000 });
  } catch (err) {
    return { field: 'url', message: describeError(err) };
  }
  try {
    await client.me();
    return null;
  } catch (err) {
    return { field: err instanceof NotAuthorized ? 'key' : 'url', message: describeError(err) };
  } finally {
    await client.close();
  }
}

/** Checks an account with GET /v1/me; an error message, or null when the key works. */
export async function checkAccount(
  baseUrl: string,
  apiKey: string,
  userAgent: string,
): Promise<string | null> {
  return (await checkAccountFields(baseUrl, apiKey, userAgent))?.message ?? null;
}

/**
 * Profile management for the app (`:profile`), over the config file. `saved` hears each config it
 * writes (the keys linedesk hides from a program of yours follow it without reading the file again).
 */
export function profilesApi(
  current: string | null,
  userAgent: string,
  path?: string,
  saved?: (config: Config) => void,
): ProfilesApi {
  const read = (): Config => loadConfig(path) ?? EMPTY_CONFIG;
  const write = (c: Config) => {
    saveConfig(c, path);
    saved?.(c);
  };
  return {
    current,
    list() {
      const c = read();
      return Object.entries(c.profiles).map(([name, p]) => ({
        name,
        baseUrl: p.baseUrl,
        keyTail: keyTail(p.apiKey),
        isDefault: c.defaultProfile === name,
      }));
    },
    exists: (name) => name in read().profiles,
    async add(name, baseUrl, apiKey) {
      const c = read();
      const problem = profileNameProblem(name, (n) => n in c.profiles);
      if (problem) return problem;
      const err = await checkAccount(baseUrl, apiKey, userAgent);
      if (err) return err;
      write({
        ...c,
        profiles: { ...c.profiles, [name]: { baseUrl, apiKey } },
        defaultProfile: c.defaultProfile ?? name,
      });
      return null;
    },
    rename(from, to) {
      const c = read();
      if (!c.profiles[from]) return `No profile "${from}"`;
      if (!PROFILE_NAME.test(to)) return `A profile name takes ${PROFILE_NAME_RULE}`;
      if (c.profiles[to]) return `A profile "${to}" exists already`;
      const { [from]: p, ...rest } = c.profiles;
      write({
        ...c,
        profiles: { ...rest, [to]: p! },
        defaultProfile: c.defaultProfile === from ? to : c.defaultProfile,
      });
      return null;
    },
    remove(name) {
      const c = read();
      if (!c.profiles[name]) return `No profile "${name}"`;
      if (name === current) return 'That profile is in use: switch to another first';
      const { [name]: _gone, ...rest } = c.profiles;
      write({ ...c, profiles: rest, defaultProfile: c.defaultProfile === name ? null : c.defaultProfile });
      return null;
    },
  };
}
