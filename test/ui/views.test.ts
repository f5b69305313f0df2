/**
 * The views' registrations (ui/views.ts) and the stack agree with the command table: every view has
 * a scope with a title, keys are looked up in the top view's scope, every dialog has a way back
 * (Esc), and the body draws the right views for a stack.
 */

import { describe, expect, it } from 'vitest';
import { lookup } from '../../src/commands/keymap';
import { SCOPE_TITLES } from '../../src/commands/keys-doc';
import { activeScopes } from '../../src/commands/text-takes';
import { DIALOG_IDS, type View, type ViewId } from '../../src/store/types';
import { isDialog } from '../../src/store/view-stack';
import { bodyOf, VIEWS } from '../../src/ui/views';

const viewOf = (id: ViewId): View =>
  id === 'detail' ? { id, line: { id: 'L', username: 'someone' } as never } : ({ id } as View);
const stackOf = (...ids: ViewId[]) => ({
  views: ids.map(viewOf),
  searchOpen: false,
  form: null,
  action: null,
  bulk: null,
});

describe('every view is registered once, with its scope', () => {
  const ids = Object.keys(VIEWS) as ViewId[];

  it('each view id is a scope of the command table, titled for help and docs/KEYS.md', () => {
    for (const id of ids) {
      expect(SCOPE_TITLES[id], id).toBeTruthy();
    }
    expect(ids.filter((id) => isDialog(viewOf(id)))).toEqual([...DIALOG_IDS]);
  });

  it('keys go to the top view: a dialog alone, a screen then everywhere; Esc always leads back', () => {
    for (const id of ids) {
      const s = stackOf(...(id === 'lines' ? ['lines' as const] : (['lines', id] as const)));
      const dialog = isDialog(viewOf(id));
      expect(activeScopes(s), id).toEqual(dialog ? [id] : [id, 'global']);
      const esc = lookup(id, 'escape') ?? lookup('global', 'escape');
      expect(esc, `${id}: no Esc`).toBeDefined();
    }
    expect(activeScopes({ ...stackOf('lines'), searchOpen: true })).toEqual(['search']);
    // The search field is the browser's: a dialog over the browser takes the keys.
    expect(activeScopes({ ...stackOf('lines', 'help'), searchOpen: true })).toEqual(['help']);
  });
});

describe('the body of a stack', () => {
  it('the topmost view that fills the body, with the overlays opened over it drawn under it', () => {
    expect(bodyOf(['lines'])).toEqual({ base: 'lines', overlays: [] });
    expect(bodyOf(['lines', 'find', 'palette'])).toEqual({ base: 'find', overlays: ['palette'] });
    expect(bodyOf(['lines', 'detail', 'copy'])).toEqual({ base: 'detail', overlays: ['copy'] });
    expect(bodyOf(['lines', 'form', 'help'])).toEqual({ base: 'help', overlays: [] });
    expect(bodyOf(['lines', 'detail', 'action'])).toEqual({ base: 'action', overlays: [] });
  });
});
