import type { LineListItem } from '../api/contract';
import { daysUntil, dayText, statusOf } from '../domain/format';
import { type Links, linkValues } from '../domain/links';
import type { LineNote } from '../services/notes';
import type { Target } from '../services/target';

/** What a run knows besides the line: the clock, the line's note, the service, its place in a run over marks. */
interface LineEnvContext {
  readonly nowMs: number;
  readonly note?: LineNote | undefined;
  /** The service (its URL is there for the links to a line, added at `lineEnv`). */
  readonly target?: Pick<Target, 'kind' | 'label' | 'baseUrl'>;
  /** A run over the marks: this line's place (1…count) and how many lines the run has. */
  readonly index?: number;
  readonly count?: number;
  /** The line's connection links (domain/links.ts), as the detail shows them. */
  readonly links?: Links;
}

/** An environment value never holds NUL (the OS would refuse it); everything else is passed as is. */
const value = (v: string) => v.replace(/\0/g, '');

/**
 * The one place a line becomes a command's environment (docs/CONFIG.md lists the names): every field
 * a value of its own, passed as it is, never put in a command line or a shell string; the line's
 * connection links with it (the same as the detail copies, the password in them).
 */
export function lineEnv(line: LineListItem, ctx: LineEnvContext): Record<string, string> {
  const exp = line.exp_date;
  // A link the line has none of is empty.
  const urls = ctx.links ? linkValues(ctx.links) : null;
  const env: Record<string, string> = {
    LINEDESK_ID: line.id,
    LINEDESK_USERNAME: line.username,
    LINEDESK_PASSWORD: line.password,
    LINEDESK_LABEL: line.label,
    LINEDESK_HOSTNAME: line.hostname ?? '',
    LINEDESK_STATUS: statusOf(line, ctx.nowMs),
    LINEDESK_ENABLED: line.enabled ? '1' : '0',
    LINEDESK_TRIAL: line.is_trial ? '1' : '0',
    LINEDESK_CONNECTIONS: String(line.connections),
    LINEDESK_EXP_DATE: exp === null ? '' : exp.ms === null ? exp.raw : dayText(exp),
    LINEDESK_EXP_TS: exp?.ms == null ? '' : String(Math.floor(exp.ms / 1000)),
    LINEDESK_DAYS_LEFT: exp?.ms == null ? '' : String(daysUntil(exp.ms, ctx.nowMs)),
    LINEDESK_NOTE: ctx.note?.text ?? '',
    LINEDESK_NOTE_NAME: ctx.note?.name ?? '',
    LINEDESK_NOTE_PHONE: ctx.note?.phone ?? '',
    LINEDESK_M3U_URL: urls?.m3u ?? '',
    LINEDESK_EPG_URL: urls?.epg ?? '',
    LINEDESK_SERVER_URL: urls?.server ?? '',
    LINEDESK_PORTAL_URL: urls?.portal ?? '',
    LINEDESK_SERVICE: ctx.target?.label ?? '',
    LINEDESK_INDEX: String(ctx.index ?? 1),
    LINEDESK_COUNT: String(ctx.count ?? 1),
  };
  for (const k of Object.keys(env)) env[k] = value(env[k]!);
  return env;
}

/** The names `lineEnv` sets, for the docs' test and for clearing inherited ones. */
export const LINE_ENV_NAMES = Object.keys(
  lineEnv(
    {
      id: '',
      hostname: null,
      username: '',
      password: '',
      label: '',
      enabled: true,
      connections: 1,
      is_trial: false,
      exp_date: null,
      start_date: null,
      created_at: null,
    },
    { nowMs: 0 },
  ),
);
