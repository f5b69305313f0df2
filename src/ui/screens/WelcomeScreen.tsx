import { Box, Text, useApp as useInkApp, useInput } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { type CommandId, joined, said } from '../../commands/keymap';
import { typedText } from '../../domain/line-form';
import type { Load } from '../../domain/load';
import { splitBurst } from '../../keys/burst';
import { keyName } from '../../keys/key-name';
import { type PasteHub, pastedLine } from '../../keys/paste';
import { resolveSmallKey } from '../../keys/small';
import { editText, insertText, isEditKey, type TextState } from '../../keys/text-edit';
import { resolveWelcomeKey, type WelcomeAt, welcomeKeyNamed } from '../../keys/welcome';
import { isTooSmall } from '../../present/min-size';
import { menuItem } from '../../present/speech';
import { LoadState } from '../components/LoadState';
import { TableRow } from '../components/SpokenRow';
import { TextField } from '../components/TextField';
import { glyph } from '../glyphs';
import { TooSmallText } from '../layout/TooSmall';
import { color } from '../theme';
import { useTerminalSize } from '../use-terminal-size';

export type WelcomeResult =
  | { readonly kind: 'sandbox' }
  | { readonly kind: 'account'; readonly baseUrl: string; readonly apiKey: string }
  | { readonly kind: 'quit' };

/** What is wrong with the account, and in which field (the focus goes there). */
export interface AccountProblem {
  readonly field: 'url' | 'key';
  readonly message: string;
}

export interface WelcomeProps {
  /** Checks the account (GET /v1/me) and saves it; answers what is wrong and where, or null when saved. */
  readonly connect: (baseUrl: string, apiKey: string) => Promise<AccountProblem | null>;
  readonly onDone: (r: WelcomeResult) => void;
  /** Pastes, already out of the key stream: text for the field in focus, never Enter or Esc. */
  readonly pastes?: PasteHub;
}

interface WelcomeState {
  readonly mode: 'choose' | 'connect';
  readonly choice: number;
  readonly field: 'url' | 'key';
  readonly url: string;
  readonly key: string;
  /** In the focused field. */
  readonly caret: number;
  /** The account checked on Enter: idle until then, and why it failed. */
  readonly check: Load<true>;
  readonly notice: string | null;
}
const START: WelcomeState = {
  mode: 'choose',
  choice: 0,
  field: 'url',
  url: '',
  key: '',
  caret: 0,
  check: { status: 'idle' },
  notice: null,
};

/** A base URL or an API key is never longer than this; a longer paste is cut (and said so). */
const FIELD_MAX = 512;

const CHOICES = [
  'Try the sandbox — a local copy of the service with demo data; nothing real is charged',
  "Connect an account — your service's base URL and an API key",
];

/** Where the welcome's keys are looked up now (keys/welcome.ts). */
const welcomeAt = (st: WelcomeState): WelcomeAt => ({
  scope: st.mode === 'choose' ? 'welcome' : 'connect',
  checking: st.check.status === 'loading',
});

/**
 * The hint line: each key as the table has it and only while it works (`welcomeKeyNamed`), with
 * what it does here; a key that does not work now is left out.
 */
function hintLine(st: WelcomeState): string {
  const at = welcomeAt(st);
  const k = (id: CommandId) => welcomeKeyNamed(at, id);
  const by = ` ${glyph('dot')} `;
  if (at.scope === 'welcome') {
    const [up, down] = [k('welcome.up'), k('welcome.down')];
    return joined(
      [
        said(up && down ? `${up}/${down}` : (up ?? down), 'choose'),
        said(k('welcome.confirm'), 'confirms'),
        said(k('welcome.quit'), 'quits'),
      ],
      by,
    );
  }
  return joined(
    [
      said(k('connect.nextField'), 'switches field'),
      said(k('connect.check'), 'checks and saves as profile "default"'),
      said(k('connect.back'), 'goes back'),
    ],
    by,
  );
}

/**
 * First start with nothing configured. Its own small app, before the main one exists (no store
 * yet), so it keeps its few fields in local state; its keys are the table's (the `welcome` and
 * `connect` scopes, looked up by keys/welcome.ts), as every screen's are.
 */
export function WelcomeScreen({ connect, onDone, pastes }: WelcomeProps) {
  const { exit } = useInkApp();
  // Below the smallest terminal the welcome is one sentence too, and only the quit keys work.
  const { columns, rows } = useTerminalSize();
  const tooSmall = isTooSmall(columns, rows);
  const small = useRef(tooSmall);
  small.current = tooSmall;
  // One state, mirrored in a ref written at once: keys typed ahead (↓ then Enter in one read) and
  // pastes act on what the previous key did, not on the last render's closure.
  const [st, setSt] = useState<WelcomeState>(START);
  const now = useRef(st);
  const put = (patch: Partial<WelcomeState>) => {
    now.current = { ...now.current, ...patch };
    setSt(now.current);
  };
  /** Edits the focused field at its caret. */
  const edit = (change: (t: TextState) => TextState) => {
    const at = now.current;
    const t = change({ value: at[at.field], caret: at.caret });
    put({ [at.field]: t.value, caret: t.caret });
  };
  const putRef = useRef(put);
  const editRef = useRef(edit);
  editRef.current = edit;
  putRef.current = put;
  useEffect(
    () =>
      pastes?.on((text) => {
        const at = now.current;
        if (small.current) return;
        if (at.mode !== 'connect' || at.check.status === 'loading')
          return putRef.current({ notice: 'Paste ignored here: nothing here takes text' });
        const { line, cut } = pastedLine(text, FIELD_MAX - [...at[at.field]].length);
        editRef.current((t) => insertText(t, line));
        putRef.current({
          notice: cut ? `Pasted the first ${[...line].length} characters of the first line` : null,
        });
      }),
    [pastes],
  );
  const done = (r: WelcomeResult) => {
    onDone(r);
    exit();
  };

  /** Enter on the account: on the URL with no key yet, on to the key; else the account is checked. */
  const checkAccount = (at: WelcomeState) => {
    // Enter on the URL goes on to the key, or checks again once a key is there (after a fix).
    if (at.field === 'url' && !at.key.trim()) return put({ field: 'key', caret: at.key.length });
    const [url, key] = [at.url.trim(), at.key.trim()];
    put({ check: { status: 'loading' } });
    void connect(url, key).then((problem) => {
      if (!problem) {
        put({ check: { status: 'idle' } });
        return done({ kind: 'account', baseUrl: url, apiKey: key });
      }
      // What was typed stays; the message says what went wrong, and the focus goes to that field
      // (a corrected URL typed into the masked key field would be lost unseen).
      const field = problem.field;
      put({
        check: { status: 'error', error: problem.message },
        field,
        caret: field === at.field ? now.current.caret : now.current[field].length,
      });
    });
  };

  /** One key by name (`enter`, `tab`, `j`…), acting on what the key before it left. */
  const onKey = (name: string) => {
    const at = now.current;
    // The command the key finds here now (commands/areas/welcome.ts): the text names these keys.
    switch (resolveWelcomeKey(welcomeAt(at), name)?.id) {
      case 'welcome.quit':
      case 'connect.quit':
        return done({ kind: 'quit' });
      case 'welcome.up':
      case 'welcome.down':
        return put({ choice: 1 - at.choice });
      case 'welcome.confirm':
        if (at.choice === 0) done({ kind: 'sandbox' });
        else put({ mode: 'connect', notice: null });
        return;
      case 'connect.back':
        return put({ mode: 'choose', check: { status: 'idle' }, notice: null });
      case 'connect.nextField':
      case 'connect.previousField': {
        const other = at.field === 'url' ? 'key' : 'url';
        return put({ field: other, caret: at[other].length });
      }
      case 'connect.check':
        return checkAccount(at);
    }
    if (at.mode !== 'connect' || at.check.status === 'loading') return;
    if (isEditKey(name)) return edit((t) => editText(t, name));
    if (name === 'space') return edit((t) => insertText(t, ' '));
    if ([...name].length === 1) onText(name);
  };
  const onText = (input: string) => {
    const at = now.current;
    if (at.check.status === 'loading' || at.mode !== 'connect') return;
    const text = typedText(input);
    if (text) edit((t) => insertText(t, text));
  };

  useInput((input, k) => {
    const name = keyName(input, k);
    if (small.current) {
      if (name !== null && resolveSmallKey(name)) done({ kind: 'quit' });
      return;
    }
    if (name !== null) return onKey(name);
    if (k.ctrl || k.meta) return;
    // Keys typed ahead arrive as one string: Tab and Enter in it are keys, the rest is text.
    for (const part of splitBurst(input)) {
      if (part.kind === 'key') onKey(part.name);
      else if (now.current.mode === 'choose') for (const ch of part.text) onKey(ch === ' ' ? 'space' : ch);
      else onText(part.text);
    }
  });

  const { mode, choice, field, url, key, caret, check, notice } = st;
  const hint = hintLine(st);
  if (tooSmall) return <TooSmallText columns={columns} rows={rows} />;
  if (mode === 'choose') {
    return (
      <Box flexDirection="column" paddingX={1}>
        <Text bold color={color('ui.accent')}>
          Welcome to linedesk
        </Text>
        <Text>Manage streaming-TV subscription lines from the keyboard. Nothing is configured yet.</Text>
        <Text> </Text>
        {CHOICES.map((label, i) => (
          <TableRow
            key={label}
            inverse={choice === i}
            isSelected={choice === i}
            say={() => menuItem(i, CHOICES.length, label)}
          >{`${choice === i ? glyph('cursor') : ' '} ${label} `}</TableRow>
        ))}
        <Text> </Text>
        <Text color={color('ui.muted')}>{hint}</Text>
        {notice && <Text color={color('ui.muted')}>{notice}</Text>}
      </Box>
    );
  }
  return (
    <Box flexDirection="column" paddingX={1}>
      <Text bold color={color('ui.accent')}>
        Connect an account
      </Text>
      <Box>
        <Text
          color={field === 'url' ? color('ui.focus') : undefined}
        >{`${field === 'url' ? glyph('cursor') : ' '} Base URL  `}</Text>
        {field === 'url' ? (
          <TextField value={url} caret={caret} placeholder="https://panel.example.com" />
        ) : (
          <Text>{url}</Text>
        )}
      </Box>
      <Box>
        <Text
          color={field === 'key' ? color('ui.focus') : undefined}
        >{`${field === 'key' ? glyph('cursor') : ' '} API key   `}</Text>
        {field === 'key' ? (
          <TextField value={key} caret={caret} mask={glyph('mask')} />
        ) : (
          <Text>{glyph('mask').repeat(Math.min(key.length, 24))}</Text>
        )}
      </Box>
      <Text> </Text>
      {check.status !== 'idle' && (
        <LoadState
          load={check}
          what="the account"
          doing="Checking the account (GET /v1/me)"
          failed={glyph('fail')}
          retries={false}
        />
      )}
      {notice && <Text color={color('ui.muted')}>{notice}</Text>}
      {hint && <Text color={color('ui.muted')}>{hint}</Text>}
    </Box>
  );
}
