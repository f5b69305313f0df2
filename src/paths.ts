import envPaths from 'env-paths';

/** XDG directories (or the platform's equivalents): data for the sandbox database and journal. */
const paths = envPaths('linedesk', { suffix: '' });

// The environment is an argument so the headless commands (and their tests) can pass their own.
export const dataDir = (env: NodeJS.ProcessEnv = process.env) => env.LINEDESK_DATA_DIR ?? paths.data;
export const stateDir = (env: NodeJS.ProcessEnv = process.env) => env.LINEDESK_STATE_DIR ?? paths.log;
export const configDir = (env: NodeJS.ProcessEnv = process.env) => env.LINEDESK_CONFIG_DIR ?? paths.config;
