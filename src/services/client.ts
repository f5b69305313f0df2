import type { ApiClient } from '../api/client';

/** What the services call: the client's endpoint functions only (closing it is the app layer's). */
export type ServiceClient = Omit<ApiClient, 'close' | 'baseUrl'>;
