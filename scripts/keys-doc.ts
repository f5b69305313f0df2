// npm run docs:keys — rewrites the README's key table from the keymap.
import { replaceSection } from '../bench/lib';
import { keysMarkdown } from '../src/commands/keys-doc';

replaceSection('README.md', 'keys', keysMarkdown());
