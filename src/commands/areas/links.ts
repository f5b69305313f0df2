import type { LinkKind } from '../../domain/links';
import type { AppState } from '../../store/app-store';
import { selectDetailLine, selectLinksOf } from '../../store/selectors';
import { c, type Disabled, type Run } from '../command';
import { copyAndSay } from './line';

/** What each link's copy says it copied ("Copied the playlist (M3U) link to …"). */
const WHAT: Record<LinkKind, string> = {
  m3u: 'the playlist (M3U) link',
  epg: 'the guide (EPG) link',
  server: 'the Xtream server, username and password',
  portal: 'the portal (MAG) address',
};

/** The detail line's link, or why there is none (no line; no usable host: the link's own reason). */
const linkOf = (s: AppState, kind: LinkKind): { text: string } | { reason: string } => {
  const line = selectDetailLine(s);
  if (!line) return { reason: 'No line open' };
  const link = selectLinksOf(s, line)[kind];
  if (!link.ok)
    return {
      reason: `No ${WHAT[kind].replace(/^the /, '').replace(/, username and password$/, '')}: ${link.reason}`,
    };
  // The Xtream triple as a player asks for it, one per line (as the credentials copy).
  return { text: kind === 'server' ? `${link.url}\n${line.username}\n${line.password}` : link.url };
};

const copyLink =
  (kind: LinkKind): Run =>
  (s, fx) => {
    const got = linkOf(s, kind);
    if ('text' in got) copyAndSay(WHAT[kind], got.text)(s, fx);
  };

/** Disabled, with the link's reason, while the line has no such link: the detail shows the reason
 *  and no key for it. */
const hasLink =
  (kind: LinkKind): Disabled =>
  (s) => {
    const got = linkOf(s, kind);
    return 'reason' in got ? got.reason : null;
  };

/** Connection links of the line on the detail screen, each copied with one key (OSC 52; tmux). */
export const LINK_COMMANDS = [
  c('link.playlist', ['m'], 'detail', 'Copy', 'Copy the playlist (M3U) link', copyLink('m3u'), {
    disabled: hasLink('m3u'),
  }),
  c('link.guide', ['g'], 'detail', 'Copy', 'Copy the guide (EPG) link', copyLink('epg'), {
    disabled: hasLink('epg'),
  }),
  c(
    'link.xtream',
    ['X'],
    'detail',
    'Copy',
    'Copy the Xtream server, username and password',
    copyLink('server'),
    { disabled: hasLink('server') },
  ),
  c('link.portal', ['b'], 'detail', 'Copy', 'Copy the set-top box portal (MAG) address', copyLink('portal'), {
    disabled: hasLink('portal'),
  }),
] as const;
