import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLog, LOG_CHECK_MS } from '../../src/app/log';

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

describe('the log file after a rotation', () => {
  const setup = () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-log-'));
    let now = Date.UTC(2026, 10, 28);
    const log = createLog(join(dir, 'linedesk.log'), { clock: () => now });
    return { dir, file: join(dir, 'linedesk.log'), log, tick: (ms: number) => (now += ms) };
  };
  const texts = (file: string) =>
    readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => l.replace(/^\S+ /, ''));

  it('renamed away (logrotate): the next lines go to a new file at the log path, 0600', () => {
    const { file, log, tick } = setup();
    log.write('before');
    renameSync(file, `${file}.1`);
    tick(LOG_CHECK_MS);
    log.write('after');
    log.write('and more');
    expect(texts(`${file}.1`)).toEqual(['before']);
    expect(texts(file)).toEqual(['after', 'and more']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(log.writable).toBe(true);
  });

  it('deleted by hand, even with its directory: made again at the log path', () => {
    const { dir, file, log, tick } = setup();
    log.write('before');
    rmSync(dir, { recursive: true });
    tick(LOG_CHECK_MS);
    log.write('after');
    expect(texts(file)).toEqual(['after']);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('the path is looked at once per interval, not per line: a line within it goes to the open file', () => {
    const { file, log, tick } = setup();
    log.write('one');
    renameSync(file, `${file}.1`);
    tick(1);
    log.write('two');
    expect(texts(`${file}.1`)).toEqual(['one', 'two']);
    expect(existsSync(file)).toBe(false);
  });
});
