/** The README's scripting examples do what they say. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README scripting examples', () => {
  it('the cron example chooses the account for every linedesk of its pipe, not only the first', () => {
    const cron = README.split('\n').filter((l) => /^[\d*]+ [\d*]+ .*linedesk /.test(l));
    expect(cron.length).toBeGreaterThan(0);
    for (const line of cron) {
      // `VAR=x cmd` sets VAR for cmd alone: each linedesk needs --profile, or the line exports it first.
      if (/^[\d* ]+export LINEDESK_PROFILE=/.test(line)) continue;
      const calls = line.split(/(?=\blinedesk )/).slice(1);
      for (const call of calls) expect(call.split('|')[0]).toMatch(/--profile \S+/);
    }
  });
});
