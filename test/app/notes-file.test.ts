import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileNotes, notesPath } from '../../src/app/notes-file';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ld-notes-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const at = (iso: string) => () => new Date(iso);
const good = { name: 'Ana', phone: '555 0100', text: 'cash', updatedAt: '2025-01-01T00:00:00.000Z' };

describe('notesPath', () => {
  it('a readable slug plus a hash of the exact id, under <dataDir>/notes', () => {
    const p = notesPath('/data', 'profile:work');
    expect(dirname(p)).toBe('/data/notes');
    expect(basename(p)).toMatch(/^profile-work-[0-9a-f]{12}\.json$/);
    // Ids that slug alike stay apart; the same id always gives the same file.
    expect(notesPath('/data', 'profile:Work')).not.toBe(p);
    expect(notesPath('/data', 'profile-work')).not.toBe(p);
    expect(notesPath('/data', 'profile:work')).toBe(p);
    for (const id of ['https://x.example:8443/api/../v1?a=b', '../../etc/passwd', 'sandbox:default', '']) {
      expect(basename(notesPath('/data', id))).toMatch(/^[a-z0-9-]+-[0-9a-f]{12}\.json$/);
      expect(dirname(notesPath('/data', id))).toBe('/data/notes');
    }
  });
});

describe('fileNotes', () => {
  it('a missing file is no notes and no problem, and nothing is written until a change', () => {
    const path = join(root, 'notes', 'n.json');
    const notes = fileNotes(path);
    expect(notes.all().size).toBe(0);
    expect(notes.problem).toBeNull();
    expect(readdirSync(root)).toEqual([]);
  });

  it('round-trips across two instances on the same path, removals included', () => {
    const path = notesPath(root, 'sandbox:default');
    const a = fileNotes(path, at('2025-03-01T10:00:00Z'));
    a.set('1', { name: 'Ana', phone: '+44 20 7946 0958', text: 'pays cash' });
    a.set('2', { name: 'Bo', phone: '', text: '' });
    a.set('2', null);
    const b = fileNotes(path);
    expect(b.problem).toBeNull();
    expect([...b.all()]).toEqual([
      [
        '1',
        { name: 'Ana', phone: '+44 20 7946 0958', text: 'pays cash', updatedAt: '2025-03-01T10:00:00.000Z' },
      ],
    ]);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({
      version: 1,
      notes: { '1': { name: 'Ana' } },
    });
  });

  it('writes mode 0600 in a 0700 directory even under umask 000, leaving no temporary file', () => {
    const path = join(root, 'deep', 'notes', 'n.json');
    const old = process.umask(0o000);
    try {
      fileNotes(path).set('1', { name: 'Ana', phone: '', text: '' });
    } finally {
      process.umask(old);
    }
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
    expect(readdirSync(dirname(path))).toEqual(['n.json']);
  });

  it('modes are set, not inherited: an open notes directory, a leftover temporary file', () => {
    const path = join(root, 'notes', 'n.json');
    mkdirSync(dirname(path), { mode: 0o755 });
    chmodSync(dirname(path), 0o755);
    // A crashed earlier process with this pid left its temporary file, readable by all.
    writeFileSync(`${path}.${process.pid}.tmp`, 'stale', { mode: 0o644 });
    chmodSync(`${path}.${process.pid}.tmp`, 0o644);
    fileNotes(path).set('1', { name: 'Ana', phone: '', text: '' });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
  });

  it('corrupt JSON is set aside with its bytes intact, named in the problem; notes start empty', () => {
    const path = join(root, 'n.json');
    const bytes = Buffer.concat([Buffer.from('{"version":1,"notes":{"1":'), Buffer.from([0xff, 0xfe, 0x00])]);
    writeFileSync(path, bytes);
    const notes = fileNotes(path, at('2025-03-01T10:00:00.123Z'));
    const aside = `${path}.corrupt-2025-03-01T10-00-00-123Z`;
    expect(notes.all().size).toBe(0);
    expect(notes.problem).toContain(aside);
    expect(readFileSync(aside).equals(bytes)).toBe(true);
    // Saving afterwards writes a fresh file and leaves the kept one alone.
    notes.set('1', { name: 'Ana', phone: '', text: '' });
    expect(readFileSync(aside).equals(bytes)).toBe(true);
    expect(fileNotes(path).get('1')?.name).toBe('Ana');
  });

  it('a file of the wrong shape is set aside too, never over an earlier one', () => {
    const path = join(root, 'n.json');
    const now = at('2025-03-01T10:00:00Z');
    const aside = `${path}.corrupt-2025-03-01T10-00-00-000Z`;
    writeFileSync(aside, 'earlier');
    writeFileSync(path, JSON.stringify({ version: 2, notes: [] }));
    const notes = fileNotes(path, now);
    expect(readFileSync(aside, 'utf8')).toBe('earlier');
    expect(readFileSync(`${aside}-1`, 'utf8')).toBe(JSON.stringify({ version: 2, notes: [] }));
    expect(notes.problem).toContain(`${aside}-1`);
  });

  it('a bad entry among good ones: the good are kept, the bad reported, the original copied first', () => {
    const path = join(root, 'n.json');
    const original = JSON.stringify({
      version: 1,
      notes: {
        '1': good,
        '2': { ...good, name: 5 },
        '3': { ...good, updatedAt: 'yesterday' },
        '4': { ...good, name: 'Cy', phone: '' },
        '': good,
      },
    });
    writeFileSync(path, original);
    const notes = fileNotes(path, at('2025-03-01T10:00:00Z'));
    expect([...notes.all().keys()]).toEqual(['1', '4']);
    expect(notes.problem).toMatch(/^3 notes were unreadable/);
    const aside = `${path}.corrupt-2025-03-01T10-00-00-000Z`;
    expect(notes.problem).toContain(aside);
    expect(readFileSync(aside, 'utf8')).toBe(original);
    expect(readFileSync(path, 'utf8')).toBe(original); // untouched until a change
  });

  it('a crash between the temporary write and the rename leaves the old file in use', () => {
    const path = join(root, 'n.json');
    fileNotes(path).set('1', { name: 'Ana', phone: '', text: '' });
    // What a crash leaves: a complete (or torn) temporary file next to the old one.
    writeFileSync(
      `${path}.4242.tmp`,
      JSON.stringify({ version: 1, notes: { '1': { ...good, name: 'New' } } }),
    );
    writeFileSync(`${path}.4243.tmp`, '{"version":1,"no');
    const notes = fileNotes(path);
    expect(notes.problem).toBeNull();
    expect(notes.get('1')?.name).toBe('Ana');
    notes.set('2', { name: 'Bo', phone: '', text: '' });
    expect([...fileNotes(path).all().keys()].sort()).toEqual(['1', '2']);
  });

  it('a write that fails throws, changes nothing in memory and leaves no temporary file', () => {
    const path = join(root, 'n.json');
    const notes = fileNotes(path);
    notes.set('1', { name: 'Ana', phone: '', text: '' });
    // A directory where the file should be: the rename over it fails.
    rmSync(path);
    mkdirSync(path);
    expect(() => notes.set('2', { name: 'Bo', phone: '', text: '' })).toThrow();
    expect(notes.get('2')).toBeUndefined();
    expect(notes.get('1')?.name).toBe('Ana');
    expect(readdirSync(root)).toEqual(['n.json']);
  });
});

describe('a notes file that cannot be read', () => {
  it('is never written over: saves are refused for the session, with the reason', () => {
    const path = join(root, 'notes', 'x.json');
    // A link to itself: reading fails (ELOOP), while a rename over it would succeed and lose it.
    mkdirSync(dirname(path), { recursive: true });
    symlinkSync(path, path);
    const notes = fileNotes(path, at('2025-02-03T04:05:06.000Z'));
    expect(notes.problem).toMatch(/could not be read/);
    expect(() => notes.set('line-1', { name: 'Bo', phone: '', text: '' })).toThrow(/not saved this session/);
    expect(readlinkSync(path)).toBe(path);
    expect(notes.get('line-1')).toBeUndefined();
  });
});
