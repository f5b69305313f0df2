import type { LineListItem } from '../api/contract';
import { sanitize } from '../api/sanitize';
import { counted } from '../domain/format';
import { defaultLinkTemplates, type LinkTemplates, linkValues } from '../domain/links';
import {
  DEFAULT_TEMPLATES,
  fillTemplate,
  type MessageRow,
  type MessageValues,
  messagesCsv,
  messagesText,
  missingValues,
  type Placeholder,
  type Template,
} from '../domain/templates';
import { describeError } from '../services/describe-error';
import type { GetState, SetState, StoreDeps } from './deps';
import { selectLinksOf } from './selectors';
import { loaded } from './types';

/** What the message picker was opened for: one line to copy a message of, or lines to export. */
export type MessagePicker =
  | { readonly mode: 'copy'; readonly line: LineListItem; readonly cursor: number }
  | {
      readonly mode: 'export';
      readonly lines: readonly LineListItem[];
      /** Which lines, in words: "the 3 marked lines", "the 12 renewable lines listed". */
      readonly what: string;
      readonly cursor: number;
    };

export interface MessagesSlice {
  /** The config's templates over the defaults (domain/templates.ts loadTemplates). */
  readonly templates: readonly Template[];
  /** This service's connection-link templates (domain/links.ts linkTemplatesFor; the defaults). */
  readonly linkTemplates: LinkTemplates;
  readonly messages: MessagePicker | null;
  openMessageCopy: (line: LineListItem) => void;
  openMessageExport: (lines: readonly LineListItem[], what: string) => void;
  moveMessageCursor: (delta: number) => void;
  closeMessages: () => void;
  /** The message of `template` for `line`, filled with sanitized values, and the values it lacks. */
  messageFor: (template: Template, line: LineListItem) => { text: string; missing: Placeholder[] };
  /** Writes one message per line of the picker's lines, as CSV and plain text; says where. */
  exportMessages: () => void;
  /** At start: templates the config holds that were refused, named in the flash and the log. */
  sayTemplateErrors: () => void;
}

/** "{PORTAL}, {NOTE}": placeholders as the user writes them. */
export const placeholdersText = (names: readonly string[]) => names.map((n) => `{${n}}`).join(', ');

export function createMessagesSlice(set: SetState, get: GetState, deps: StoreDeps): MessagesSlice {
  const now = deps.now ?? Date.now;
  const values = (line: LineListItem): MessageValues => {
    const account = loaded(get().account);
    const exp = line.exp_date;
    const note = get().lineNotes.get(line.id);
    return {
      username: line.username,
      password: line.password,
      // null: never expires; NaN: a date the server sent that could not be read (said as missing).
      expMs: exp === null ? null : (exp.ms ?? Number.NaN),
      portal: account?.server_information.mag_portal_url ?? null,
      server: line.hostname || account?.server_information.hostname || null,
      label: line.label,
      note: note ? { name: note.name, phone: note.phone, text: note.text } : null,
      connections: line.connections,
      links: linkValues(selectLinksOf(get(), line)),
    };
  };
  const picked = (): Template | undefined => {
    const m = get().messages;
    return m ? get().templates[m.cursor] : undefined;
  };
  return {
    templates: deps.templates?.templates.length ? deps.templates.templates : DEFAULT_TEMPLATES,
    linkTemplates: deps.links ?? defaultLinkTemplates(),
    messages: null,

    openMessageCopy(line) {
      set({ messages: { mode: 'copy', line, cursor: 0 } });
      get().pushView({ id: 'message' });
    },
    openMessageExport(lines, what) {
      set({ messages: { mode: 'export', lines: [...lines], what, cursor: 0 } });
      get().pushView({ id: 'message' });
    },
    moveMessageCursor(delta) {
      const m = get().messages;
      if (!m) return;
      const cursor = Math.max(0, Math.min(get().templates.length - 1, m.cursor + delta));
      if (cursor !== m.cursor) set({ messages: { ...m, cursor } });
    },
    closeMessages() {
      set({ messages: null });
      get().closeView('message');
    },

    messageFor(template, line) {
      const v = values(line);
      return { text: fillTemplate(template, v, now()), missing: missingValues(template, v, now()) };
    },

    exportMessages() {
      const m = get().messages;
      const template = picked();
      if (m?.mode !== 'export' || !template) return;
      get().closeMessages();
      if (!deps.writeExport) return get().notify('Nowhere to export to in this session', 'error');
      const lacking = new Map<Placeholder, number>();
      const rows: MessageRow[] = m.lines.map((line) => {
        const { text, missing } = get().messageFor(template, line);
        for (const p of missing) lacking.set(p, (lacking.get(p) ?? 0) + 1);
        return { username: line.username, phone: get().lineNotes.get(line.id)?.phone ?? '', message: text };
      });
      const name = `messages-${template.id}-${new Date(now()).toISOString().replace(/[:.]/g, '-')}`;
      let files: [string, string];
      try {
        files = [
          deps.writeExport(`${name}.csv`, messagesCsv(rows)),
          deps.writeExport(`${name}.txt`, messagesText(rows)),
        ];
      } catch (err) {
        deps.logError?.('exportMessages', err);
        // A file system error says what went wrong itself ("EACCES: permission denied, open …").
        const why = err instanceof Error ? sanitize(err.message) : describeError(err);
        return get().notify(`Messages not exported: ${why}`, 'error');
      }
      // Every line gets its message; a value a line lacks is said, never left for the customer to find.
      const gaps = [...lacking].map(([p, n]) => `${counted(n, 'line')} without {${p}}`).join(', ');
      get().notify(
        `${counted(rows.length, 'message')} ("${template.name}", ${m.what}) written to ${files[0]} and ${files[1]}${gaps ? `; ${gaps}` : ''}`,
        gaps ? 'warning' : 'success',
      );
    },

    sayTemplateErrors() {
      const errors = deps.templates?.errors ?? [];
      if (!errors.length) return;
      for (const e of errors) deps.logError?.('templates', e);
      const more =
        errors.length > 1 ? ` (and ${counted(errors.length - 1, 'more problem')}, in the log)` : '';
      // The list of known placeholders is in the log and docs/USAGE.md; the flash has one line.
      const first = errors[0]!.replace(/ \(known: [^)]*\)$/, '');
      get().notify(`${first}${more}; the other templates are offered`, 'error');
    },
  };
}
