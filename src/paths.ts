import envPaths from 'env-paths';

/**
 * XDG directories (or the platform's equivalents): data for the sandbox database and journal. Worked
 * out when first asked, not as the module loads (`--version` and a command given its directories
 * in the environment never need them).
 */
let found: ReturnType<typeof envPaths> | undefined;
const paths = () => {
  found ??= envPaths('linedesk', { suffix: '' });
  return found;
};

// The environment is an argument so the headless commands (and their tests) can pass their own.
export const dataDir = (env: NodeJS.ProcessEnv = process.env) => env.LINEDESK_DATA_DIR ?? paths().data;
export const stateDir = (env: NodeJS.ProcessEnv = process.env) => env.LINEDESK_STATE_DIR ?? paths().log;
export const configDir = (env: NodeJS.ProcessEnv = process.env) => env.LINEDESK_CONFIG_DIR ?? paths().config;
