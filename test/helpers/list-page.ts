/**
 * One page of a list reply as a fake client's `listLines` answers it, from the items a search matched:
 * `bad` holds the ids of items sent in a form that does not read (listed as unreadable, at their index
 * on the page); `nameless`: their id and username do not read either.
 */
export function listPage<T extends { id: string; username: string }>(
  matched: readonly T[],
  q: { offset?: number; limit?: number },
  bad: ReadonlySet<string> = new Set(),
  nameless = false,
) {
  const offset = q.offset ?? 0;
  const items = matched.slice(offset, offset + (q.limit ?? 20));
  const next = offset + items.length < matched.length ? offset + items.length : null;
  return {
    offset,
    limit: q.limit ?? 20,
    totalHits: matched.length,
    totalReturns: items.length,
    hasNextPage: next !== null,
    hasPreviousPage: offset > 0,
    nextOffset: next,
    previousOffset: null,
    lines: items.filter((r) => !bad.has(r.id)),
    unreadable: items.flatMap((r, index) =>
      bad.has(r.id)
        ? [
            nameless
              ? { index, id: null, username: null, field: 'id', message: 'not a string' }
              : { index, id: r.id, username: r.username, field: 'expiry', message: 'not a date' },
          ]
        : [],
    ),
  };
}
