import type { z } from 'zod';
import { checkBaseUrl } from './base-url';
import {
  Account,
  BouquetsResponse,
  CostResponse,
  CreateLineBody,
  CreateTrialBody,
  DeleteBody,
  DeleteResponse,
  ExtendBody,
  Line,
  LineChargeResponse,
  LineIdentification,
  LinesPage,
  ListLinesQuery,
  PackagesQuery,
  PackagesResponse,
  plainListQuery,
  UpgradeBody,
} from './contract';
import { RequestValidationError } from './errors';
import { Transport, type TransportOptions } from './http';

export interface ClientOptions extends Omit<TransportOptions, 'baseUrl'> {
  /**
   * https anywhere; plain http only on loopback: by its spelling before any socket opens, and a
   * name again by every address it resolves to, before its socket connects.
   */
  readonly baseUrl: string;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  /** A 2xx reply is in hand, not yet parsed (see the transport's `onAnswered`). */
  readonly onAnswered?: () => void;
  /** Made at once, sent once this fulfils (see the transport's `after`). */
  readonly after?: Promise<void>;
}

/** Validates a request against the contract; nothing is sent when it breaks a rule. */
function validate<S extends z.ZodType>(schema: S, input: unknown, endpoint: string): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new RequestValidationError(
    endpoint,
    parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message, code: i.code })),
  );
}

/** Drops undefined fields so the wire body holds only what the caller set. */
function compact<T extends object>(body: T): T {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as T;
}

export type ApiClient = ReturnType<typeof createClient>;

/** One typed function per endpoint of the interface document, all 13. */
export function createClient(options: ClientOptions) {
  const baseUrl = checkBaseUrl(options.baseUrl);
  const t = new Transport({ ...options, baseUrl });

  return {
    baseUrl: baseUrl.href,

    me: async (o: CallOptions = {}) => t.send('GET', '/v1/me', Account, { kind: 'read', ...o }),

    packages: async (query: PackagesQuery = {}, o: CallOptions = {}) => {
      const q = validate(PackagesQuery, query, 'GET /v1/packages');
      return t.send('GET', '/v1/packages', PackagesResponse, { kind: 'read', query: q, ...o });
    },

    bouquets: async (o: CallOptions = {}) =>
      t.send('GET', '/v1/bouquets', BouquetsResponse, { kind: 'read', ...o }),

    listLines: async (query: ListLinesQuery = {}, o: CallOptions = {}) => {
      const q = plainListQuery(query) ?? validate(ListLinesQuery, query, 'GET /v1/lines/all');
      return t.send('GET', '/v1/lines/all', LinesPage, { kind: 'read', query: q, ...o });
    },

    createLine: async (body: CreateLineBody, o: CallOptions = {}) => {
      const b = compact(validate(CreateLineBody, body, 'POST /v1/lines'));
      return t.send('POST', '/v1/lines', LineChargeResponse, { kind: 'mutation', body: b, ...o });
    },

    createTrial: async (body: CreateTrialBody, o: CallOptions = {}) => {
      const b = compact(validate(CreateTrialBody, body, 'POST /v1/lines/trial'));
      return t.send('POST', '/v1/lines/trial', LineChargeResponse, { kind: 'mutation', body: b, ...o });
    },

    simulateCreate: async (body: CreateLineBody, o: CallOptions = {}) => {
      const b = compact(validate(CreateLineBody, body, 'POST /v1/lines/simulate'));
      return t.send('POST', '/v1/lines/simulate', CostResponse, { kind: 'read', body: b, ...o });
    },

    simulateTrial: async (body: CreateTrialBody, o: CallOptions = {}) => {
      const b = compact(validate(CreateTrialBody, body, 'POST /v1/lines/simulate/trial'));
      return t.send('POST', '/v1/lines/simulate/trial', CostResponse, { kind: 'read', body: b, ...o });
    },

    extendLine: async (body: ExtendBody, o: CallOptions = {}) => {
      const b = compact(validate(ExtendBody, body, 'PUT /v1/lines/extend'));
      return t.send('PUT', '/v1/lines/extend', LineChargeResponse, { kind: 'mutation', body: b, ...o });
    },

    upgradeLine: async (body: UpgradeBody, o: CallOptions = {}) => {
      const b = compact(validate(UpgradeBody, body, 'PUT /v1/lines/upgrade'));
      return t.send('PUT', '/v1/lines/upgrade', LineChargeResponse, { kind: 'mutation', body: b, ...o });
    },

    simulateUpgrade: async (body: UpgradeBody, o: CallOptions = {}) => {
      const b = compact(validate(UpgradeBody, body, 'PUT /v1/lines/simulate/upgrade'));
      return t.send('PUT', '/v1/lines/simulate/upgrade', CostResponse, { kind: 'read', body: b, ...o });
    },

    unsuspendLine: async (body: LineIdentification, o: CallOptions = {}) => {
      const b = compact(validate(LineIdentification, body, 'PUT /v1/lines/unsuspend'));
      return t.send('PUT', '/v1/lines/unsuspend', Line, { kind: 'mutation', body: b, ...o });
    },

    deleteLine: async (body: DeleteBody, o: CallOptions = {}) => {
      const b = compact(validate(DeleteBody, body, 'DELETE /v1/lines'));
      return t.send('DELETE', '/v1/lines', DeleteResponse, { kind: 'mutation', body: b, ...o });
    },

    close: () => t.close(),
  };
}
