/**
 * Connection links: what a customer types into a player. The playlist (M3U) and guide (EPG) links, the
 * Xtream-style server (with the line's username and password) and the set-top-box portal, built from
 * the line's `hostname` (or the account's `server_information.hostname`) and its credentials through
 * URL templates per profile (config `links`). Pure: no config file, no clock.
 *
 * A hostname comes from a server: it is used only when it is a host[:port] and nothing else (no
 * scheme, path, query, credentials or spaces), so it can never move a link to another place. Usernames
 * and passwords are URL-encoded. A line with no usable host gets the reason, never a broken link.
 */

const LINK_KINDS = ['m3u', 'epg', 'server', 'portal'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

/** What each link is, in words (the detail's rows, the command's output, the messages). */
export const LINK_NAMES: Record<LinkKind, string> = {
  m3u: 'M3U playlist',
  epg: 'EPG guide',
  server: 'Xtream server',
  portal: 'MAG portal',
};

const VARIABLES = ['hostname', 'username', 'password'] as const;
type Variable = (typeof VARIABLES)[number];

type Part = { readonly text: string } | { readonly name: Variable };

/** A checked template: its text as written, and its parts. */
interface LinkTemplate {
  readonly source: string;
  readonly parts: readonly Part[];
  /** True when the link carries the password (shown hidden where the password is hidden). */
  readonly hasPassword: boolean;
  /** `{hostname}:8443`: the template's port replaces the host's own. */
  readonly hasPort: boolean;
}

/** The templates of one service. `portal: null`: the account's `server_information.mag_portal_url`. */
export interface LinkTemplates {
  readonly m3u: LinkTemplate;
  readonly epg: LinkTemplate;
  readonly server: LinkTemplate;
  readonly portal: LinkTemplate | null;
}

const DEFAULT_LINK_SOURCES = {
  m3u: 'http://{hostname}/get.php?username={username}&password={password}&type=m3u_plus&output=ts',
  epg: 'http://{hostname}/xmltv.php?username={username}&password={password}',
  server: 'http://{hostname}',
} as const;

const mustParse = (source: string): LinkTemplate => {
  const r = parseLinkTemplate(source);
  if (!r.ok) throw new Error(`default link template: ${r.error}`);
  return r.template;
};

let defaults: LinkTemplates | null = null;
/** The built-in templates (checked by the same rules as the config's; built on first use). */
export function defaultLinkTemplates(): LinkTemplates {
  defaults ??= Object.freeze({
    m3u: mustParse(DEFAULT_LINK_SOURCES.m3u),
    epg: mustParse(DEFAULT_LINK_SOURCES.epg),
    server: mustParse(DEFAULT_LINK_SOURCES.server),
    portal: null,
  });
  return defaults;
}

// ---------------------------------------------------------------------------------------------------
// Hosts

/** A host name of ASCII letters, numbers, `_` and `-` in dot-separated labels: nearly every host. */
const ASCII_NAME = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;
/** The same of any script (letters, numbers and marks): made on first use, see `isHostName`. */
let unicodeName: RegExp | undefined;

/**
 * Whether `s` is a host name: letters, numbers and marks of any script, `_` and `-`, in dot-separated
 * labels. The ASCII pattern is tried first (every name it matches the Unicode one matches too); the
 * Unicode one is made only when an ASCII test fails: V8 parses a regular expression where it is
 * created, and its Unicode classes cost ≈ 2 ms to parse and ≈ 5 ms to compile, at every command's
 * start (the default link templates are checked with a sample host), for the ASCII names nearly
 * every host has (issue #27).
 */
function isHostName(s: string): boolean {
  if (ASCII_NAME.test(s)) return true;
  unicodeName ??= /^[\p{L}\p{N}\p{M}_-]+(?:\.[\p{L}\p{N}\p{M}_-]+)*$/u;
  return unicodeName.test(s);
}
const IPV6 = /^\[[0-9A-Fa-f:.]+\]$/;

/**
 * `host[:port]` as it goes into a link (an international name in its ASCII form), or why not. Only
 * a name, an IPv4 address or a bracketed IPv6 address, and a port 1–65535; nothing that a URL would
 * read as a scheme, credentials, a path, a query or a fragment.
 */
export function checkHost(
  raw: string,
): { ok: true; host: string; name: string } | { ok: false; why: string } {
  const text = raw.trim();
  const no = (why: string) => ({ ok: false as const, why });
  if (!text) return no('it is empty');
  if (text.length > 261) return no('it is too long for a host name');
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d{1,5}))?$/.exec(text);
  if (!m) return no('it is not a host[:port] (a scheme, a path, credentials or a second ":"?)');
  const [, name = '', port] = m;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return no('its port is not 1–65535');
  const isV6 = IPV6.test(name);
  if (!isV6 && !isHostName(name))
    return no('it holds a character a host name cannot have (a scheme, a path, a query, "@", a space?)');
  let ascii: string;
  try {
    const url = new URL(`http://${name}/`);
    // The URL parser agrees it is only a host: nothing moved into the path, the credentials or the query.
    if (url.pathname !== '/' || url.username || url.password || url.search || url.hash || url.port)
      return no('it is not a host[:port]');
    ascii = url.hostname;
  } catch {
    return no('it is not a valid host name');
  }
  if (
    !isV6 &&
    ascii.split('.').some((label) => label.length > 63 || label.startsWith('-') || label.endsWith('-'))
  )
    return no('it is not a valid host name');
  return { ok: true, host: port === undefined ? ascii : `${ascii}:${Number(port)}`, name: ascii };
}

// ---------------------------------------------------------------------------------------------------
// Templates

type LinkTemplateResult = { ok: true; template: LinkTemplate } | { ok: false; error: string };

const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;
const SAMPLE: Record<Variable, string> = { hostname: 'example.com', username: 'user', password: 'pass' };

/**
 * A template: an http or https URL of printable ASCII, with `{hostname}` as its whole address (right
 * after the scheme, a port of its own allowed; or a fixed host and no `{hostname}`), and `{username}`
 * and `{password}` after it.
 */
export function parseLinkTemplate(raw: unknown): LinkTemplateResult {
  const fail = (error: string): LinkTemplateResult => ({ ok: false, error });
  if (typeof raw !== 'string') return fail('expected text (a URL with {hostname}, {username}, {password})');
  if (raw.length < 1 || raw.length > 500) return fail('must be 1–500 characters');
  if (!PRINTABLE_ASCII.test(raw)) return fail('holds a space, a control or a non-ASCII character');
  const scheme = /^https?:\/\//i.exec(raw);
  if (!scheme) return fail('must start with http:// or https://');
  const parts: Part[] = [];
  let text = '';
  const token = /\{([^{}]*)\}|[{}]/g;
  let last = 0;
  for (let m = token.exec(raw); m !== null; m = token.exec(raw)) {
    text += raw.slice(last, m.index);
    last = m.index + m[0].length;
    if (m[1] === undefined) return fail(`a stray "${m[0]}" at character ${m.index + 1}`);
    const name = m[1] as Variable;
    if (!VARIABLES.includes(name))
      return fail(`unknown placeholder {${m[1].slice(0, 20)}} (known: {hostname}, {username}, {password})`);
    if (text) parts.push({ text });
    text = '';
    parts.push({ name });
  }
  text += raw.slice(last);
  if (text) parts.push({ text });
  const rest = raw.slice(scheme[0].length);
  const authority = rest.slice(0, rest.search(/[/?#]|$/));
  const names = parts.flatMap((p) => ('name' in p ? [p.name] : []));
  if (names.includes('hostname')) {
    if (!/^\{hostname\}(?::\d{1,5})?$/.test(authority) || names.filter((n) => n === 'hostname').length > 1)
      return fail(
        '{hostname} must be the whole address, right after http:// or https:// (once; a :port may follow)',
      );
    const port = authority.slice('{hostname}:'.length);
    if (port && (Number(port) < 1 || Number(port) > 65535)) return fail('its port is not 1–65535');
  } else {
    if (/[{}]/.test(authority)) return fail('only {hostname} can be the address');
    const host = checkHost(authority);
    if (!host.ok) return fail(`its address "${authority.slice(0, 40)}": ${host.why}`);
  }
  try {
    const url = new URL(fillParts(parts, SAMPLE));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail('must be an http or https URL');
  } catch {
    return fail('is not a URL once filled in');
  }
  return {
    ok: true,
    template: {
      source: raw,
      parts,
      hasPassword: names.includes('password'),
      hasPort: authority.startsWith('{hostname}:'),
    },
  };
}

/** `values`: hostname as it is (checked), the rest URL-encoded here. */
function fillParts(parts: readonly Part[], values: Record<Variable, string>): string {
  return parts
    .map((p) =>
      'text' in p ? p.text : p.name === 'hostname' ? values.hostname : encodeURIComponent(values[p.name]),
    )
    .join('');
}

/** What the config holds for links, in the shape of the config file (app/config.ts). */
interface LinksConfig {
  readonly links?: unknown;
  readonly profiles?: Readonly<Record<string, { readonly links?: unknown }>>;
}

/**
 * The templates for one service: the profile's own `links`, then the config's top-level `links` (every
 * service without its own: the sandbox, a `--base-url`), then the built-in defaults, template by
 * template. A bad template is named and left out (the next one down is used); never fatal.
 */
export function linkTemplatesFor(
  config: LinksConfig | null | undefined,
  profile: string | null,
): { templates: LinkTemplates; errors: string[] } {
  const errors: string[] = [];
  const top = readLevel(config?.links, 'links', errors);
  const own = profile
    ? readLevel(config?.profiles?.[profile]?.links, `profiles.${profile}.links`, errors)
    : {};
  const d = defaultLinkTemplates();
  return {
    templates: {
      m3u: own.m3u ?? top.m3u ?? d.m3u,
      epg: own.epg ?? top.epg ?? d.epg,
      server: own.server ?? top.server ?? d.server,
      portal: own.portal ?? top.portal ?? d.portal,
    },
    errors,
  };
}

function readLevel(raw: unknown, where: string, errors: string[]): Partial<Record<LinkKind, LinkTemplate>> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    errors.push(`Link templates ${where}: expected an object (${LINK_KINDS.join(', ')}); left out`);
    return {};
  }
  const out: Partial<Record<LinkKind, LinkTemplate>> = {};
  for (const [key, value] of Object.entries(raw)) {
    const name = `${where}.${key.slice(0, 20)}`;
    if (!(LINK_KINDS as readonly string[]).includes(key)) {
      errors.push(`Link template ${name}: unknown link (known: ${LINK_KINDS.join(', ')}); left out`);
      continue;
    }
    const r = parseLinkTemplate(value);
    if (r.ok) out[key as LinkKind] = r.template;
    else errors.push(`Link template ${name}: ${r.error}; left out (the default is used)`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Links

/** A link, or why there is none. `hidden`: the link with its password as `PASSWORD_MASK`. */
export type Link =
  | { readonly ok: true; readonly url: string; readonly hidden: string; readonly hasPassword: boolean }
  | { readonly ok: false; readonly reason: string };

export const PASSWORD_MASK = '********';

/** What links are built from: a line (list form is enough) and the account, when loaded. */
interface LinkLine {
  readonly hostname: string | null;
  readonly username: string;
  readonly password: string;
}
export interface LinkAccount {
  readonly server_information: { readonly hostname: string; readonly mag_portal_url: string };
}

export interface Links {
  readonly m3u: Link;
  readonly epg: Link;
  /** The Xtream-style triple is this server with the line's username and password. */
  readonly server: Link;
  readonly portal: Link;
  /** The host the links use (`host[:port]`), or null with the reason in each link. */
  readonly host: string | null;
}

const quoted = (s: string) => JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);

type Host = { readonly host: string; readonly name: string } | { readonly reason: string };

/** The line's host, else the account's; the line's, when it has one, is never passed over. */
function hostOf(line: LinkLine, account: LinkAccount | null): Host {
  const own = line.hostname?.trim() ?? '';
  if (own) {
    const h = checkHost(own);
    return h.ok
      ? { host: h.host, name: h.name }
      : { reason: `the line's server host ${quoted(own)} is unusable: ${h.why}` };
  }
  if (!account) return { reason: "no server host: the line has none, and the account's is not loaded" };
  const shared = account.server_information.hostname.trim();
  if (!shared) return { reason: 'no server host: neither the line nor the account names one' };
  const h = checkHost(shared);
  return h.ok
    ? { host: h.host, name: h.name }
    : { reason: `the account's server host ${quoted(shared)} is unusable: ${h.why}` };
}

/** The account's portal address, used as it is when it is an http(s) URL without credentials. */
function accountPortal(account: LinkAccount | null): Link {
  if (!account) return { ok: false, reason: 'the account is not loaded' };
  const raw = account.server_information.mag_portal_url.trim();
  if (!raw) return { ok: false, reason: 'the account names no portal address' };
  const bad: Link = {
    ok: false,
    reason: `the account's portal address ${quoted(raw)} is not an http(s) URL`,
  };
  if (!/^https?:\/\//i.test(raw) || !PRINTABLE_ASCII.test(raw)) return bad;
  try {
    const url = new URL(raw);
    if (url.username || url.password) return bad;
    return { ok: true, url: url.href, hidden: url.href, hasPassword: false };
  } catch {
    return bad;
  }
}

function linkOf(t: LinkTemplate, line: LinkLine, host: Host): Link {
  const needsHost = t.parts.some((p) => 'name' in p && p.name === 'hostname');
  if (needsHost && 'reason' in host) return { ok: false, reason: host.reason };
  const hostname = 'reason' in host ? '' : t.hasPort ? host.name : host.host;
  try {
    const url = fillParts(t.parts, { hostname, username: line.username, password: line.password });
    new URL(url); // a last check: what leaves here parses as a URL
    // The password's places shown as the mask (it is URL-safe: encoding leaves it as it is).
    const hidden = t.hasPassword
      ? fillParts(t.parts, { hostname, username: line.username, password: PASSWORD_MASK })
      : url;
    return { ok: true, url, hidden, hasPassword: t.hasPassword };
  } catch {
    return { ok: false, reason: 'the link could not be made from its template' };
  }
}

/**
 * Every link of one line: a function of the line, the account (null while not loaded) and the
 * service's templates (`linkTemplatesFor`). Shared by the screens, the commands and the messages.
 */
export function buildLinks(
  line: LinkLine,
  account: LinkAccount | null,
  templates: LinkTemplates = defaultLinkTemplates(),
): Links {
  const host = hostOf(line, account);
  return {
    m3u: linkOf(templates.m3u, line, host),
    epg: linkOf(templates.epg, line, host),
    server: linkOf(templates.server, line, host),
    portal: templates.portal ? linkOf(templates.portal, line, host) : accountPortal(account),
    host: 'host' in host ? host.host : null,
  };
}

/**
 * A line's link URLs, null where there is none (no usable host: the detail says why): what a
 * customer message fills ({M3U_URL}, {EPG_URL}, {PORTAL_URL}) and a command of yours is given
 * (present/line-env.ts).
 */
export function linkValues(links: Links): Readonly<Record<LinkKind, string | null>> {
  const v = (l: Link) => (l.ok ? l.url : null);
  return { m3u: v(links.m3u), epg: v(links.epg), server: v(links.server), portal: v(links.portal) };
}

/** A link as shown where the password may be hidden: the link, the link with its password masked, or
 *  why there is none (the screens and `linedesk line` say the same). */
export function linkText(link: Link, showPassword: boolean): string {
  if (!link.ok) return `none: ${link.reason}`;
  return showPassword ? link.url : link.hidden;
}

/** A link as `linedesk line --json` prints it: the URL, or null and why (a hidden password is a why). */
export function linkRecord(link: Link, showPassword: boolean): { url: string | null; reason: string | null } {
  if (!link.ok) return { url: null, reason: link.reason };
  if (link.hasPassword && !showPassword)
    return { url: null, reason: 'it holds the password: --show-password prints it' };
  return { url: link.url, reason: null };
}
