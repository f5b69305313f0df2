import { Box, Text, useApp as useInkApp, useInput } from 'ink';
import TextInput from 'ink-text-input';
import { useState } from 'react';
import { typedText } from '../../domain/line-form';
import { color } from '../theme';

export type WelcomeResult =
  | { readonly kind: 'sandbox' }
  | { readonly kind: 'account'; readonly baseUrl: string; readonly apiKey: string }
  | { readonly kind: 'quit' };

export interface WelcomeProps {
  /** Checks the account (GET /v1/me) and saves it; answers an error message, or null when saved. */
  readonly connect: (baseUrl: string, apiKey: string) => Promise<string | null>;
  readonly onDone: (r: WelcomeResult) => void;
}

const CHOICES = [
  'Try the sandbox — a local copy of the service with demo data; nothing real is charged',
  "Connect an account — your service's base URL and an API key",
];

/**
 * First start with nothing configured. Its own small app, before the main one exists (no store,
 * no keymap yet), so it keeps its few fields in local state.
 */
export function WelcomeScreen({ connect, onDone }: WelcomeProps) {
  const { exit } = useInkApp();
  const [mode, setMode] = useState<'choose' | 'connect'>('choose');
  const [choice, setChoice] = useState(0);
  const [field, setField] = useState<'url' | 'key'>('url');
  const [url, setUrl] = useState('');
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const done = (r: WelcomeResult) => {
    onDone(r);
    exit();
  };

  useInput((input, k) => {
    if (k.ctrl && input === 'c') return done({ kind: 'quit' });
    if (checking) return;
    if (mode === 'choose') {
      if (k.upArrow || k.downArrow || input === 'j' || input === 'k') setChoice((c) => 1 - c);
      if (k.return) {
        if (choice === 0) done({ kind: 'sandbox' });
        else setMode('connect');
      }
      if (k.escape || input === 'q') done({ kind: 'quit' });
      return;
    }
    if (k.escape) {
      setMode('choose');
      setError(null);
      return;
    }
    if (k.tab || k.upArrow || k.downArrow) setField((f) => (f === 'url' ? 'key' : 'url'));
    if (k.return) {
      if (field === 'url') return setField('key');
      setChecking(true);
      setError(null);
      void connect(url.trim(), key.trim()).then((err) => {
        setChecking(false);
        // What was typed stays; the message says what went wrong.
        if (err) setError(err);
        else done({ kind: 'account', baseUrl: url.trim(), apiKey: key.trim() });
      });
    }
  });

  if (mode === 'choose') {
    return (
      <Box flexDirection="column" paddingX={1}>
        <Text bold color={color('ui.accent')}>
          Welcome to linedesk
        </Text>
        <Text>Manage streaming-TV subscription lines from the keyboard. Nothing is configured yet.</Text>
        <Text> </Text>
        {CHOICES.map((label, i) => (
          <Text key={label} inverse={choice === i}>{`${choice === i ? '›' : ' '} ${label} `}</Text>
        ))}
        <Text> </Text>
        <Text color={color('ui.muted')}>↑/↓ choose · Enter confirms · q quits</Text>
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
        >{`${field === 'url' ? '›' : ' '} Base URL  `}</Text>
        {field === 'url' ? (
          <TextInput
            value={url}
            onChange={(v) => setUrl(typedText(v))}
            placeholder="https://panel.example.com"
          />
        ) : (
          <Text>{url}</Text>
        )}
      </Box>
      <Box>
        <Text
          color={field === 'key' ? color('ui.focus') : undefined}
        >{`${field === 'key' ? '›' : ' '} API key   `}</Text>
        {field === 'key' ? (
          <TextInput value={key} onChange={(v) => setKey(typedText(v))} mask="•" />
        ) : (
          <Text>{'•'.repeat(Math.min(key.length, 24))}</Text>
        )}
      </Box>
      <Text> </Text>
      {checking && <Text color={color('ui.muted')}>Checking the account (GET /v1/me)…</Text>}
      {error && <Text color={color('tone.error')}>{`✗ ${error}`}</Text>}
      <Text color={color('ui.muted')}>
        Tab switches field · Enter checks and saves as profile "default" · Esc goes back
      </Text>
    </Box>
  );
}
