import { BlockList, isIP } from 'node:net';
import { ConfigError } from './errors';

let loopback: BlockList | null = null;

/** 127.0.0.0/8 and ::1, also written as IPv4 in IPv6 (`::ffff:127.0.0.1`, `::ffff:7f00:1`). */
export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  // The usual spellings without Node's BlockList, whose first use loads its modules (1.5 M
  // instructions at a start on a loopback base URL, issue #27): an address isIP calls IPv4 is four
  // decimal parts without leading zeros, so 127.0.0.0/8 is a first part of 127.
  if (family === 4) return address.startsWith('127.');
  if (address === '::1') return true;
  if (!loopback) {
    loopback = new BlockList();
    loopback.addSubnet('127.0.0.0', 8, 'ipv4');
    loopback.addAddress('::1', 'ipv6');
  }
  return loopback.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Loopback by its spelling: an address in 127.0.0.0/8 or ::1, or a name of `localhost`. Plain http is
 * accepted up front only there; a name is checked again for what it resolves to when a connection
 * is made (node-http.ts), since a hosts file or a resolver may send it elsewhere.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isLoopbackAddress(host);
}

/**
 * Checks a base URL before any socket opens: https anywhere, http only on loopback by its spelling
 * (a name is judged again by its addresses when connecting: node-http.ts), no credentials in the
 * URL, no query or fragment. Returns it normalised without a trailing slash. The messages
 * never repeat what was given: an API key pasted or exported into the URL's place would be printed
 * (`--base-url "$LINEDESK_API_KEY"`). `what` names where it came from (`--base-url`, a profile).
 */
export function checkBaseUrl(input: string, where = 'the base URL'): URL {
  const what = where.charAt(0).toUpperCase() + where.slice(1);
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new ConfigError(
      `${what} is not a valid URL: it should look like https://panel.example.com (what was given is not repeated: it may be a key)`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigError(
      `${what} must start with https:// (http:// only for loopback); what was given is not repeated: it may be a key`,
    );
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new ConfigError(
      `Refusing plain http to ${url.hostname} (${where}): the API key would cross the network unencrypted. Use https (plain http only to this machine: 127.0.0.0/8, ::1, or a localhost name, which must also resolve only there when connecting).`,
    );
  }
  if (url.username || url.password) throw new ConfigError(`${what} must not contain credentials`);
  if (url.search || url.hash) throw new ConfigError(`${what} must not contain a query or fragment`);
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}
