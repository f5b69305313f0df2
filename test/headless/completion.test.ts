/** The bash completion run by bash: what it offers after each kind of option. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LINE_FIELD_NAMES } from '../../src/commands/spec';
import { headless, homeDirs } from '../helpers/headless';

const CLI = new URL('../../src/cli.ts', import.meta.url).pathname;

/** Runs the generated bash script on COMP_WORDS as bash would; `linedesk` is this checkout's CLI. */
async function bashOffer(env: NodeJS.ProcessEnv = {}) {
  const script = (await headless(['completion', 'bash'])).stdout;
  return (...words: string[]) => {
    const r = spawnSync(
      'bash',
      [
        '-c',
        `linedesk() { node --import tsx ${CLI} "$@"; }\n${script}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _linedesk; printf '%s\\n' "\${COMPREPLY[@]}"`,
      ],
      { encoding: 'utf8', env: { ...process.env, ...env } },
    );
    return r.stdout.split('\n').filter(Boolean);
  };
}

describe('bash completion', () => {
  it('--fields offers field names (after a comma too), a free value offers nothing, a flag offers flags', async () => {
    const offer = await bashOffer();
    expect(offer('linedesk', 'lines', '--fields', '')).toEqual([...LINE_FIELD_NAMES]);
    expect(offer('linedesk', 'lines', '--fields', 'user')).toEqual(['username']);
    expect(offer('linedesk', 'lines', '--fields', 'id,exp')).toEqual(['id,exp_date']);
    expect(offer('linedesk', 'lines', '--search', '')).toEqual([]);
    expect(offer('linedesk', 'lines', '--status', 'exp')).toEqual(['expiring', 'expired']);
    expect(offer('linedesk', 'lines', '--a')).toEqual(['--all']);
  });

  it('target flags before the command are skipped; --profile offers the profiles; message offers the config’s templates (issue 24)', async () => {
    const dirs = homeDirs();
    mkdirSync(dirs.LINEDESK_CONFIG_DIR, { recursive: true });
    writeFileSync(
      join(dirs.LINEDESK_CONFIG_DIR, 'config.json'),
      JSON.stringify({
        version: 1,
        defaultProfile: 'shopA',
        profiles: {
          shopA: { baseUrl: 'https://a.example.com', apiKey: 'k-aaaa' },
          shopB: { baseUrl: 'https://b.example.com', apiKey: 'k-bbbb' },
        },
        templates: [{ id: 'recordatorio', name: 'Recordatorio', body: 'Hola {USERNAME}' }],
      }),
      { mode: 0o600 },
    );
    const offer = await bashOffer(dirs);
    expect(offer('linedesk', '--sandbox', 'li')).toEqual(['lines', 'line']);
    expect(offer('linedesk', '--profile', 'shopB', 'lines', '--st')).toEqual(['--status']);
    expect(offer('linedesk', '--read-only', '--base-url', 'https://x', 'lines', '--st')).toEqual([
      '--status',
    ]);
    expect(offer('linedesk', '--profile', '')).toEqual(['shopA', 'shopB']);
    expect(offer('linedesk', 'lines', '--profile', 'shop')).toEqual(['shopA', 'shopB']);
    expect(offer('linedesk', 'message', 'rec')).toEqual(['recordatorio']);
    expect(offer('linedesk', '--sandbox', 'message', 'rem')).toEqual(['reminder']);
  }, 30_000);
});
