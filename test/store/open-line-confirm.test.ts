/**
 * The dialog asks the change service's rules with the open lines too: a line whose earlier change
 * turned out open while its extend dialog was up is refused at Enter, with the rule's words, and
 * nothing is sent.
 */
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/domain/change-rules';
import { loaded } from '../../src/domain/load';
import { confirmBlocker } from '../../src/store/action-slice';
import { storeOnSandbox } from '../helpers/app';
import { books } from '../helpers/sandbox';
import { until } from '../helpers/wait';

describe('a change dialog on a line that became open meanwhile', () => {
  it('refuses Enter with the open-line rule; nothing is charged', async () => {
    const { store, sb } = await storeOnSandbox({ lines: 5 });
    await store.getState().start();
    await until(() => store.getState().packages.status === 'ready');
    const line = loaded(store.getState().lines)!.lines[0]!;
    store.getState().openAction({ op: 'extend', line });
    await until(() => store.getState().action?.quote.status === 'ready');
    const before = books(sb).ledger.length;
    // Another job's change of this line is found open (a background check, another linedesk).
    store.setState({ unsettled: new Map([[line.id, 'job-elsewhere']]) });
    const s = store.getState();
    expect(confirmBlocker(s.action!, loaded(s.account)?.credits, s)).toBe(RULES.unknownOutcome);
    await store.getState().confirmAction();
    expect(store.getState().action?.phase).toBe('review');
    expect(store.getState().flash?.text).toBe(RULES.unknownOutcome);
    expect(books(sb).ledger.length).toBe(before);
  });
});
