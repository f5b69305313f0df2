import { loaded } from '../../src/domain/load';
/**
 * The view stack (issue 25): Esc returns to where the user was, the view below as it was left; a
 * slice closes its own dialog, never another's; a screen opened behind a dialog stays behind it.
 */

import { describe, expect, it, vi } from 'vitest';
import { findAcrossApi } from '../../src/app/find-across';
import type { UiEffects } from '../../src/commands/effects';
import { type CommandId, command } from '../../src/commands/keymap';
import { runPalette } from '../../src/commands/palette';
import type { AppStore } from '../../src/store/app-store';
import { selectFoundLine } from '../../src/store/find-slice';
import type { View } from '../../src/store/types';
import {
  navigated,
  popped,
  pushed,
  ROOT,
  selectDialog,
  selectScreen,
  viewIds,
  without,
} from '../../src/store/view-stack';
import { NO_FX, storeOnSandbox } from '../helpers/app';
import { findEnv, rename } from '../helpers/find-env';

const effects: UiEffects = { copy: async () => ({ ok: true, via: 'nowhere' }) };
/** Runs a command as its key would (tests name commands, never keys). */
const run = (store: AppStore, id: CommandId) => {
  const s = store.getState();
  expect(command(id).disabled?.(s) ?? null, id).toBeNull();
  command(id).run(s, effects);
};
const ids = (stack: readonly View[]) => stack.map((v) => v.id);
const line = { id: 'L1', username: 'someone' } as Extract<View, { id: 'detail' }>['line'];

describe('the stack itself', () => {
  it('a slice closes its own dialog by id: the dialog on top of it stays', () => {
    // The palette is open when the resume dialog of an earlier run comes up over it.
    const stack = pushed(pushed(navigated(ROOT, 'find'), { id: 'palette' }), { id: 'resume' });
    expect(ids(stack)).toEqual(['lines', 'find', 'palette', 'resume']);
    expect(ids(without(stack, 'palette'))).toEqual(['lines', 'find', 'resume']);
    expect(ids(without(stack, 'note'))).toEqual(ids(stack));
    expect(ids(without(ROOT, 'lines'))).toEqual(['lines']);
  });

  it('a screen opened while a dialog is up goes behind the dialog; navigation keeps the dialog', () => {
    const resume = pushed(ROOT, { id: 'resume' });
    expect(ids(pushed(resume, { id: 'detail', line }))).toEqual(['lines', 'detail', 'resume']);
    expect(ids(navigated(pushed(resume, { id: 'detail', line }), 'find'))).toEqual([
      'lines',
      'find',
      'resume',
    ]);
    expect(selectScreen({ views: pushed(resume, { id: 'detail', line }) }).id).toBe('detail');
  });

  it('a view is never stacked twice: a screen already open is gone back to; the same dialog stays one', () => {
    const stack = pushed(navigated(ROOT, 'find'), { id: 'detail', line });
    expect(ids(pushed(stack, { id: 'find' }))).toEqual(['lines', 'find']);
    expect(ids(pushed(stack, { id: 'lines' }))).toEqual(['lines']);
    const help = pushed(stack, { id: 'help' });
    expect(pushed(help, { id: 'help' })).toBe(help);
    expect(ids(popped(popped(popped(help))))).toEqual(['lines']);
    expect(ids(popped(ROOT))).toEqual(['lines']);
  });
});

describe('Esc returns to where you were, as it was', () => {
  it('Esc from a screen opened over the browser: the browser with its cursor where it was', async () => {
    const { store } = await storeOnSandbox({ lines: 40 });
    await store.getState().start();
    await vi.waitFor(() => expect(loaded(store.getState().lines)?.lines.length).toBe(10));
    for (let i = 0; i < 3; i++) run(store, 'lines.down');
    expect(store.getState().cursor).toBe(3);
    run(store, 'nav.account');
    expect(viewIds(store.getState())).toEqual(['lines', 'account']);
    run(store, 'app.back');
    expect(viewIds(store.getState())).toEqual(['lines']);
    expect(store.getState().cursor).toBe(3);
    // And from a line opened from there.
    run(store, 'lines.open');
    expect(selectScreen(store.getState()).id).toBe('detail');
    run(store, 'app.backOrQuit');
    expect(viewIds(store.getState())).toEqual(['lines']);
    expect(store.getState().cursor).toBe(3);
  });

  it('help opened over the form returns to the form, what was typed kept', async () => {
    const { store } = await storeOnSandbox();
    await store.getState().start();
    run(store, 'line.create');
    await vi.waitFor(() => expect(store.getState().form?.values.packageId).not.toBeNull());
    store.getState().setFormText('viewstack01', 'username');
    store.getState().setFormText('Room 12', 'label');
    const typed = store.getState().form;
    expect(typed?.focus).toBe('package'); // a choice field: ? is help, not typed
    run(store, 'form.help');
    expect(viewIds(store.getState())).toEqual(['lines', 'form', 'help']);
    run(store, 'help.close');
    expect(viewIds(store.getState())).toEqual(['lines', 'form']);
    expect(store.getState().form).toEqual(typed);
  });

  it('the bouquet picker opened from the form returns to the form with its values (and the pick)', async () => {
    const { store } = await storeOnSandbox();
    await store.getState().start();
    run(store, 'line.create');
    await vi.waitFor(() => expect(store.getState().form?.values.packageId).not.toBeNull());
    store.getState().setFormText('viewstack02', 'username');
    while (store.getState().form?.focus !== 'bouquets') run(store, 'form.next');
    run(store, 'form.toggle');
    await vi.waitFor(() => expect(store.getState().bouquets.status).toBe('ready'));
    expect(selectDialog(store.getState())).toBe('picker');
    run(store, 'picker.toggle');
    run(store, 'picker.done');
    expect(viewIds(store.getState())).toEqual(['lines', 'form']);
    expect(store.getState().form?.values.username).toBe('viewstack02');
    expect(store.getState().form?.values.bouquets).toHaveLength(1);
    // Undone and closed: back to the form, the pick as it was before the picker opened.
    run(store, 'form.toggle');
    run(store, 'picker.toggle');
    run(store, 'picker.cancel');
    expect(viewIds(store.getState())).toEqual(['lines', 'form']);
    expect(store.getState().form?.values.bouquets).toHaveLength(1);
  });

  it('the confirm dialog opened from the form: Esc returns to the form; once created, both go', async () => {
    const { store } = await storeOnSandbox();
    await store.getState().start();
    run(store, 'line.trial');
    await vi.waitFor(() => expect(store.getState().form?.values.packageId).not.toBeNull());
    store.getState().setFormText('viewstackprobe03', 'username');
    run(store, 'form.submit');
    expect(viewIds(store.getState())).toEqual(['lines', 'form', 'action']);
    run(store, 'action.cancel');
    expect(viewIds(store.getState())).toEqual(['lines', 'form']);
    expect(store.getState().form?.values.username).toBe('viewstackprobe03');
    run(store, 'form.submit');
    await vi.waitFor(() => expect(store.getState().action?.quote.status).toBe('ready'));
    await store.getState().confirmAction();
    expect(store.getState().action?.phase).toBe('done');
    run(store, 'action.cancel');
    expect(viewIds(store.getState())).toEqual(['lines']);
    expect(store.getState().form).toBeNull();
  });

  it('a line opened from the find results returns to the results, the same row selected', async () => {
    const env = await findEnv();
    rename(env.alpha, 71, 'ticket-user-alpha2');
    const { store } = await storeOnSandbox(
      {},
      {
        findAcross: findAcrossApi({
          userAgent: 'linedesk-test',
          current: {
            profile: 'alpha',
            label: 'alpha',
            baseUrl: env.alpha.sb.baseUrl,
            client: env.alpha.client,
          },
          configPath: env.configPath,
        }),
      },
      env.alpha,
    );
    await store.getState().findAcross('ticket-user');
    run(store, 'find.down');
    const row = selectFoundLine(store.getState());
    expect(row?.line.username).toBe('ticket-user-alpha2');
    run(store, 'find.open');
    expect(viewIds(store.getState())).toEqual(['lines', 'find', 'detail']);
    run(store, 'app.back');
    expect(viewIds(store.getState())).toEqual(['lines', 'find']);
    expect(selectFoundLine(store.getState())).toEqual(row);
  });
});

describe('a dialog that closes itself leaves the others', () => {
  it('the resume dialog opened over the palette stays when the palette runs and closes', async () => {
    const { store } = await storeOnSandbox();
    await store.getState().start();
    run(store, 'app.palette');
    store.getState().pushView({ id: 'resume' });
    store.getState().setPaletteInput('lines');
    runPalette(store.getState(), NO_FX);
    expect(viewIds(store.getState())).toEqual(['lines', 'resume']);
  });
});
