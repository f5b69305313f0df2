// npm run docs — rewrites the generated parts of the manual from the command registry: the key
// tables (docs/KEYS.md), the command reference (docs/COMMANDS.md) and the README's most-used keys.
// A test fails when any of them differs from what this would write.
import { replaceSection } from '../bench/lib';
import { keysMarkdown } from '../src/commands/keys-doc';
import { commandsMarkdown, paletteMarkdown, topKeysMarkdown } from '../src/commands/reference-doc';

replaceSection('docs/KEYS.md', 'keys', keysMarkdown());
replaceSection('docs/COMMANDS.md', 'commands', commandsMarkdown());
replaceSection('docs/COMMANDS.md', 'palette', paletteMarkdown());
replaceSection('README.md', 'top-keys', topKeysMarkdown());
