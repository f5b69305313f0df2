/**
 * `linedesk pending --settle` refused because the line's change is no longer open says why it is: its
 * job ended meanwhile (already settled: the journal has its outcome) or is no longer in the intent log
 * (ended and dropped, or set aside) — never "held by another linedesk", which only a holder makes true.
 * Nothing is settled or written either way.
 */
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import { settleWhile } from '../helpers/unknown-extend';

describe('linedesk pending --settle of a change no longer open', () => {
  it('its job ended meanwhile: said already settled, not "held by another linedesk"', async () => {
    const { out, file, journal } = await settleWhile((f) => {
      // Another linedesk settled it and ended its job (its file kept a while as ended).
      fileIntentLog(join(f, '..')).end(f.slice(f.lastIndexOf('/') + 1, -'.jsonl'.length));
    });
    expect(existsSync(`${file}.settled`)).toBe(true);
    expect(out.code).toBe(1);
    expect(out.stderr).not.toMatch(/held by/);
    expect(out.stderr).toMatch(/already settled/);
    expect(out.stderr).toMatch(/nothing was settled/);
    expect(readFileSync(journal, 'utf8')).not.toMatch(/settled by the user/);
  }, 30_000);

  it('its job no longer in the intent log (set aside): said so, not "held by another linedesk"', async () => {
    const { out, journal } = await settleWhile((f) => renameSync(f, `${f}.damaged-test`));
    expect(out.code).toBe(1);
    expect(out.stderr).not.toMatch(/held by/);
    expect(out.stderr).toMatch(/no longer in the intent log/);
    expect(out.stderr).toMatch(/nothing was settled/);
    expect(readFileSync(journal, 'utf8')).not.toMatch(/settled by the user/);
  }, 30_000);
});
