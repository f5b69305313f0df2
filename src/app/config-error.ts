/**
 * The config file cannot be used (others can read it, it is not JSON, …). Its own module, without
 * zod: the headless failure mapping tells it apart on every path, `--help` included, and must not
 * load the config's schemas for that.
 */
export class ConfigError extends Error {}
