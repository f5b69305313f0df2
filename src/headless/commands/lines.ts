import { LINE_TYPES, type LineListItem, type OrderBy, type UnreadableItem } from '../../api/contract';
import { holdYoungGeneration } from '../../app/young-generation';
import { sortOf } from '../../commands/args';
import { SORT } from '../../commands/spec';
import { countText, unreadableText } from '../../domain/format';
import { type Column, LINE_COLUMNS } from '../../present/lines-columns';
import { DEFAULT_VIEW, parseViews, type SavedView, viewColumns } from '../../present/saved-views';
import { notesUnsettledText } from '../../services/find-lines';
import {
  DEFAULT_QUERY,
  type LinesQuery,
  linesPager,
  passesFilters,
  STATUS_VIEWS,
  type StatusView,
} from '../../services/lines-query';
import type { LineNote } from '../../services/notes';
import { type PageFetch, walkPages, walkWhole } from '../../services/page-walk';
import { wholeOption } from '../args';
import { EXIT, failureOf, usageFailure } from '../failure';
import {
  DEFAULT_LINE_FIELDS,
  fieldColumns,
  LINE_FIELDS,
  lineRecord,
  lineRows,
  parseFields,
  type Row,
  tableText,
} from '../format';
import { linesByNote } from '../note-lines';
import type { Failure } from '../output';
import { type Ctx, withServices } from '../session';
import { csvFormat, jsonFormat, ndjsonFormat } from './lines-stream';

/**
 * The browser's columns for a terminal table: the username is the column people copy, so it is kept
 * whole down to 50 columns (a higher minimum; type and connections give way below 60 and 56).
 */
const forTable = (c: Column<LineListItem>): Column<LineListItem> =>
  c.id === 'username'
    ? { ...c, width: { min: 16, flex: 3, max: 32 } }
    : c.id === 'type'
      ? { ...c, minTerminal: 60 }
      : c.id === 'connections'
        ? { ...c, minTerminal: 56 }
        : c;
const TABLE_COLUMNS = LINE_COLUMNS.map(forTable);

/** A view's column set for the table (the Note column from this machine's notes), or the default. */
const tableColumns = (ids: readonly string[] | null, notes: ReadonlyMap<string, LineNote>) =>
  ids ? viewColumns(ids, notes).map(forTable) : TABLE_COLUMNS;

/**
 * The view `--view` names, read from the config: null without `--view`; an unknown name (or one
 * left out as bad, said first) is a usage failure that lists the views there are. `default` is the
 * default filter, sort and columns.
 */
function viewOf(ctx: Ctx): SavedView | Failure | null {
  const name = ctx.run.values.view;
  if (typeof name !== 'string') return null;
  if (name.toLowerCase() === DEFAULT_VIEW) return { name: DEFAULT_VIEW, query: DEFAULT_QUERY, columns: null };
  let read: ReturnType<typeof parseViews>;
  try {
    read = parseViews(ctx.config().config?.views);
  } catch (err) {
    return failureOf(err);
  }
  const view = read.views.find((v) => v.name === name);
  if (view) return view;
  for (const problem of read.problems) ctx.out.message(problem, 'yellow');
  const known = read.views.map((v) => v.name);
  return usageFailure(
    `--view: no view "${name.slice(0, 40)}" (${known.length ? `known: ${[DEFAULT_VIEW, ...known].join(', ')}` : 'none saved: :view save NAME in the app saves one'})`,
    ['view'],
  );
}

/** The API takes at most 100 lines a page. */
const PAGE_MAX = 100;

interface LinesRequest {
  readonly query: LinesQuery;
  /** Lines to print at most; null for all. */
  readonly limit: number | null;
  readonly fields: readonly string[] | null;
}

/** The options of `linedesk lines` as a query, or the failure that names the bad one. Pure. */
export function linesRequest(
  values: Ctx['run']['values'],
  format: Ctx['run']['format'],
  /** A saved view (`--view`): its query stands where an option is not given. */
  view: SavedView | null = null,
): LinesRequest | Failure {
  const base = view?.query ?? DEFAULT_QUERY;
  const status = String(values.status ?? base.status);
  if (!(STATUS_VIEWS as readonly string[]).includes(status))
    return usageFailure(`--status takes ${STATUS_VIEWS.join(', ')}, not "${status.slice(0, 20)}"`, [
      'status',
    ]);
  const type = String(values.type ?? base.type);
  if (!(LINE_TYPES as readonly string[]).includes(type))
    return usageFailure(`--type takes ${LINE_TYPES.join(', ')}, not "${type.slice(0, 20)}"`, ['type']);
  // As the palette's `:lines --sort` reads it: the registry's one sort type.
  const sort =
    values.sort === undefined
      ? { orderBy: base.orderBy, orderType: base.orderType }
      : sortOf(SORT, String(values.sort));
  if (!sort)
    return usageFailure('--sort takes id, username, enabled or expiry, then :asc or :desc (expiry:desc)', [
      'sort',
    ]);
  const search = typeof values.search === 'string' ? values.search.trim() : base.search;
  if (search.length > 200) return usageFailure('--search takes at most 200 characters', ['search']);
  let limit: number | null = null;
  if (values.limit !== undefined) {
    const n = wholeOption(values, 'limit', { min: 1, max: 10_000_000 });
    if (typeof n !== 'number') return usageFailure(n.message, n.path);
    limit = n;
  } else if (!values.all && format !== 'ndjson') limit = 20;
  if (values.all && values.limit !== undefined)
    return usageFailure('--all and --limit cannot be used together');
  const fields = parseFields(values.fields as string | undefined, LINE_FIELDS);
  if (fields && 'unknown' in fields)
    return usageFailure(`--fields: unknown field "${fields.unknown}" (known: ${LINE_FIELDS.join(', ')})`, [
      'fields',
    ]);
  return {
    query: {
      ...DEFAULT_QUERY,
      search,
      status: status as StatusView,
      type: type as LinesQuery['type'],
      orderBy: sort.orderBy as OrderBy,
      orderType: sort.orderType,
    },
    limit,
    fields: fields?.fields ?? null,
  };
}

/**
 * Lines across pages, through the one page read (services/lines-query.ts: the expired view included) and the one walker
 * (services/page-walk.ts: pages overlap by a line, so a list that changes under the walk is seen; the
 * paging guards). The table (and JSON for a search, whose note lines add to the total it prints
 * first) prints once the walk ends, so a change makes it walk again (twice at most) and what is
 * printed is one whole list. NDJSON, CSV and JSON stream as pages land, the next page asked for
 * before this one is printed, and cannot take back what they printed: a change stops them with
 * `list_changed` (exit 1) and says the output is incomplete (JSON closes its document with `error`).
 */
export function linesCommand(ctx: Ctx): Promise<number> {
  const { out, run } = ctx;
  const view = viewOf(ctx);
  if (view && 'exit' in view) {
    out.fail(view);
    return Promise.resolve(view.exit);
  }
  const req = linesRequest(run.values, run.format, view);
  if ('exit' in req) {
    out.fail(req);
    return Promise.resolve(req.exit);
  }
  const fields = req.fields ?? DEFAULT_LINE_FIELDS;
  return withServices(ctx, async (sv) => {
    const now = ctx.now();
    const want = req.limit ?? Number.POSITIVE_INFINITY;
    const pageSize = Math.min(PAGE_MAX, want);
    // JSON streams too, but for a search: lines found by their note add to its total, which the
    // document prints first, so a search's document is printed once its walk ends.
    const streams =
      run.format === 'ndjson' || run.format === 'csv' || (run.format === 'json' && !req.query.search);
    const format =
      run.format === 'ndjson' ? ndjsonFormat() : run.format === 'csv' ? csvFormat(fields) : jsonFormat();
    let kept: LineListItem[] = [];
    let total: number | null = null;
    let printed = 0;
    let started = false;
    /** Bytes went out (a CSV header or the JSON document's head count): a failure then says where it stopped. */
    let wrote = false;
    let failure: Failure | null = null;
    /** Lines whose note matches the search that the notes lookup did not reach. */
    let notLookedUp = 0;
    /** Lines whose note matches the search that the server lists in a form that does not read. */
    let notReadable = 0;
    let notIdentified = 0;
    const listedIds = new Set<string>();
    // The ids printed matter only to a search (its note lines come after them, each once).
    const searching = Boolean(req.query.search);
    const rowOf = lineRows(fields);
    const emit = async (lines: readonly LineListItem[]) => {
      const rows: Row[] = [];
      for (const l of lines) {
        if (searching) listedIds.add(l.id);
        rows.push(rowOf(l, now));
      }
      const text = (started ? '' : format.head(total)) + format.page(rows);
      started = true;
      wrote ||= text !== '';
      printed += lines.length;
      await out.data(text);
    };
    const pager = linesPager(sv.client, sv.now);
    const fetch: PageFetch = (offset, limit, fresh, answered, after) =>
      pager.page(req.query, offset, limit, {
        fresh,
        ...(answered ? { onAnswered: answered } : {}),
        ...(after ? { after } : {}),
      });
    const walk = {
      pageSize,
      cancelled: () => out.closed,
      onPage: (p: { lines: number; total: number }) =>
        out.progress(() => `${countText(p.lines)} of ${countText(p.total)} lines…`),
    };
    try {
      if (streams) {
        // Read-ahead (the walker's `prefetch`): the next page is asked for as soon as this one's reply
        // is in hand, so the server works while this one is parsed and printed; not past what is wanted.
        const prefetch = (lines: number) => lines < want && !out.closed;
        // Each page's reply now lands while the one before it is printed, so more survives each
        // young collection and V8 grows the young generation to 16 MB a half (≈ +35 MB resident
        // over a 100,000-line walk, no faster): held at its size, as the app holds it.
        // Set back once the walk ends (app/young-generation.ts): the command's code cache, saved
        // after it, must match the flags of the next run (V8 refuses a cache made under other flags).
        const release = want > 2 * PAGE_MAX ? holdYoungGeneration() : undefined;
        try {
          for await (const page of walkPages(fetch, { ...walk, prefetch, gated: true })) {
            total ??= page.totalHits;
            for (const u of page.unreadable) out.message(`Left out: ${unreadableText(u)}`, 'yellow');
            await emit(page.lines.slice(0, Math.max(0, want - printed)));
            if (printed >= want || out.closed) break;
          }
        } finally {
          release?.();
        }
      } else {
        const read = await walkWhole(
          fetch,
          () => ({
            lines: [] as LineListItem[],
            unreadable: [] as UnreadableItem[],
            total: null as number | null,
          }),
          (s, page) => {
            s.total ??= page.totalHits;
            s.unreadable.push(...page.unreadable);
            s.lines.push(...page.lines.slice(0, Math.max(0, want - s.lines.length)));
            return s.lines.length >= want;
          },
          walk,
        );
        for (const u of read.unreadable) out.message(`Left out: ${unreadableText(u)}`, 'yellow');
        kept = read.lines;
        total = read.total;
      }
      // Lines found by their note (kept on this machine), after the server's matches, as `/` shows them.
      const search = req.query.search;
      if (search && !out.closed && printed + kept.length < want) {
        const listed = new Set([...listedIds, ...kept.map((l) => l.id)]);
        const noted = await linesByNote(sv, search, listed);
        const byNote = noted.lines.filter((l) => passesFilters(l, req.query, now));
        // Not reached, or not readable, is not absent: said, never left out in silence.
        notLookedUp = noted.notLookedUp;
        // One that may be an item whose id or username did not read is counted with them (a script
        // reads `notReadable` as "not proven absent, by an item that does not read", as it always
        // has); `notIdentified` tells those apart.
        notReadable = noted.unreadable + noted.unidentified;
        notIdentified = noted.unidentified;
        const why = notesUnsettledText(noted);
        if (why) out.message(why, 'yellow');
        const more = byNote.slice(0, Math.max(0, want - printed - kept.length));
        if (streams) await emit(more);
        else kept = [...kept, ...more];
        if (total !== null) total += byNote.length;
      }
    } catch (err) {
      failure = failureOf(err);
    }
    out.clearProgress();
    if (streams) {
      // Nothing printed yet (a failure before the first page): the failure alone, as before.
      if (!started && !failure) await emit([]);
      if (started)
        await out.data(format.tail(failure && { ...failure, message: stoppedText(failure, printed) }));
    } else if (run.format === 'json' && !failure) {
      const lines = kept.map((l) => rowOf(l, now));
      const far = {
        ...(notLookedUp ? { notLookedUp } : {}),
        ...(notReadable ? { notReadable } : {}),
        ...(notIdentified ? { notIdentified } : {}),
      };
      await out.data(`${JSON.stringify({ totalHits: total ?? 0, lines, ...far }, null, 2)}\n`);
    } else if (run.format === 'table' && kept.length + (failure ? 0 : 1) > 0) {
      const text = req.fields
        ? tableText(
            out,
            fieldColumns(fields),
            kept.map((l) => lineRecord(l, now)),
            now,
          )
        : tableText(out, tableColumns(view?.columns ?? null, sv.notes.all()), kept, now);
      await out.data(text);
      if (out.isTerminal && total !== null)
        out.message(
          `${countText(kept.length)} of ${countText(total)} lines${kept.length < total ? ' (--all for every line)' : ''}`,
          'dim',
        );
    }
    if (failure) {
      out.fail(printed || wrote ? { ...failure, message: stoppedText(failure, printed) } : failure);
      return failure.exit;
    }
    return EXIT.done;
  });
}

/** A failure after some output: how much was printed, and that it is incomplete when the list moved. */
function stoppedText(failure: Failure, printed: number): string {
  const incomplete = failure.code === 'list_changed' ? ': the output is incomplete' : '';
  return `${failure.message} (stopped after ${countText(printed)} lines${incomplete})`;
}
