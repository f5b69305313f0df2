import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { lazySchema } from '../api/contract/lazy';
import { PROFILE_NAME } from '../domain/profile-name';
import { configDir } from '../paths';
import { writeFileAtomic } from './atomic-file';
import { ConfigError } from './config-error';

export { PROFILE_NAME };

// Built on first use (a config is read): --help and the commands that read none build no schema.
const Profile = lazySchema(() =>
  z.object({
    baseUrl: z.string().min(1),
    apiKey: z.string().min(1),
    /** This service's connection-link templates, checked one by one by domain/links.ts (never fatal). */
    links: z.unknown().optional(),
  }),
);
const Config = lazySchema(() =>
  z.object({
    version: z.literal(1),
    defaultProfile: z.string().nullable(),
    profiles: z.record(z.string().regex(PROFILE_NAME), Profile),
    /** The welcome screen was answered once ("try the sandbox"): it does not come back. */
    welcomed: z.boolean().default(false),
    /** The renewals view's windows in days (`[`/`]`, `:renewals`). */
    renewals: z
      .object({ withinDays: z.number().int().min(1).max(365), expiredDays: z.number().int().min(1).max(365) })
      .optional(),
    /** The low-balance threshold per service (its target id: a profile, or the sandbox). */
    lowBalance: z.record(z.string(), z.number().int().min(0)).default({}),
    /**
     * How long a change whose check sees no change is held as "no change seen yet" before it can be
     * called "not applied": the assumption that the service applies a request within it or never.
     */
    holdMinutes: z.number().int().min(1).max(1440).optional(),
    /** The lines browser's Note column (`N`). */
    noteColumn: z.boolean().optional(),
    /** The screen-reader mode, as `--screen-reader` (no boxes or glyphs; rows said as sentences). */
    screenReader: z.boolean().optional(),
    /**
     * Customer message templates over the defaults. Checked one by one by domain/templates.ts (a bad
     * one is refused alone, by name), not here: one bad template must not cost the whole config.
     */
    templates: z.unknown().optional(),
    /** Saved views and the search history: checked entry by entry by present/saved-views.ts. */
    views: z.unknown().optional(),
    searches: z.unknown().optional(),
    /** Connection-link templates for every service without its own (domain/links.ts checks them). */
    links: z.unknown().optional(),
    /**
     * Your keys (command id → keys) and your own commands. Checked entry by entry against the command
     * table by commands/user-keys.ts at start, not here: one bad entry must not cost the others.
     */
    keys: z.unknown().optional(),
    commands: z.unknown().optional(),
  }),
);
export type Profile = z.infer<typeof Profile>;
export type Config = z.infer<typeof Config>;

export const EMPTY_CONFIG: Config = {
  version: 1,
  defaultProfile: null,
  profiles: {},
  welcomed: false,
  lowBalance: {},
};

/** The config holds API keys: others must not be able to read it. */
export { ConfigError } from './config-error';

export const configPath = () => join(configDir(), 'config.json');

/** The config as read once: null when there is none; what was left out of it, one sentence each. */
export interface ReadConfig {
  readonly config: Config | null;
  readonly problems: readonly string[];
  /**
   * Every API key the file holds: the used profiles' and the left-out ones' (a profile with no base
   * URL, a misspelt field, a name that is not one still holds a real key). Kept from a program of
   * yours like any other key.
   */
  readonly keys: readonly string[];
}

/** A field that holds a key, however it is spelt (`apiKey`, `api_key`, `key`, `token`, `secret`). */
const KEY_FIELD = /key|token|secret/i;

/**
 * The key-like values of the raw file's profiles, read without the profile check: every string
 * under a key-like field of every entry (an object or a list of them), and an entry that is a bare
 * string. Only for hiding: nothing here is used to connect.
 */
export function keysIn(json: unknown): string[] {
  const profiles = json && typeof json === 'object' ? (json as Record<string, unknown>).profiles : undefined;
  if (!profiles || typeof profiles !== 'object') return [];
  const keys = new Set<string>();
  for (const entry of Object.values(profiles as Record<string, unknown>)) {
    if (typeof entry === 'string') keys.add(entry);
    else if (entry && typeof entry === 'object')
      for (const [field, value] of Object.entries(entry as Record<string, unknown>))
        if (KEY_FIELD.test(field) && typeof value === 'string') keys.add(value);
  }
  keys.delete('');
  return [...keys];
}

/**
 * Reads the config file once (a command's or the app's start reads it here and passes it on): null
 * when there is none; refuses one that others can read, as ssh does with its keys.
 */
export function readConfig(path = configPath()): ReadConfig {
  if (!existsSync(path)) return { config: null, problems: [], keys: [] };
  const mode = statSync(path).mode & 0o777;
  if (mode & 0o077) {
    throw new ConfigError(
      `${path} can be read by others (mode ${mode.toString(8).padStart(4, '0')}) and holds API keys; linedesk will not use it. Fix it with: chmod 600 ${path}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new ConfigError(`${path} is not valid JSON; fix or remove it`);
  }
  const { config, problems } = checked(json, path);
  return { config, problems, keys: keysIn(json) };
}

/** Null when there is no config; refuses one that others can read (see `readConfig`). */
export function loadConfig(path = configPath()): Config | null {
  return readConfig(path).config;
}

/**
 * The config read entry by entry: the file as a whole must be an object of version 1 (otherwise it
 * is refused, named); a bad entry inside it — one profile, one setting — is left out and named, and
 * the rest is used. Left-out entries are kept in the file as they are (see `saveConfig`).
 */
function checked(
  json: unknown,
  path: string,
): { config: Config; problems: string[]; rejected: Record<string, unknown> } {
  if (!json || typeof json !== 'object' || Array.isArray(json))
    throw new ConfigError(`${path}: (root): expected an object`);
  const raw = json as Record<string, unknown>;
  if (raw.version !== 1) throw new ConfigError(`${path}: version: expected 1`);
  const problems: string[] = [];
  const rejected: Record<string, unknown> = {};
  const profiles: Record<string, Profile> = {};
  const rawProfiles = raw.profiles;
  if (
    rawProfiles !== undefined &&
    (!rawProfiles || typeof rawProfiles !== 'object' || Array.isArray(rawProfiles))
  ) {
    problems.push(`${path}: profiles: expected an object; no profile is used`);
    rejected.profiles = rawProfiles;
  } else {
    for (const [name, value] of Object.entries((rawProfiles ?? {}) as Record<string, unknown>)) {
      const p = Profile.safeParse(value);
      if (PROFILE_NAME.test(name) && p.success) profiles[name] = p.data;
      else {
        problems.push(
          `${path}: profiles.${name}: ${PROFILE_NAME.test(name) ? (p.error?.issues[0] ? `${p.error.issues[0].path.join('.')}: ${p.error.issues[0].message}` : 'invalid') : 'not a usable profile name'}; the profile is left out`,
        );
        rejected[`profiles.${name}`] = value;
      }
    }
  }
  const rest: Record<string, unknown> = {};
  const fields = Config.shape;
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'profiles' || key === 'version') continue;
    const schema = fields[key as keyof typeof fields];
    if (!schema) {
      rejected[key] = value; // a newer version's field: not ours to read, kept as it is on save
      continue;
    }
    const v = schema.safeParse(value);
    if (v.success) rest[key] = v.data;
    else {
      const issue = v.error.issues[0];
      problems.push(
        `${path}: ${[key, ...(issue?.path ?? [])].join('.')}: ${issue?.message ?? 'invalid'}; ${key} is left out`,
      );
      rejected[key] = value;
    }
  }
  const parsed = Config.safeParse({
    ...rest,
    version: 1,
    profiles,
    defaultProfile: rest.defaultProfile ?? null,
  });
  // Every field was checked alone above; a failure here would be a bug of ours: refuse, named.
  if (!parsed.success) throw new ConfigError(`${path}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return { config: parsed.data, problems, rejected };
}

/** What was left out of the config when it was read, one sentence each (empty when all is well). */
export function configProblems(path = configPath()): string[] {
  try {
    return [...readConfig(path).problems];
  } catch {
    return []; // a config that cannot be used at all is refused where it is loaded, named
  }
}

/**
 * Writes atomically (a temporary file, synced, then renamed over the old one), mode 0600 in a
 * 0700 directory whatever the umask: the modes are set explicitly after creation.
 */
export function saveConfig(config: Config, path = configPath()): void {
  const out: Record<string, unknown> = { ...Config.parse(config) };
  // Entries left out when read are written back as they were: a bad one is named, never lost.
  let read: ReturnType<typeof checked> | null = null;
  try {
    if (existsSync(path)) read = checked(JSON.parse(readFileSync(path, 'utf8')), path);
  } catch {
    read = null;
  }
  // A setting the caller left as it was read (its default, for a left-out one) gets its own value back.
  const same = (key: string) =>
    JSON.stringify(out[key]) === JSON.stringify((read?.config as Record<string, unknown> | undefined)?.[key]);
  for (const [key, value] of Object.entries(read?.rejected ?? {})) {
    if (key.startsWith('profiles.')) {
      const name = key.slice('profiles.'.length);
      const profiles = out.profiles as Record<string, unknown>;
      if (!(name in profiles)) profiles[name] = value;
    } else if (same(key)) out[key] = value;
  }
  writeFileAtomic(path, `${JSON.stringify(out, null, 2)}\n`);
}

/** "…k3Yz": the only form in which a key is ever shown. */
export const keyTail = (key: string) => `…${key.slice(-4)}`;
