// `plainListQuery` must leave to the schema anything the schema refuses. An array
// (or null) is not an object to zod; the fast path reads an array as the default query, and null
// throws a TypeError where the client promised a RequestValidationError.
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import { ListLinesQuery, plainListQuery } from '../../src/api/contract';
import { RequestValidationError } from '../../src/api/errors';

describe('plainListQuery (review)', () => {
  it('leaves an array to the schema (which refuses it)', () => {
    expect(ListLinesQuery.safeParse([]).success).toBe(false);
    expect(plainListQuery([] as unknown as Record<string, unknown>)).toBeNull();
  });

  it('listLines(null) is refused as a request, not a TypeError, and nothing is sent', async () => {
    const client = createClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' });
    try {
      await expect(client.listLines(null as never)).rejects.toBeInstanceOf(RequestValidationError);
    } finally {
      await client.close();
    }
  });
});
