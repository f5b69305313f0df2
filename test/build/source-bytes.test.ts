/**
 * The built JavaScript holds no character above U+00FF (docs/PERFORMANCE.md, "What holds the
 * bytes"): V8 keeps each module's source for lazy compilation, and one such character anywhere in a
 * chunk has it hold the whole chunk at two bytes a character (the screens' chunk: 1.5 MB instead of
 * 0.75). esbuild escapes strings and identifiers but not a regex literal's characters.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLE, ensureBundle } from '../helpers/bundle';

describe('the bundle', () => {
  it('holds its sources at one byte a character', () => {
    ensureBundle();
    const dist = join(BUNDLE, '..');
    const files = [
      'linedesk.js',
      'app.js',
      ...readdirSync(join(dist, 'chunks')).map((f) => join('chunks', f)),
    ].filter((f) => f.endsWith('.js'));
    const wide = files.flatMap((f) => {
      const text = readFileSync(join(dist, f), 'utf8');
      const at = text.search(/[^\u0000-\u00ff]/u);
      return at < 0 ? [] : [`${f}: …${text.slice(Math.max(0, at - 40), at + 10)}…`];
    });
    expect(wide).toEqual([]);
  });
});
