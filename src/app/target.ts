import { checkBaseUrl } from '../api/base-url';
import type { Config } from './config';

interface TargetFlags {
  readonly sandbox: boolean;
  readonly baseUrl: string | null;
  readonly profile: string | null;
}

export type TargetChoice =
  | { readonly kind: 'sandbox' }
  | { readonly kind: 'welcome' }
  | {
      readonly kind: 'remote';
      readonly baseUrl: string;
      readonly apiKey: string;
      readonly profile: string | null;
    }
  /** `field`: the flag the message concerns (`profile`, `base-url`), when a flag chose. */
  | { readonly kind: 'error'; readonly message: string; readonly field?: string };

/**
 * Flags over environment over the default profile over the embedded sandbox; with nothing
 * configured at all, the welcome screen asks. Pure: every rule is tested without a process.
 */
export function chooseTarget(
  flags: TargetFlags,
  env: NodeJS.ProcessEnv,
  config: Config | null,
): TargetChoice {
  const field = (source: string) => (source.startsWith('--') ? { field: source.slice(2) } : {});
  // A value in the wrong place may be a key (`--base-url "$LINEDESK_API_KEY"`): never repeated.
  const isKey = (s: string) =>
    s === env.LINEDESK_API_KEY || Object.values(config?.profiles ?? {}).some((p) => p.apiKey === s);
  /** The URL checked where its source is known, so the message can say which one is wrong. */
  const badUrl = (url: string, where: string, source: string): TargetChoice | null => {
    try {
      checkBaseUrl(url, where);
      return null;
    } catch (err) {
      return { kind: 'error', message: (err as Error).message, ...field(source) };
    }
  };
  /**
   * A key an HTTP header cannot carry (a newline from a file, a control character) would fail every
   * request as "unreachable"; it is said here, by where it came from, never shown.
   */
  const badKey = (key: string, where: string, source: string): TargetChoice | null =>
    /[\u0000-\u001f\u007f]|[^\u0000-\u00ff]/.test(key)
      ? {
          kind: 'error',
          message: `${where} holds a character an API key cannot have (${/[\r\n]/.test(key) ? 'a line break' : 'a control or non-Latin character'}): set it again without it (the key is not shown)`,
          ...field(source),
        }
      : null;
  const profile = (name: string, source: string): TargetChoice => {
    const p = config?.profiles[name];
    if (!p) {
      const known = Object.keys(config?.profiles ?? {});
      return {
        kind: 'error',
        message: `No profile ${isKey(name) ? 'by that name' : `"${name}"`} (${source}${isKey(name) ? ' holds an API key, not repeated here' : ''}).${known.length ? ` Known: ${known.join(', ')}.` : ' None is configured yet.'}`,
        ...field(source),
      };
    }
    return (
      badUrl(p.baseUrl, `the base URL of profile "${name}"`, source) ??
      badKey(p.apiKey, `The API key of profile "${name}"`, source) ?? {
        kind: 'remote',
        baseUrl: p.baseUrl,
        apiKey: p.apiKey,
        profile: name,
      }
    );
  };
  const byUrl = (url: string, source: string): TargetChoice => {
    const bad = badUrl(url, source, source);
    if (bad) return bad;
    const key = env.LINEDESK_API_KEY;
    if (key)
      return (
        badKey(key, 'LINEDESK_API_KEY', 'LINEDESK_API_KEY') ?? {
          kind: 'remote',
          baseUrl: url,
          apiKey: key,
          profile: null,
        }
      );
    const match = Object.entries(config?.profiles ?? {}).find(
      ([, p]) => p.baseUrl.replace(/\/+$/, '') === url.replace(/\/+$/, ''),
    );
    if (match)
      return (
        badKey(match[1].apiKey, `The API key of profile "${match[0]}"`, source) ?? {
          kind: 'remote',
          baseUrl: url,
          apiKey: match[1].apiKey,
          profile: match[0],
        }
      );
    return {
      kind: 'error',
      message: `${source} needs an API key: set LINEDESK_API_KEY, or add a profile for that URL.`,
      ...field(source),
    };
  };

  if (flags.sandbox) return { kind: 'sandbox' };
  if (flags.profile) return profile(flags.profile, '--profile');
  if (flags.baseUrl) return byUrl(flags.baseUrl, '--base-url');
  if (env.LINEDESK_PROFILE) return profile(env.LINEDESK_PROFILE, 'LINEDESK_PROFILE');
  if (env.LINEDESK_BASE_URL) return byUrl(env.LINEDESK_BASE_URL, 'LINEDESK_BASE_URL');
  if (config?.defaultProfile) return profile(config.defaultProfile, 'the default profile');
  if (config === null) return { kind: 'welcome' };
  return { kind: 'sandbox' };
}
