import { isIP } from 'node:net';
import { ConfigError } from './errors';

/** Loopback: 127.0.0.0/8, ::1 and localhost. Plain http is accepted only there. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1';
  return false;
}

/**
 * Checks a base URL before any socket opens: https anywhere, http only on loopback, no credentials
 * in the URL, no query or fragment. Returns it normalised without a trailing slash. The messages
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
      `Refusing plain http to ${url.hostname} (${where}): the API key would cross the network unencrypted. Use https (http is allowed only for loopback).`,
    );
  }
  if (url.username || url.password) throw new ConfigError(`${what} must not contain credentials`);
  if (url.search || url.hash) throw new ConfigError(`${what} must not contain a query or fragment`);
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}
