import * as z from 'zod';
import { lazySchema } from './lazy';
import { serverString, serverText } from './primitives';

/** 400: supplied parameters or body invalid. */
export const RequestErrorsBody = lazySchema(() =>
  z.object({
    code: z.literal('request_errors'),
    message: serverText,
    data: z.object({
      errors: z.array(
        z.object({
          code: serverString,
          message: serverText,
          path: z.array(z.union([z.string(), z.number()]).transform((p) => serverString.parse(String(p)))),
        }),
      ),
    }),
  }),
);
export type RequestErrorsBody = z.output<typeof RequestErrorsBody>;

export const NotAuthorizedBody = lazySchema(() =>
  z.object({ code: z.literal('not_authorized'), message: serverText }),
);
export const RateLimitBody = lazySchema(() =>
  z.object({ code: z.literal('rate_limit'), message: serverText }),
);
export const ServerErrorBody = lazySchema(() =>
  z.object({
    code: z.literal('server_error'),
    message: serverText,
    requestId: serverString,
  }),
);
export const InsufficientBalanceBody = lazySchema(() =>
  z.object({
    code: z.literal('insufficient_balance'),
    message: serverText,
    balance: z.number(),
    minBalance: z.number(),
  }),
);
export const LineNotFoundBody = lazySchema(() =>
  z.object({ code: z.literal('line_not_found'), message: serverText }),
);
/** Username already exists (create, simulate); selected duration not available (extend). */
export const MessageOnlyBody = lazySchema(() => z.object({ message: serverText }));

/** Every error body of the Errors table; `code` decides, HTTP status is only a fallback. */
export const ErrorBody = lazySchema(() =>
  z.union([
    RequestErrorsBody,
    NotAuthorizedBody,
    RateLimitBody,
    ServerErrorBody,
    InsufficientBalanceBody,
    LineNotFoundBody,
  ]),
);
export type ErrorBody = z.output<typeof ErrorBody>;
export type ErrorCode = ErrorBody['code'];
