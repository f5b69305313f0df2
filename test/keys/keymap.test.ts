import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  COMMANDS,
  command,
  commandsIn,
  lookup,
  type Scope,
  visibleCommands,
} from '../../src/commands/keymap';
import { keysMarkdown } from '../../src/commands/keys-doc';

describe('keymap', () => {
  it('every command has a label, a group and at least one key', () => {
    for (const c of COMMANDS) {
      expect(c.label.trim(), c.id).not.toBe('');
      expect(c.group, c.id).toBeTruthy();
      expect(c.keys.length, c.id).toBeGreaterThan(0);
    }
  });

  it('command ids are unique and namespaced', () => {
    const ids = COMMANDS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]+\.[a-zA-Z]+$/);
  });

  it('no key is bound twice in one scope', () => {
    const seen = new Map<string, string>();
    for (const c of COMMANDS) {
      for (const k of c.keys) {
        const slot = `${c.scopes.join('+')}:${k}`;
        expect(seen.get(slot), `${slot} bound to ${seen.get(slot)} and ${c.id}`).toBeUndefined();
        seen.set(slot, c.id);
      }
    }
  });

  it('a screen key never hides a global one by accident (only Esc/q/Enter may be reused)', () => {
    const global = new Set(commandsIn('global').flatMap((c) => c.keys));
    const screens: Scope[] = ['lines', 'detail', 'account', 'packages', 'bouquets'];
    for (const c of COMMANDS.filter(
      (x) => !x.scopes.includes('global') && x.scopes.some((sc) => screens.includes(sc)),
    )) {
      for (const k of c.keys) expect(global.has(k), `${c.id} shadows global ${k}`).toBe(false);
    }
  });

  it('every command carries what it does', () => {
    for (const c of COMMANDS) expect(c.run, c.id).toBeTypeOf('function');
  });

  it("the manual's key tables (docs/KEYS.md) match the keymap (npm run docs rewrites them)", () => {
    const keys = readFileSync(new URL('../../docs/KEYS.md', import.meta.url), 'utf8');
    const section = keys.split('<!-- keys:start -->')[1]?.split('<!-- keys:end -->')[0]?.trim();
    expect(section).toBe(keysMarkdown());
  });

  it('per scope, help and docs/KEYS.md list exactly the commands dispatch runs there; the footer a part of them', () => {
    const scopes = [...new Set(COMMANDS.flatMap((c) => c.scopes))];
    for (const scope of scopes) {
      const listed = new Set(visibleCommands(scope).map((c) => c.id));
      const dispatched = new Set(
        COMMANDS.flatMap((c) => c.keys.map((k) => lookup(scope, k)?.id)).filter((id) => id !== undefined),
      );
      expect([...listed].sort(), scope).toEqual([...dispatched].sort());
      for (const c of visibleCommands(scope).filter((x) => x.footer))
        expect(dispatched.has(c.id), c.id).toBe(true);
    }
    // The line changes the marks view names are its keys.
    for (const id of ['line.extend', 'line.upgrade', 'line.unsuspend', 'line.delete'] as const) {
      expect(lookup('marks', command(id).keys[0]!)?.id).toBe(id);
      expect(lookup('detail', command(id).keys[0]!)?.id).toBe(id);
    }
  });

  it('hints in the screens name keys from the table, never typed by hand', () => {
    const dir = new URL('../../src/ui/', import.meta.url);
    // The welcome screen too: it runs before the store, on the same table (keys/welcome.ts).
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f));
    const handTyped =
      /(?:^|[\s'`(·/])(?:Esc|Enter|Space|Tab|[a-zA-Z]|↑|↓) (?:closes|back|confirms|starts|retries|checks|cancels|exports|copies|resumes|marks|unmarks|picks|opens|shows|quits|switches|goes|choose)\b/;
    for (const f of files) {
      const text = readFileSync(new URL(f, dir), 'utf8');
      for (const [i, line] of text.split('\n').entries())
        if (!line.trim().startsWith('//') && !line.trim().startsWith('/*') && !line.trim().startsWith('*'))
          expect(handTyped.test(line) ? `${f}:${i + 1}: ${line.trim()}` : '').toBe('');
    }
  });
});
