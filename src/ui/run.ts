import type { AppOptions } from '../cli-args';

/** Placeholder until the TUI lands: the app shell arrives with the TUI issue. */
export async function runApp(_options: AppOptions): Promise<number> {
  process.stderr.write('linedesk: the interactive app is not built yet; try `linedesk sandbox`.\n');
  return 1;
}
