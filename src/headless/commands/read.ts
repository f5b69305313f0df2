import type { Package } from '../../api/contract';
import { driftWatchOf } from '../../app/drift-watch';
import { type Diagnosis, diagnose, type Fix } from '../../domain/diagnosis';
import {
  absoluteText,
  countText,
  creditsText,
  expiryText,
  relativeText,
  statusOf,
} from '../../domain/format';
import { buildLinks, LINK_NAMES, type Links, linkRecord, linkText } from '../../domain/links';
import { namesText } from '../../domain/paste-list';
import { statusGroups } from '../../domain/status-groups';
import { PACKAGE_COLUMNS } from '../../present/tables';
import { countLines, skippedText } from '../../services/account';
import { readAccountWatched } from '../../services/balance-watch';
import { describeError } from '../../services/describe-error';
import { notesUnsettledText } from '../../services/find-lines';
import { driftPair, driftRecord } from '../drift';
import { EXIT, failureOf } from '../failure';
import { csvText, fieldColumns, lineRecord, pairsText, type Row, tableText } from '../format';
import { linesByNote } from '../note-lines';
import type { Tint } from '../output';
import { type Ctx, withServices } from '../session';

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

export function accountCommand(ctx: Ctx): Promise<number> {
  return withServices(ctx, async (sv) => {
    const [account, counts] = await Promise.allSettled([
      readAccountWatched(sv.client, driftWatchOf(sv)),
      countLines(sv.client, sv.now()),
    ]);
    if (account.status === 'rejected') {
      const f = failureOf(account.reason);
      ctx.out.fail(f);
      return f.exit;
    }
    const { account: a, drift } = account.value;
    const c = counts.status === 'fulfilled' ? counts.value : null;
    if (counts.status === 'rejected')
      ctx.out.message(`Counts not available: ${describeError(counts.reason)}`, 'yellow');
    if (ctx.run.format === 'json') {
      await ctx.out.data(
        json({
          email: a.email,
          credits: a.credits,
          lines_count: a.lines_count,
          server: {
            hostname: a.server_information.hostname,
            mag_portal_url: a.server_information.mag_portal_url,
          },
          counts: c,
          ...(c ? { statusGroups: statusGroups(c) } : {}),
          drift: driftRecord(drift),
        }),
      );
      return EXIT.done;
    }
    const n = (v: number | null | undefined) => (v === null || v === undefined ? 'unknown' : countText(v));
    await ctx.out.data(
      pairsText(ctx.out, [
        ['Email', a.email],
        ['Credits', creditsText(a.credits)],
        ...[driftPair(drift)].filter((p) => p !== null),
        ['Lines', countText(a.lines_count)],
        ...(c
          ? ([
              // Groups that add up to the lines; then the count by date, which crosses them.
              ...statusGroups(c).groups.map(
                (g) =>
                  [g.label[0]!.toUpperCase() + g.label.slice(1), n(g.count), g.tone] as [
                    string,
                    string,
                    Tint?,
                  ],
              ),
              ['Past expiry (any state)', c.expired === null ? 'could not be counted' : n(c.expired)],
              ...(statusGroups(c).disjoint ? [] : ([['Note', statusGroups(c).note]] as [string, string][])),
              ['Premium', n(c.premium)],
              ['Trial', n(c.trial)],
            ] as [string, string, Tint?][])
          : []),
        ['Server', a.server_information.hostname],
        ['Portal (MAG)', a.server_information.mag_portal_url],
      ]),
    );
    return EXIT.done;
  });
}

const PACKAGE_FIELDS = [
  'id',
  'package_name',
  'duration',
  'is_trial',
  'credits_cost',
  'extra_connection_credits_cost',
  'min_balance',
] as const;

export function packagesCommand(ctx: Ctx): Promise<number> {
  const type = ctx.run.values.type ?? 'all';
  if (!['all', 'premium', 'trial'].includes(String(type))) {
    ctx.out.fail({
      code: 'usage',
      message: `--type takes all, premium or trial, not "${type}"`,
      path: ['type'],
      exit: EXIT.usage,
    });
    return Promise.resolve(EXIT.usage);
  }
  return withServices(ctx, async (sv) => {
    let read: Awaited<ReturnType<typeof sv.client.packages>>;
    try {
      read = await sv.client.packages();
    } catch (err) {
      const f = failureOf(err);
      ctx.out.fail(f);
      return f.exit;
    }
    if (read.skipped.length) ctx.out.message(skippedText('package', read.skipped), 'yellow');
    const rows = read.packages.filter((p) => type === 'all' || p.is_trial === (type === 'trial'));
    const records = rows.map((p) => Object.fromEntries(PACKAGE_FIELDS.map((f) => [f, p[f]])) as Row);
    if (ctx.run.format === 'json') await ctx.out.data(json({ packages: records }));
    else if (ctx.run.format === 'csv') await ctx.out.data(csvText(records, PACKAGE_FIELDS));
    else await ctx.out.data(tableText<Package>(ctx.out, PACKAGE_COLUMNS, rows, ctx.now()));
    return EXIT.done;
  });
}

export function bouquetsCommand(ctx: Ctx): Promise<number> {
  return withServices(ctx, async (sv) => {
    let read: Awaited<ReturnType<typeof sv.client.bouquets>>;
    try {
      read = await sv.client.bouquets();
    } catch (err) {
      const f = failureOf(err);
      ctx.out.fail(f);
      return f.exit;
    }
    if (read.skipped.length) ctx.out.message(skippedText('bouquet', read.skipped), 'yellow');
    const { channels, movies } = read;
    if (ctx.run.format === 'json') {
      await ctx.out.data(json({ channels, movies }));
      return EXIT.done;
    }
    const rows: Row[] = [
      ...channels.map((b) => ({ kind: 'channels', id: b.id, label: b.label })),
      ...movies.map((b) => ({ kind: 'movies', id: b.id, label: b.label })),
    ];
    const fields = ['kind', 'id', 'label'];
    await ctx.out.data(
      ctx.run.format === 'csv' ? csvText(rows, fields) : tableText(ctx.out, fieldColumns(fields), rows, 0),
    );
    return EXIT.done;
  });
}

const FIX_WORDS: Record<Fix, (who: string) => string> = {
  unsuspend: (who) => `linedesk unsuspend ${who}`,
  extend: (who) => `linedesk extend ${who}`,
  newLine: () => 'linedesk create (a new line replaces it)',
};

const diagnosisRecord = (d: Diagnosis) => ({ works: d.works, why: d.why, fixes: d.fixes });

/** The links of `linedesk line --json`: each a URL or why not; the password only with --show-password. */
const linksRecord = (links: Links, line: { username: string; password: string }, show: boolean) => ({
  host: links.host,
  m3u: linkRecord(links.m3u, show),
  epg: linkRecord(links.epg, show),
  portal: linkRecord(links.portal, show),
  xtream: {
    server: linkRecord(links.server, show),
    username: line.username,
    ...(show ? { password: line.password } : {}),
  },
});

export function lineCommand(ctx: Ctx): Promise<number> {
  const wanted = ctx.run.args[0]!;
  return withServices(ctx, async (sv) => {
    // The account gives the links' host when the line has none, and the portal; a line is still
    // shown without it (its links say why they are missing).
    const account = sv.client.me().catch(() => null);
    let got = await sv.lookupOne(wanted);
    // No username or id answers: the one line whose note matches (a customer's name, a phone), as `/`
    // finds it; several are listed, never guessed.
    if ('failure' in got && got.failure.code === 'line_not_found') {
      // A noted line the lookup did not settle (not reached, or not readable) may be the one meant: it
      // is said, never passed over.
      const noted = await linesByNote(sv, wanted);
      const byNote = noted.lines;
      const far = noted.notLookedUp + noted.unreadable + noted.unidentified;
      const farText = notesUnsettledText(noted);
      if (byNote.length === 1 && !far) got = { line: byNote[0]! };
      else if (byNote.length)
        got = {
          failure: {
            code: 'line_ambiguous',
            message: `No username or id is "${wanted.trim()}"; the notes of ${byNote.length + far} lines match it: ${namesText(byNote.map((l) => l.username))}${farText ? ` (and ${farText})` : ''}`,
            path: null,
            exit: EXIT.failed,
          },
        };
      // Not proven absent: the line meant may be the noted one the lookup did not settle.
      else if (far)
        got = {
          failure: { ...got.failure, code: 'line_unsettled', message: `${got.failure.message}; ${farText}` },
        };
    }
    if ('failure' in got) {
      ctx.out.fail(got.failure);
      return got.failure.exit;
    }
    const { line } = got;
    const now = ctx.now();
    const dx = diagnose(line, now);
    const show = ctx.run.values['show-password'] === true;
    const rec = lineRecord(line, now);
    if (!show) delete rec.password;
    const links = buildLinks(line, await account, sv.links);
    if (ctx.run.format === 'json') {
      await ctx.out.data(
        json({ line: rec, diagnosis: diagnosisRecord(dx), links: linksRecord(links, line, show) }),
      );
      return EXIT.done;
    }
    const fixes = dx.fixes.map((f) => FIX_WORDS[f](line.username)).join('; ');
    const notInList = '(not in list results)';
    const status = statusOf(line, now);
    await ctx.out.data(
      pairsText(ctx.out, [
        [
          'Diagnosis',
          `${dx.why}${fixes ? `  →  ${fixes}` : ''}`,
          dx.works === true ? 'green' : dx.works === false ? 'red' : undefined,
        ],
        ['Username', line.username],
        ['Password', show ? line.password : '(hidden: --show-password prints it)'],
        ['Label', line.label || '—'],
        ['Status', status],
        ['Type', line.is_trial ? 'trial' : 'premium'],
        ['Connections', String(line.connections)],
        ['Expires', `${absoluteText(line.exp_date)}  (${expiryText(line.exp_date, now)})`],
        ['Period start', `${absoluteText(line.start_date)}  (${relativeText(line.start_date, now)})`],
        ['Created', `${absoluteText(line.created_at)}  (${relativeText(line.created_at, now)})`],
        ['MAC address', notInList],
        ['Parental code', notInList],
        ['Server', line.hostname ?? '—'],
        // As the detail screen: the links (or why there are none), then the line's id.
        ...(['m3u', 'epg', 'server', 'portal'] as const).map((k): [string, string, Tint?] => [
          LINK_NAMES[k],
          linkText(links[k], show),
          links[k].ok ? undefined : 'yellow',
        ]),
        ['Line id', line.id],
      ]),
    );
    return EXIT.done;
  });
}
