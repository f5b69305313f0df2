/**
 * Completion from the one spec: the palette's Tab and the shell's scripts offer the same values for
 * the same option of the same command, since both read them from commands/spec.ts.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { paletteCandidates } from '../../src/commands/palette';
import { COMMAND_NAMES, COMMANDS } from '../../src/commands/spec';
import { headless } from '../helpers/headless';

const CLI = new URL('../../src/cli.ts', import.meta.url).pathname;
const VALUES = { profiles: ['shopA', 'shopB'], templates: ['details', 'reminder', 'renewed'] };

describe('palette completion', () => {
  it('options anywhere after the name, then their values; script-only options are not offered', () => {
    expect(paletteCandidates('lines --st', VALUES)).toEqual(['--status']);
    expect(paletteCandidates('lines --status exp', VALUES)).toEqual(['expiring', 'expired']);
    expect(paletteCandidates('lines --type trial --s', VALUES)).toEqual(['--status', '--search', '--sort']);
    expect(paletteCandidates('lines --sort ex', VALUES)).toEqual(['expiry', 'expiry:desc']);
    expect(paletteCandidates('renewals --', VALUES)).toEqual(['--within', '--expired']);
    expect(paletteCandidates('extend --', VALUES)).toEqual(['--months']);
    expect(paletteCandidates('extend --months ', VALUES)).toEqual(['1', '3', '6', '12']);
    expect(paletteCandidates('upgrade --connections ', VALUES)).toEqual(['1', '2', '3', '4', '5', '6']);
  });

  it("the config's templates and the profiles", () => {
    expect(paletteCandidates('message rem', VALUES)).toEqual(['reminder']);
    expect(paletteCandidates('message ', { ...VALUES, templates: ['recordatorio'] })).toEqual([
      'recordatorio',
    ]);
    expect(paletteCandidates('profile use sh', VALUES)).toEqual(['shopA', 'shopB']);
  });
});

describe('the shell and the palette offer the same values (bash)', () => {
  it('for every option of every command both have', async () => {
    const script = (await headless(['completion', 'bash'])).stdout;
    const offer = (...words: string[]) =>
      spawnSync(
        'bash',
        [
          '-c',
          `linedesk() { node --import tsx ${CLI} "$@"; }\n${script}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _linedesk; printf '%s\\n' "\${COMPREPLY[@]}"`,
        ],
        { encoding: 'utf8' },
      )
        .stdout.split('\n')
        .filter(Boolean);
    let compared = 0;
    for (const name of COMMAND_NAMES.filter((n) => COMMANDS[n].palette))
      for (const o of COMMANDS[name].options.filter((x) => x.type === 'string' && !x.cliOnly)) {
        const palette = paletteCandidates(`${name} --${o.name} `, VALUES);
        // The palette offers a value's other names too (none of these options has any).
        expect(offer('linedesk', name, `--${o.name}`, ''), `${name} --${o.name}`).toEqual(palette);
        compared++;
      }
    expect(compared).toBeGreaterThan(5);
    expect(offer('linedesk', 'message', 'rem')).toEqual(paletteCandidates('message rem', VALUES));
  }, 30_000);
});
