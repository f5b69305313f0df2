import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TEMPLATES,
  fillTemplate,
  loadTemplates,
  type MessageValues,
  messagesCsv,
  messagesText,
  missingValues,
  PLACEHOLDERS,
  parseTemplate,
  type Template,
} from '../../src/domain/templates';

const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const tpl = (body: string, id = 'test'): Template => ({ id, name: 'Test', body });
const base: MessageValues = { username: 'alice', password: 'pw', expMs: NOW + 3 * DAY };
const fill = (body: string, v: Partial<MessageValues> = {}) =>
  fillTemplate(tpl(body), { ...base, ...v }, NOW);
const error = (t: unknown) => {
  const r = parseTemplate(t);
  return r.ok ? null : r.error;
};

describe('fillTemplate', () => {
  it('fills every placeholder', () => {
    const body = PLACEHOLDERS.map((p) => `${p}=<{${p}}>`).join('\n');
    const out = fillTemplate(
      tpl(body),
      {
        username: 'alice',
        password: 's3cret',
        expMs: Date.UTC(2026, 2, 13, 8),
        portal: 'http://portal.example/c/',
        server: 'http://srv.example:8080',
        label: 'Living room',
        note: { name: 'Ali B', phone: '+44 7700 900123', text: 'pays cash' },
        connections: 2,
        links: {
          m3u: 'http://tv.example/get.php?username=alice&password=s3cret',
          epg: 'http://tv.example/xmltv.php?username=alice',
          portal: 'http://portal.example/c/',
        },
      },
      NOW,
    );
    expect(out).toBe(
      [
        'USERNAME=<alice>',
        'PASSWORD=<s3cret>',
        'EXPDATE=<2026-03-13>',
        'DAYS=<3>',
        'DAYSTEXT=<in 3 days>',
        'PORTAL=<http://portal.example/c/>',
        'SERVER=<http://srv.example:8080>',
        'LABEL=<Living room>',
        'NOTE=<pays cash>',
        'CUSTOMER=<Ali B>',
        'PHONE=<+44 7700 900123>',
        'CONNECTIONS=<2>',
        'M3U_URL=<http://tv.example/get.php?username=alice&password=s3cret>',
        'EPG_URL=<http://tv.example/xmltv.php?username=alice>',
        'PORTAL_URL=<http://portal.example/c/>',
      ].join('\n'),
    );
  });

  it('leaves missing values empty, and says "never" for a line without expiry', () => {
    expect(fill('[{PORTAL}|{SERVER}|{LABEL}|{NOTE}|{CUSTOMER}|{PHONE}|{CONNECTIONS}]')).toBe('[||||||]');
    expect(fill('[{NOTE}|{CONNECTIONS}]', { note: null, connections: null })).toBe('[|]');
    expect(
      fill('[{M3U_URL}|{EPG_URL}|{PORTAL_URL}]', { links: { m3u: null, epg: null, portal: null } }),
    ).toBe('[||]');
    expect(
      missingValues(
        tpl('{M3U_URL} {PORTAL_URL}'),
        { ...base, links: { m3u: null, epg: 'x', portal: 'y' } },
        NOW,
      ),
    ).toEqual(['M3U_URL']);
    expect(fill('{EXPDATE}/{DAYS}/{DAYSTEXT}', { expMs: null })).toBe('never//never');
    expect(fill('{EXPDATE}/{DAYS}/{DAYSTEXT}', { expMs: Number.NaN })).toBe('//');
  });

  it('writes {{ and }} as literal braces', () => {
    expect(fill('{{USERNAME}} is {USERNAME}; {{}} {{{USERNAME}}}')).toBe('{USERNAME} is alice; {} {alice}');
  });

  it.each([
    // NOW is 12:00 UTC: days are counted between calendar dates (UTC), as {EXPDATE} is written.
    ['exactly now', 0, '0', 'today'],
    ['1 ms later', 1, '0', 'today'],
    ['11 h later (same date)', 11 * HOUR, '0', 'today'],
    ['12 h later (next date)', 12 * HOUR, '1', 'tomorrow'],
    ['24 h later', DAY, '1', 'tomorrow'],
    ['36 h later', 36 * HOUR, '2', 'in 2 days'],
    ['1 ms ago', -1, '0', 'today'],
    ['12 h ago (same date)', -12 * HOUR, '0', 'today'],
    ['13 h ago (the date before)', -13 * HOUR, '-1', 'yesterday'],
    ['2 days ago', -2 * DAY, '-2', '2 days ago'],
  ])('DAYS and DAYSTEXT when the expiry is %s', (_, delta, days, text) => {
    expect(fill('{DAYS}|{DAYSTEXT}', { expMs: NOW + delta })).toBe(`${days}|${text}`);
  });

  it('writes the expiry date in UTC', () => {
    expect(fill('{EXPDATE}', { expMs: Date.UTC(2026, 11, 31, 23, 59, 59, 999) })).toBe('2026-12-31');
    expect(fill('{EXPDATE}', { expMs: Date.UTC(2027, 0, 1) })).toBe('2027-01-01');
  });

  it('makes hostile values harmless', () => {
    const at = (v: string) => fill('<{LABEL}>', { label: v });
    expect(at('\u001b]52;c;aGk=\u0007')).toBe('<>');
    expect(at('x\u001b]0;title\u001b\\y')).toBe('<xy>');
    expect(at('\u001b[2J')).toBe('<>');
    expect(at('a\u001b(0b\u001bc')).toBe('<ab>');
    expect(at('\u001bP1$qm\u001b\\ok')).toBe('<ok>');
    expect(at('a\nb')).toBe('<a b>');
    expect(at('a\r\nb\u2028c')).toBe('<a b c>');
    expect(at('\u202Eevil\u2066')).toBe('<evil>');
    expect(at('\u009b2J\u0085\u0000')).toBe('< >'); // an 8-bit CSI goes whole, as a 7-bit one does;
    expect(fill('{PASSWORD}\n{NOTE}', { password: 'p\nq', note: { text: 'r\ns' } })).toBe('p q\nr s');
  });

  it('property: values add no ESC, no C1 control, no line break', () => {
    const body = `Hi {CUSTOMER} ({PHONE})\n${PLACEHOLDERS.map((p) => `{${p}}`).join(' ')}\n\n{NOTE}!`;
    const lines = body.split('\n').length;
    const nasty = fc.string({
      unit: fc.constantFrom(
        '\u001b',
        '[',
        ']',
        'P',
        '\\',
        '\u0007',
        '\n',
        '\r',
        '\u009b',
        '\u0085',
        '\u2028',
        'a',
        ';',
      ),
    });
    const text = fc.oneof(fc.string({ unit: 'binary' }), nasty);
    fc.assert(
      fc.property(
        fc.record({ username: text, password: text, portal: text, server: text, label: text }),
        fc.record({ name: text, phone: text, text }),
        (v, note) => {
          const out = fillTemplate(tpl(body), { ...v, expMs: NOW, note }, NOW);
          expect(out).not.toMatch(/[\u001b\u0080-\u009f\r\u2028\u2029]/);
          expect(out.split('\n').length).toBe(lines);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('missingValues', () => {
  it('names each placeholder used whose value is empty, once; a hostile value cleaned to nothing counts', () => {
    const t = tpl('{USERNAME} {CUSTOMER} {PORTAL} {CUSTOMER} {LABEL} {EXPDATE}');
    expect(missingValues(t, { ...base, label: '\u001b]0;x\u0007' }, NOW)).toEqual([
      'CUSTOMER',
      'PORTAL',
      'LABEL',
    ]);
    expect(
      missingValues(t, { ...base, expMs: Number.NaN, label: 'TV', portal: 'p', note: { name: 'A' } }, NOW),
    ).toEqual(['EXPDATE']);
    // A line that never expires has a value: "never".
    expect(missingValues(tpl('{EXPDATE} {DAYSTEXT}'), { ...base, expMs: null }, NOW)).toEqual([]);
  });
});

describe('parseTemplate', () => {
  it('accepts the defaults and the brief shape', () => {
    for (const t of DEFAULT_TEMPLATES) expect(parseTemplate(t)).toEqual({ ok: true, template: t });
    expect(DEFAULT_TEMPLATES.map((t) => t.id)).toEqual(['details', 'reminder', 'renewed']);
    expect(parseTemplate({ id: 'a', name: 'A', body: 'x\r\ny', extra: 1 })).toEqual({
      ok: true,
      template: { id: 'a', name: 'A', body: 'x\ny' },
    });
  });

  it('refuses an unknown placeholder by name', () => {
    expect(error({ id: 'reminder', name: 'R', body: 'Expires {EXPIRY}' })).toBe(
      `Template "reminder": unknown placeholder {EXPIRY} (known: ${PLACEHOLDERS.join(', ')})`,
    );
    expect(error(tpl('{username}'))).toMatch(
      /unknown placeholder \{username\} \(known: USERNAME, PASSWORD, /,
    );
  });

  it('refuses an unclosed { and a stray }', () => {
    expect(error(tpl('Hi {USERNAME'))).toBe(
      'Template "test": unclosed { at line 1, column 4 (write {{ for a literal brace)',
    );
    expect(error(tpl('ok\n{USERNAME\n}'))).toMatch(/unclosed \{ at line 2, column 1/);
    expect(error(tpl('ok :}'))).toMatch(/stray \} at line 1, column 5/);
  });

  it('refuses a bad shape', () => {
    expect(error(null)).toMatch(/^Template: expected an object/);
    expect(error({ id: 'Bad Id', name: 'x', body: 'x' })).toMatch(/^Template: id must be/);
    expect(error({ id: 'a'.repeat(33), name: 'x', body: 'x' })).toMatch(/id must be/);
    expect(error({ id: 'a', name: '', body: 'x' })).toMatch(/^Template "a": name must be 1–60/);
    expect(error({ id: 'a', name: 'n'.repeat(61), body: 'x' })).toMatch(/name must be 1–60/);
    expect(error({ id: 'a', name: 'n', body: '' })).toMatch(/body must be 1–2000/);
    expect(error({ id: 'a', name: 'n', body: 'b'.repeat(2001) })).toMatch(/body must be 1–2000/);
    expect(error({ id: 'a', name: 'n', body: 3 })).toMatch(/body must be text/);
    expect(error({ id: 'a', name: 'n', body: 'x\u001b[2Jy' })).toMatch(/body holds a control character/);
    expect(error({ id: 'a', name: 'n\nm', body: 'x' })).toMatch(/name holds a control character/);
    expect(error({ id: 'a', name: 'n'.repeat(60), body: 'b'.repeat(2000) })).toBeNull();
  });
});

describe('loadTemplates', () => {
  it('gives the defaults when the config has none', () => {
    expect(loadTemplates(undefined)).toEqual({ templates: [...DEFAULT_TEMPLATES], errors: [] });
    const r = loadTemplates({ id: 'x' });
    expect(r.templates).toEqual([...DEFAULT_TEMPLATES]);
    expect(r.errors).toEqual(['Templates: expected a list; using the defaults']);
  });

  it('keeps the good ones, refuses the bad one by one, overrides defaults by id', () => {
    const mine = { id: 'reminder', name: 'My reminder', body: 'Renew {USERNAME} by {EXPDATE}' };
    const extra = { id: 'promo', name: 'Promo', body: 'Hi {CUSTOMER}' };
    const r = loadTemplates([
      { id: 'renewed', name: 'Broken', body: '{NEWEXP}' },
      mine,
      'nonsense',
      extra,
      { ...extra, name: 'Again' },
    ]);
    expect(r.templates.map((t) => [t.id, t.name])).toEqual([
      ['details', 'New line: your details'],
      ['reminder', 'My reminder'],
      ['renewed', 'Renewed: new expiry'],
      ['promo', 'Promo'],
    ]);
    expect(r.errors).toEqual([
      expect.stringMatching(/^Template "renewed": unknown placeholder \{NEWEXP\}/),
      'Template 3: expected an object with id, name and body',
      'Template "promo": the id is used twice; the first one is kept',
    ]);
  });
});

describe('exports', () => {
  const rows = [
    { username: 'alice', phone: '+44 7700 900123', message: 'Hi, "Al"\nline 2' },
    { username: '=cmd|/C calc', phone: '-1+1', message: '@SUM(A1)' },
    { username: 'tab', phone: '+cmd', message: '\tx' },
  ];

  it('writes RFC 4180 CSV with a formula guard', () => {
    expect(messagesCsv(rows)).toBe(
      [
        'username,phone,message',
        'alice,+44 7700 900123,"Hi, ""Al""\nline 2"',
        "'=cmd|/C calc,'-1+1,'@SUM(A1)",
        "tab,'+cmd,'\tx",
        '',
      ].join('\r\n'),
    );
    expect(messagesCsv([])).toBe('username,phone,message\r\n');
    expect(messagesCsv([{ username: '\rx', phone: '', message: '=1,2' }])).toBe(
      `username,phone,message\r\n"'\rx",,"'=1,2"\r\n`,
    );
  });

  it('writes plain text with a line naming each user', () => {
    expect(
      messagesText([
        { username: 'alice', phone: '', message: 'One\ntwo\n' },
        { username: 'bo\nb', phone: '', message: 'Three' },
      ]),
    ).toBe('--- alice ---\nOne\ntwo\n\n--- bo b ---\nThree\n');
    expect(messagesText([])).toBe('');
  });
});
