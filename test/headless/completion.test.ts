/** The bash completion run by bash: what it offers after each kind of option. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { LINE_FIELD_NAMES } from '../../src/headless/spec';
import { headless } from '../helpers/headless';

describe('bash completion', () => {
  it('--fields offers field names (after a comma too), a free value offers nothing, a flag offers flags', async () => {
    const script = (await headless(['completion', 'bash'])).stdout;
    const offer = (...words: string[]) => {
      const r = spawnSync(
        'bash',
        [
          '-c',
          `${script}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _linedesk; printf '%s\\n' "\${COMPREPLY[@]}"`,
        ],
        { encoding: 'utf8' },
      );
      return r.stdout.split('\n').filter(Boolean);
    };
    expect(offer('linedesk', 'lines', '--fields', '')).toEqual([...LINE_FIELD_NAMES]);
    expect(offer('linedesk', 'lines', '--fields', 'user')).toEqual(['username']);
    expect(offer('linedesk', 'lines', '--fields', 'id,exp')).toEqual(['id,exp_date']);
    expect(offer('linedesk', 'lines', '--search', '')).toEqual([]);
    expect(offer('linedesk', 'lines', '--status', 'exp')).toEqual(['expiring', 'expired']);
    expect(offer('linedesk', 'lines', '--a')).toEqual(['--all']);
  });
});
