import { describe, expect, it } from 'vitest';
import { isRenewal } from '../../src/domain/renewals';
import { loadTemplates } from '../../src/domain/templates';
import type { LineNote, Notes } from '../../src/services/notes';
import { selectRenewalsPlan } from '../../src/store/renewals-slice';
import { loaded } from '../../src/store/types';
import { selectDialog } from '../../src/store/view-stack';
import { renderApp } from '../helpers/app';

const DAY = 86_400_000;
/** Terminal controls a message must never carry (newlines and tabs are the template's own). */
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

type App = Awaited<ReturnType<typeof renderApp>>;

/** Opens the picker on the line under the browser's cursor and selects the template named `name`. */
async function pickerOn(app: App, name: string) {
  await app.press('line.copy');
  await app.waitFrame((f) => f.includes('Copy to the clipboard'));
  await app.press('copy.message');
  await app.waitFrame((f) => f.includes('Customer message for') && f.includes('Preview'));
  const at = app.store.getState().templates.findIndex((t) => t.name === name);
  expect(at, name).toBeGreaterThanOrEqual(0);
  for (let i = 0; i < at; i++) await app.press('message.down');
  await app.waitFrame((f) => f.includes(`› ${name}`));
}

/** A writeExport that keeps the files in memory. */
function exportsTo() {
  const files = new Map<string, string>();
  const writeExport = (name: string, content: string) => {
    files.set(name, content);
    return `/exports/${name}`;
  };
  const one = (ext: string) => {
    const hits = [...files].filter(([n]) => n.endsWith(ext));
    expect(hits, ext).toHaveLength(1);
    return hits[0]![1];
  };
  return { files, writeExport, one };
}

/** The CSV's records (our own writer quotes every message: each holds a newline). */
function csvRecords(csv: string): string[][] {
  const out: string[][] = [];
  const cell = /("(?:[^"]|"")*"|[^,\r\n]*)(,|\r\n|$)/y;
  let row: string[] = [];
  for (let i = 0; i < csv.length; ) {
    cell.lastIndex = i;
    const m = cell.exec(csv)!;
    const v = m[1]!;
    row.push(v.startsWith('"') ? v.slice(1, -1).replaceAll('""', '"') : v);
    i = cell.lastIndex;
    if (m[2] !== ',') {
      out.push(row);
      row = [];
    }
    if (m[0] === '') break;
  }
  return out;
}

describe('customer messages', () => {
  it('y → message → a template: the copied text is that template filled for the line under the cursor', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => f.includes('of 60'));
    await app.waitFrame(() => loaded(app.store.getState().account) !== undefined);
    const line = loaded(app.store.getState().lines)!.lines[0]!;
    const account = loaded(app.store.getState().account)!;
    await pickerOn(app, 'New line: your details');
    // The preview is the message itself, cut to the frame.
    expect(app.frame()).toContain(`Username: ${line.username}`);
    await app.press('message.pick');
    await app.waitFrame((f) => f.includes('Copied the "New line: your details" message'));
    const exp = new Date(line.exp_date!.ms!).toISOString().slice(0, 10);
    expect(app.copied).toEqual([
      [
        'Hello! Your line is ready.',
        '',
        `Username: ${line.username}`,
        `Password: ${line.password}`,
        `Portal (MAG): ${account.server_information.mag_portal_url}`,
        `Server: ${line.hostname || account.server_information.hostname}`,
        `Expires: ${exp}`,
        '',
        'Enjoy!',
      ].join('\n'),
    ]);
    expect(selectDialog(app.store.getState())).toBeNull();
  });

  it('from the line detail too, with days left counted on the store clock', async () => {
    const now = Date.now();
    const templates = loadTemplates([
      { id: 'days', name: 'Days left', body: '{USERNAME}: {DAYS} ({DAYSTEXT}), {CONNECTIONS} conn.' },
    ]);
    const app = await renderApp({}, { templates, now: () => now });
    await app.waitFrame((f) => f.includes('of 60'));
    const line = loaded(app.store.getState().lines)!.lines.find(
      (l) => l.exp_date?.ms && l.exp_date.ms > now + 2 * DAY,
    )!;
    while (loaded(app.store.getState().lines)!.lines[app.store.getState().cursor]!.id !== line.id)
      await app.press('lines.down');
    await app.press('lines.open');
    await app.waitFrame((f) => f.includes('Password'));
    await app.press('detail.copy');
    await app.waitFrame((f) => f.includes('Copy to the clipboard'));
    await app.press('copy.message');
    await app.waitFrame((f) => f.includes('Customer message for'));
    while (app.store.getState().messages!.cursor < templates.templates.length - 1)
      await app.press('message.down');
    await app.press('message.pick');
    await app.waitFrame((f) => f.includes('Copied'));
    // Calendar days between the two UTC dates (the zone every date is shown in), on the store's clock.
    const days = Math.floor(line.exp_date!.ms! / DAY) - Math.floor(now / DAY);
    expect(app.copied).toEqual([`${line.username}: ${days} (in ${days} days), ${line.connections} conn.`]);
  });

  it('hostile values from the server are sanitized in the copied message', async () => {
    const templates = loadTemplates([
      { id: 'raw', name: 'Raw values', body: '<{USERNAME}|{LABEL}|{PASSWORD}>' },
    ]);
    const app = await renderApp({}, { templates });
    await app.waitFrame((f) => f.includes('of 60'));
    const line = loaded(app.store.getState().lines)!.lines[0]!;
    app.sb.repo.db
      .prepare('UPDATE lines SET label = ?, password = ? WHERE id = ?')
      .run('\u001b]52;c;cm0gLXJmIH4=\u0007TV\u001b[2J\u202Eroom', 'pw\r\n\u009b31m!', line.id);
    await app.press('app.refresh');
    await app.waitFrame((f) => f.includes('cm0gLXJmIH4'));
    await pickerOn(app, 'Raw values');
    await app.press('message.pick');
    await app.waitFrame((f) => f.includes('Copied'));
    const [text] = app.copied;
    expect(text).toMatch(new RegExp(`^<${line.username}\\|.*TV.*room\\|pw.*!>$`));
    expect(text).not.toMatch(CONTROLS);
    expect(text).not.toContain('\n');
  });

  it("the line's note fills CUSTOMER, PHONE and NOTE, cleaned even when the notes file holds hostile text", async () => {
    const hostile: LineNote = {
      name: 'Ana\u001b]52;c;cm0gLXJm\u0007 B',
      phone: '+44 7700 900123',
      text: 'pays cash\nask for\u001b[31m Rui',
      updatedAt: '2026-01-01T00:00:00Z',
    };
    // Not memoryNotes, which cleans what it is given: the message must not rely on that.
    // Every line has the hostile note, through get() and through all() alike.
    const everyLine = new (class extends Map<string, LineNote> {
      override get = () => hostile;
    })();
    const notes: Notes = { get: () => hostile, set() {}, all: () => everyLine, problem: null };
    const templates = loadTemplates([{ id: 'who', name: 'Who', body: '{CUSTOMER}|{PHONE}|{NOTE}' }]);
    const out = exportsTo();
    const app = await renderApp({}, { templates, notes, writeExport: out.writeExport });
    await app.waitFrame((f) => f.includes('of 60'));
    await pickerOn(app, 'Who');
    await app.press('message.pick');
    await app.waitFrame((f) => f.includes('Copied'));
    expect(app.copied).toEqual(['Ana B|+44 7700 900123|pays cash ask for Rui']);
    // The export's phone column comes from the note too.
    await app.press('lines.mark');
    await app.press('lines.marks');
    await app.waitFrame((f) => f.includes('Marked lines: 1'));
    await app.press('messages.export');
    await app.waitFrame((f) => f.includes('Messages for the 1 marked line'));
    for (let i = 0; i < 3; i++) await app.press('message.down');
    await app.press('message.pick');
    await app.waitFrame((f) => f.includes('1 message ("Who"'));
    expect(csvRecords(out.one('.csv'))[1]!.slice(1)).toEqual([
      '+44 7700 900123',
      'Ana B|+44 7700 900123|pays cash ask for Rui',
    ]);
  });

  it('a config template naming an unknown placeholder is refused at load by name; the others still work', async () => {
    const templates = loadTemplates([
      { id: 'reminder', name: 'My reminder', body: 'Hi {USERNAME}, it ends {EXPIRY}' },
      { id: 'promo', name: 'Promo', body: 'Hey {USERNAME}!' },
    ]);
    const logged: string[] = [];
    const app = await renderApp({}, { templates, logError: (ctx, e) => logged.push(`${ctx}: ${String(e)}`) });
    await app.waitFrame((f) => f.includes('error: Template "reminder": unknown placeholder {EXPIRY}'));
    expect(
      logged.some((l) => l.startsWith('templates: Template "reminder": unknown placeholder {EXPIRY}')),
    ).toBe(true);
    const names = app.store.getState().templates.map((t) => t.name);
    // The refused template does not replace the default of its id; the good one follows the defaults.
    expect(names).toEqual(['New line: your details', 'Renewal reminder', 'Renewed: new expiry', 'Promo']);
    const line = loaded(app.store.getState().lines)!.lines[0]!;
    await pickerOn(app, 'Promo');
    await app.press('message.pick');
    await app.waitFrame((f) => f.includes('Copied'));
    expect(app.copied).toEqual([`Hey ${line.username}!`]);
  });

  it('a long message is windowed to the frame in the preview, its overflow counted; the copy is whole', async () => {
    const body = Array.from({ length: 40 }, (_, i) => `row ${i + 1} {USERNAME}`).join('\n');
    const templates = loadTemplates([{ id: 'long', name: 'Long one', body }]);
    const app = await renderApp({}, { templates });
    await app.waitFrame((f) => f.includes('of 60'));
    await pickerOn(app, 'Long one');
    const frame = app.frame();
    expect(frame.split('\n').length).toBeLessThanOrEqual(23);
    expect(frame).toMatch(/… \d+ more lines/);
    expect(frame).not.toContain('row 40 ');
    await app.press('message.pick');
    await app.waitFrame((f) => f.includes('Copied'));
    expect(app.copied[0]!.split('\n')).toHaveLength(40);
  });

  it('export from the marks view: one message per marked line, as CSV and as text; the flash names both files', async () => {
    const out = exportsTo();
    const app = await renderApp({}, { writeExport: out.writeExport });
    await app.waitFrame((f) => f.includes('of 60'));
    for (let i = 0; i < 3; i++) await app.press('lines.mark');
    await app.press('lines.marks');
    await app.waitFrame((f) => f.includes('Marked lines: 3'));
    const marked = [...app.store.getState().marked.values()].map((m) => m.line);
    await app.press('messages.export');
    await app.waitFrame((f) => f.includes('Messages for the 3 marked lines'));
    await app.press('message.down'); // Renewal reminder
    await app.press('message.pick');
    await app.waitFrame((f) => f.includes('3 messages ("Renewal reminder", the 3 marked lines) written to'));
    const flash = app.store.getState().flash!.text;
    const names = [...out.files.keys()];
    for (const n of names) expect(flash).toContain(`/exports/${n}`);
    const records = csvRecords(out.one('.csv'));
    expect(records[0]).toEqual(['username', 'phone', 'message']);
    expect(records.slice(1).map((r) => r[0])).toEqual(marked.map((l) => l.username));
    for (const [i, l] of marked.entries())
      expect(records[i + 1]![2]).toMatch(
        new RegExp(`^Hello! A reminder about your line ${l.username}:\nit expires `),
      );
    const text = out.one('.txt');
    expect(text.match(/^--- .+ ---$/gm)).toEqual(marked.map((l) => `--- ${l.username} ---`));
    expect(text).toContain(records[1]![2]!);
  });

  it('an export that cannot be written says so, never "written"', async () => {
    const writeExport = () => {
      throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    };
    const app = await renderApp({}, { writeExport });
    await app.waitFrame((f) => f.includes('of 60'));
    await app.press('lines.mark');
    await app.press('lines.marks');
    await app.waitFrame((f) => f.includes('Marked lines: 1'));
    await app.press('messages.export');
    await app.waitFrame((f) => f.includes('Messages for the 1 marked line'));
    await app.press('message.pick');
    await app.waitFrame((f) => f.includes('error: Messages not exported: EACCES: permission denied'));
    expect(app.frame()).not.toContain('written to');
  });

  it('export from the renewals view: every renewable line listed, or the marked ones when any (said which)', async () => {
    const out = exportsTo();
    const app = await renderApp({}, { writeExport: out.writeExport });
    await app.waitFrame((f) => f.includes('of 60'));
    await app.press('nav.renewals');
    await app.waitFrame((f) => f.includes('── Expiring within') && f.includes('COST~'));
    const plan = selectRenewalsPlan(app.store.getState())!;
    // Reminders go to lines to renew: not trials, not suspended lines with paid time (an unsuspend).
    const renewable = plan.rows.filter((r) => isRenewal(r.group)).map((r) => r.line.username);
    expect(renewable.length).toBeGreaterThan(1);
    await app.press('messages.export');
    await app.waitFrame((f) => f.includes(`Messages for every renewable line listed (${renewable.length})`));
    await app.press('message.pick');
    await app.waitFrame((f) => f.includes(`${renewable.length} messages ("New line: your details"`));
    expect(
      csvRecords(out.one('.csv'))
        .slice(1)
        .map((r) => r[0]),
    ).toEqual(renewable);
    expect(out.one('.txt').match(/^--- .+ ---$/gm)).toHaveLength(renewable.length);

    // With lines marked, the marked ones.
    out.files.clear();
    await app.press('renewals.mark');
    await app.press('renewals.mark');
    await app.press('messages.export');
    await app.waitFrame((f) => f.includes('Messages for the 2 marked lines'));
    await app.press('message.pick');
    await app.waitFrame((f) => f.includes('2 messages ("New line: your details", the 2 marked lines)'));
    expect(
      csvRecords(out.one('.csv'))
        .slice(1)
        .map((r) => r[0]),
    ).toEqual(renewable.slice(0, 2));

    // y there copies for the line under the cursor (the third, after two marks moved it).
    await pickerOn(app, 'Renewed: new expiry');
    await app.press('message.pick');
    await app.waitFrame((f) => f.includes('Copied'));
    expect(app.copied).toEqual([
      expect.stringMatching(new RegExp(`^Thank you! Your line ${renewable[2]} is renewed`)),
    ]);
  });
});
