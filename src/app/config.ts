import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { configDir } from '../paths';
import { writeFileAtomic } from './atomic-file';

/** Profile names: short, shell- and file-safe. */
export const PROFILE_NAME = /^[A-Za-z0-9._-]{1,32}$/;

const Profile = z.object({ baseUrl: z.string().min(1), apiKey: z.string().min(1) });
const Config = z.object({
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
  /**
   * Customer message templates over the defaults. Checked one by one by domain/templates.ts (a bad
   * one is refused alone, by name), not here: one bad template must not cost the whole config.
   */
  templates: z.unknown().optional(),
});
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
export class ConfigError extends Error {}

export const configPath = () => join(configDir(), 'config.json');

/** Null when there is no config; refuses one that others can read, as ssh does with its keys. */
export function loadConfig(path = configPath()): Config | null {
  if (!existsSync(path)) return null;
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
  const parsed = Config.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`${path}: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/**
 * Writes atomically (a temporary file, synced, then renamed over the old one), mode 0600 in a
 * 0700 directory whatever the umask: the modes are set explicitly after creation.
 */
export function saveConfig(config: Config, path = configPath()): void {
  writeFileAtomic(path, `${JSON.stringify(Config.parse(config), null, 2)}\n`);
}

/** "…k3Yz": the only form in which a key is ever shown. */
export const keyTail = (key: string) => `…${key.slice(-4)}`;
