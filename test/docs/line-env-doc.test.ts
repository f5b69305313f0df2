import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LINE_ENV_NAMES } from '../../src/present/line-env';

// A command of yours reads the line from its environment: every variable it gets is documented.
describe('docs/CONFIG.md names every variable a command of yours gets', () => {
  it('each LINEDESK_ variable of a line', () => {
    const doc = readFileSync(new URL('../../docs/CONFIG.md', import.meta.url), 'utf8');
    for (const name of LINE_ENV_NAMES) expect(doc, name).toContain(`\`${name}\``);
    expect(LINE_ENV_NAMES).toContain('LINEDESK_USERNAME');
  });
});
