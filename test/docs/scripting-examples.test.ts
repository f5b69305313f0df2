/** The docs' scripting examples do what they say (the cron example moved from the README to docs/SCRIPTING.md). */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const DOCS = [
  'README.md',
  ...readdirSync(new URL('docs/', root))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const text = (doc: string) => readFileSync(new URL(doc, root), 'utf8');

describe('scripting examples in the docs', () => {
  it('the cron example chooses the account for every linedesk of its pipe, not only the first', () => {
    expect(text('docs/SCRIPTING.md')).toMatch(/^[\d*]+ [\d*]+ .*linedesk /m);
    let checked = 0;
    for (const doc of DOCS) {
      const cron = text(doc)
        .split('\n')
        .filter((l) => /^[\d*]+ [\d*]+ .*linedesk /.test(l));
      for (const line of cron) {
        checked++;
        // `VAR=x cmd` sets VAR for cmd alone: each linedesk needs --profile, or the line exports it first.
        if (/^[\d* ]+export LINEDESK_PROFILE=/.test(line)) continue;
        const calls = line.split(/(?=\blinedesk )/).slice(1);
        for (const call of calls) expect(call.split('|')[0], `${doc}: ${line}`).toMatch(/--profile \S+/);
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});
