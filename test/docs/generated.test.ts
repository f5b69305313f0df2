/**
 * The generated parts of the docs are what the command registry says today (`npm run docs` rewrites
 * them): the command reference and the palette's commands (docs/COMMANDS.md) and the README's
 * most-used keys. The key tables of docs/KEYS.md are checked beside the keymap (test/keys/keymap.test.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PALETTE } from '../../src/commands/palette';
import {
  commandsMarkdown,
  paletteMarkdown,
  TOP_KEYS,
  topKeysMarkdown,
} from '../../src/commands/reference-doc';
import { COMMAND_NAMES, COMMANDS, TARGET } from '../../src/commands/spec';

const read = (doc: string) => readFileSync(new URL(`../../${doc}`, import.meta.url), 'utf8');
const section = (text: string, name: string) =>
  text.split(`<!-- ${name}:start -->`)[1]?.split(`<!-- ${name}:end -->`)[0]?.trim();

describe('docs generated from the command registry', () => {
  it('docs/COMMANDS.md holds the command reference and the palette commands as the registry makes them', () => {
    const doc = read('docs/COMMANDS.md');
    expect(section(doc, 'commands')).toBe(commandsMarkdown());
    expect(section(doc, 'palette')).toBe(paletteMarkdown());
  });

  it('the reference names every command, its every option and example, and every palette command', () => {
    const ref = commandsMarkdown();
    for (const n of COMMAND_NAMES) {
      expect(ref).toContain(`### linedesk ${n}\n`);
      expect(ref).toContain(`linedesk ${n} ${COMMANDS[n].usage}`);
      for (const o of COMMANDS[n].options) expect(ref, `${n} --${o.name}`).toContain(`--${o.name}`);
      for (const e of COMMANDS[n].examples) expect(ref).toContain(e);
    }
    for (const o of TARGET) expect(ref).toContain(`--${o.name}`);
    const palette = paletteMarkdown();
    for (const c of PALETTE) expect(palette).toContain(`\`:${c.name}`);
  });

  it("the README's most-used keys are the keymap's, a dozen or so", () => {
    expect(section(read('README.md'), 'top-keys')).toBe(topKeysMarkdown());
    expect(TOP_KEYS.length).toBeGreaterThanOrEqual(10);
    expect(TOP_KEYS.length).toBeLessThanOrEqual(15);
  });
});

describe('the README is a front page', () => {
  const readme = read('README.md');

  it('is short, and links the manual, the keys, the commands, the config and the dependencies', () => {
    expect(readme.split('\n').length).toBeLessThan(200);
    for (const doc of ['USAGE', 'KEYS', 'SCRIPTING', 'COMMANDS', 'CONFIG', 'DEPENDENCIES'])
      expect(readme).toContain(`](docs/${doc}.md)`);
  });

  it('shows the generated screenshots and installs three ways', () => {
    for (const shot of ['lines', 'detail', 'extend', 'help'])
      expect(readme).toContain(`](docs/screenshots/${shot}.svg)`);
    expect(readme).toContain('npm run package');
    expect(readme).toMatch(/npm install -g \.\/linedesk-[\d.]+\.tgz/);
    expect(readme).toContain('npm ci && npm start');
  });
});
