import { describe, expect, it } from 'vitest';
import { parseUserCommands } from '../../src/domain/user-commands';

const ok = { name: 'wa', scope: 'line', program: 'wa-send' };

describe("the config's commands, entry by entry", () => {
  it('a good entry with its defaults', () => {
    const r = parseUserCommands([ok], '');
    expect(r.problems).toEqual([]);
    expect(r.commands).toEqual([
      {
        name: 'wa',
        key: null,
        scope: 'line',
        label: 'Run wa',
        program: 'wa-send',
        args: [],
        confirm: false,
        timeoutMs: 30_000,
      },
    ]);
  });

  it('each bad entry is named by place and name and left out; the good ones stay', () => {
    const r = parseUserCommands(
      [
        ok,
        { ...ok, name: 'Wa Send' },
        { ...ok, name: 'rel', program: 'bin/wa' },
        { ...ok, name: 'argv', args: ['ok', 3] },
        { ...ok, name: 'slow', timeoutSeconds: 601 },
        { ...ok, name: 'where', scope: 'everywhere' },
        { ...ok, name: 'lbl', label: 'two\nlines' },
        { ...ok, name: 'home', program: '~/bin/wa', args: ['$(id)', '; rm -rf /'], confirm: true },
        ok,
        'wa',
      ],
      'config: ',
    );
    expect(r.commands.map((c) => c.name)).toEqual(['wa', 'home']);
    expect(r.commands[1]!.args).toEqual(['$(id)', '; rm -rf /']);
    expect(r.problems).toEqual([
      'config: commands[1] ("Wa Send"): name: lower-case letters, digits, - and _ (up to 32), starting with a letter or digit; left out',
      'config: commands[2] ("rel"): program: a relative path depends on where linedesk was started: give an absolute path or a name on PATH; left out',
      'config: commands[3] ("argv"): args: expected a list of strings; left out',
      'config: commands[4] ("slow"): timeoutSeconds: expected a whole number from 1 to 600; left out',
      'config: commands[5] ("where"): scope: expected "line" or "marks"; left out',
      'config: commands[6] ("lbl"): label: expected one line of text; left out',
      'config: commands[8] ("wa"): a second command of that name; left out',
      'config: commands[9]: expected an object; left out',
    ]);
    expect(parseUserCommands({ wa: ok }, '').problems).toEqual([
      'commands: expected a list; no command of yours is used',
    ]);
  });
});
