// The two parts of undici the transport uses, imported directly: undici's index also loads fetch,
// WebSocket, caches and mocks, about 1 MB of bundle that every start would parse (docs/PERFORMANCE.md).
import type { Dispatcher } from 'undici';
import requestOn from 'undici/lib/api/api-request.js';
import Agent from 'undici/lib/dispatcher/agent.js';

export type { Dispatcher };
export { Agent };

/** undici's `dispatcher.request(options)`, on any dispatcher (a test's own included). */
export function request(
  dispatcher: Dispatcher,
  options: Dispatcher.RequestOptions,
): Promise<Dispatcher.ResponseData> {
  return requestOn.call(dispatcher, options);
}
