/**
 * The palette runs the command line's commands with the same arguments, on the screens (against the
 * sandbox over HTTP). A change only opens its dialog: nothing is sent from the palette.
 */
import { describe, expect, it } from 'vitest';
import type { LineListItem } from '../../src/api/contract';
import { command } from '../../src/commands/keymap';
import { RULES } from '../../src/domain/change-rules';
import type { AppStore } from '../../src/store/app-store';
import { selectDetailLine } from '../../src/store/selectors';
import { selectDialog, selectScreen } from '../../src/store/view-stack';
import { NO_FX, storeOnSandbox } from '../helpers/app';
import { until } from '../helpers/wait';

/** `:` then the text then Enter, as the keys do it. */
function palette(store: AppStore, text: string) {
  store.getState().openPalette();
  store.getState().setPaletteInput(text);
  command('palette.run').run(store.getState(), NO_FX);
}

async function started() {
  const env = await storeOnSandbox();
  await env.store.getState().start();
  await Promise.all([env.store.getState().loadAccount(), env.store.getState().loadCatalog()]);
  return env;
}

const premium = async (env: Awaited<ReturnType<typeof started>>, n = 1): Promise<LineListItem[]> =>
  (await env.client.listLines({ limit: 100, type: 'premium' })).lines
    .filter((l) => l.enabled && l.connections < 6)
    .slice(0, n);

describe('the palette takes the command line’s arguments', () => {
  it(':lines --status expiring --sort expiry:desc --search x filters the browser as linedesk lines does', async () => {
    const { store } = await started();
    store.getState().navigate('account');
    palette(store, 'lines --status expiring --sort expiry:desc');
    const s = store.getState();
    expect(s.flash?.tone).not.toBe('error');
    expect(selectScreen(s).id).toBe('lines');
    expect(s.query).toMatchObject({ status: 'expiring', orderBy: 'exp_date', orderType: 'desc' });
    palette(store, 'lines --type trial --search "ab c"');
    expect(store.getState().query).toMatchObject({ status: 'expiring', type: 'trial', search: 'ab c' });
    palette(store, 'lines --status nonsense');
    expect(store.getState().flash).toMatchObject({
      tone: 'error',
      text: expect.stringContaining('--status takes'),
    });
    expect(store.getState().query.status).toBe('expiring');
  });

  it(':line USER opens the detail through the one lookup (case folded, across pages); an unknown one is said', async () => {
    const env = await started();
    const far = (await env.client.listLines({ limit: 100, offset: 40 })).lines[0]!;
    palette(env.store, `line ${far.username.toUpperCase()}`);
    await until(() => selectDetailLine(env.store.getState())?.id === far.id);
    palette(env.store, 'line nobody-by-this-name');
    await until(() => env.store.getState().flash?.text === 'No line answers to "nobody-by-this-name"');
    expect(selectDetailLine(env.store.getState())?.id).toBe(far.id);
  });

  it(':extend --months 3 opens the dialog on the line at 3 months and sends nothing', async () => {
    const env = await started();
    const [line] = await premium(env);
    env.store.getState().openDetail(line!);
    palette(env.store, 'extend --months 3');
    const a = () => env.store.getState().action;
    expect(a()).toMatchObject({ op: 'extend', months: 3, phase: 'review' });
    expect(a()?.line?.id).toBe(line!.id);
    expect(selectDialog(env.store.getState())).toBe('action');
    await until(() => a()?.quote.status === 'ready');
    expect(a()?.phase).toBe('review');
    const after = (await env.client.listLines({ search: line!.username, limit: 10 })).lines.find(
      (l) => l.id === line!.id,
    );
    expect(after?.exp_date).toEqual(line!.exp_date);
    expect(env.store.getState().journalEntries).toEqual([]);
  });

  it(':extend --months 6 with lines marked opens the bulk preview over the marks; :upgrade --connections N too', async () => {
    const env = await started();
    const lines = await premium(env, 2);
    env.store.getState().markLines(lines);
    palette(env.store, 'extend --months 6');
    expect(env.store.getState().bulk).toMatchObject({ phase: 'preview', job: { op: 'extend' } });
    expect(
      env.store
        .getState()
        .bulk?.job.lines.map((l) => l.id)
        .sort(),
    ).toEqual(lines.map((l) => l.id).sort());
    expect(env.store.getState().bulk?.job.months).toBe(6);
    env.store.getState().bulkClose();
    env.store.getState().clearMarks();
    env.store.getState().openDetail(lines[0]!);
    palette(env.store, 'upgrade --connections 6');
    expect(env.store.getState().action).toMatchObject({ op: 'upgrade', connections: 6, phase: 'review' });
  });

  it(':extend on a trial line says what e says, and opens nothing', async () => {
    const env = await started();
    const trial = (await env.client.listLines({ limit: 100, type: 'trial' })).lines[0]!;
    env.store.getState().openDetail(trial);
    expect(command('line.extend').disabled!(env.store.getState())).toBe(RULES.trialExtend);
    palette(env.store, 'extend --months 3');
    expect(env.store.getState().flash).toMatchObject({ tone: 'error', text: RULES.trialExtend });
    expect(env.store.getState().action).toBeNull();
  });

  it(':account, :packages, :journal go where their keys go', async () => {
    const { store } = await started();
    palette(store, 'account');
    expect(selectScreen(store.getState()).id).toBe('account');
    palette(store, 'packages');
    expect(selectScreen(store.getState()).id).toBe('packages');
    palette(store, 'journal');
    expect(selectScreen(store.getState()).id).toBe('journal');
  });

  it(':message TEMPLATE USER copies the template filled for the named line; an unknown template lists them', async () => {
    const env = await started();
    const line = (await env.client.listLines({ limit: 100, offset: 30 })).lines[0]!;
    const copied: string[] = [];
    env.store.getState().openPalette();
    env.store.getState().setPaletteInput(`message reminder ${line.username}`);
    command('palette.run').run(env.store.getState(), {
      copy: async (text) => {
        copied.push(text);
        return { ok: true, via: 'the test' };
      },
    });
    await until(() => copied.length === 1);
    expect(copied[0]).toContain(line.username);
    await until(() => /^Copied the ".+" message for /.test(env.store.getState().flash?.text ?? ''));
    palette(env.store, 'message nosuch');
    expect(env.store.getState().flash?.text).toMatch(/^No template "nosuch": details, reminder, renewed/);
  });
});

describe('a change from the palette works where its key does', () => {
  it(':upgrade on the account screen is refused with where it works; no dialog opens, nothing is quoted', async () => {
    const env = await started();
    env.store.getState().navigate('account');
    palette(env.store, 'upgrade --connections 2');
    const s = env.store.getState();
    expect(selectDialog(s)).toBeNull();
    expect(s.action).toBeNull();
    expect(s.flash).toMatchObject({
      tone: 'error',
      text: expect.stringContaining(':upgrade works where its key does (lines, detail'),
    });
    // Its key is not named on the account screen, where it does nothing.
    expect(s.flash?.text).not.toContain(` ${command('line.upgrade').keys[0]} `);
    // On the lines browser, where `u` works, the same command is not refused for where it is.
    env.store.getState().navigate('lines');
    palette(env.store, 'upgrade --connections 2');
    expect(env.store.getState().flash?.text ?? '').not.toContain(':upgrade works where its key');
  });
});
