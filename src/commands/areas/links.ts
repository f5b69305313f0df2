import type { LinkKind } from '../../domain/links';
import type { AppState } from '../../store/app-store';
import { selectDetailLine, selectLinksOf, selectTargetLine } from '../../store/selectors';
import { c, type Disabled, type Run } from '../command';
import { copyAndSay } from './line';

/** What each link's copy says it copied ("Copied the playlist (M3U) link to …"). */
const WHAT: Record<LinkKind, string> = {
  m3u: 'the playlist (M3U) link',
  epg: 'the guide (EPG) link',
  server: 'the Xtream server, username and password',
  portal: 'the MAG portal address',
};

type LineOf = (s: AppState) => ReturnType<typeof selectTargetLine>;

/** A line's link, or why there is none (no line; no usable host: the link's own reason). */
const linkOf = (s: AppState, kind: LinkKind, lineOf: LineOf): { text: string } | { reason: string } => {
  const line = lineOf(s);
  if (!line) return { reason: 'No line open' };
  const link = selectLinksOf(s, line)[kind];
  if (!link.ok)
    return {
      reason: `No ${WHAT[kind].replace(/^the /, '').replace(/, username and password$/, '')}: ${link.reason}`,
    };
  // The Xtream triple as a player asks for it, one per line (as the credentials copy).
  return { text: kind === 'server' ? `${link.url}\n${line.username}\n${line.password}` : link.url };
};

/** Copies the link; from the copy menu, the menu closes first (as its other items do). */
const copyLink =
  (kind: LinkKind, lineOf: LineOf, menu: boolean): Run =>
  (s, fx) => {
    const got = linkOf(s, kind, lineOf);
    if (menu) s.closeView('copy');
    if ('text' in got) copyAndSay(WHAT[kind], got.text)(s, fx);
    else if (menu) s.notify(got.reason, 'error');
  };

/** Disabled, with the link's reason, while the line has no such link: the detail shows the reason
 *  and no key for it. */
const hasLink =
  (kind: LinkKind, lineOf: LineOf): Disabled =>
  (s) => {
    const got = linkOf(s, kind, lineOf);
    return 'reason' in got ? got.reason : null;
  };

/** The four links with one key each, the same keys on the detail and in the copy menu (`y`). */
const LINKS: ReadonlyArray<readonly [LinkKind, string, string]> = [
  ['m3u', 'm', 'Copy the playlist (M3U) link'],
  ['epg', 'g', 'Copy the guide (EPG) link'],
  ['server', 'X', 'Copy the Xtream server, username and password'],
  ['portal', 'b', 'Copy the MAG portal address'],
];

const linkCommand = <const I extends string>(id: I, scope: 'detail' | 'copy', i: number) => {
  const [kind, key, label] = LINKS[i]!;
  const lineOf: LineOf = scope === 'detail' ? selectDetailLine : selectTargetLine;
  return c(
    id,
    [key],
    scope,
    'Copy',
    label,
    copyLink(kind, lineOf, scope === 'copy'),
    // On the detail the row shows the reason and the key is off; in the menu an item stays listed
    // and says why when the line has no such link.
    scope === 'detail' ? { disabled: hasLink(kind, lineOf) } : { footer: true },
  );
};

/** Connection links of the line on the detail screen, each copied with one key (OSC 52; tmux). */
export const LINK_COMMANDS = [
  linkCommand('link.playlist', 'detail', 0),
  linkCommand('link.guide', 'detail', 1),
  linkCommand('link.xtream', 'detail', 2),
  linkCommand('link.portal', 'detail', 3),
] as const;

/** The same links in the copy menu (`y`, on the browser, the renewals and the detail), same keys. */
export const COPY_LINK_COMMANDS = [
  linkCommand('copy.playlist', 'copy', 0),
  linkCommand('copy.guide', 'copy', 1),
  linkCommand('copy.xtream', 'copy', 2),
  linkCommand('copy.portal', 'copy', 3),
] as const;
