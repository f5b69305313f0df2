declare const LINEDESK_VERSION: string | undefined;

/** Injected by the bundler; "dev" when running from source (tests). */
export const VERSION = typeof LINEDESK_VERSION === 'string' ? LINEDESK_VERSION : 'dev';
