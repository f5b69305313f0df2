import { mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLog } from '../../src/app/log';

describe('the log file', () => {
  it('appends whole lines (0600), two writers on one file interleaving by line, never throwing', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ld-log-')), 'sub', 'linedesk.log');
    const a = createLog(file);
    const b = createLog(file);
    a.write('one');
    b.write('two');
    a.error('context', new Error('boom'));
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines.map((l) => l.replace(/^\S+ /, ''))[0]).toBe('one');
    expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\dT\S+Z two$/);
    expect(lines[2]).toMatch(/ context: Error: boom$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // A directory where the file should be: said by `writable`, never thrown.
    const dir = join(mkdtempSync(join(tmpdir(), 'ld-log-')), 'linedesk.log');
    mkdirSync(dir);
    const c = createLog(dir);
    expect(() => c.write('x')).not.toThrow();
    expect(c.writable).toBe(false);
  });
});
