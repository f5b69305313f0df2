import envPaths from 'env-paths';

/** XDG directories (or the platform's equivalents): data for the sandbox database and journal. */
const paths = envPaths('linedesk', { suffix: '' });

export const dataDir = () => process.env.LINEDESK_DATA_DIR ?? paths.data;
export const stateDir = () => process.env.LINEDESK_STATE_DIR ?? paths.log;
export const configDir = () => process.env.LINEDESK_CONFIG_DIR ?? paths.config;
