import { Box, Text } from 'ink';
import { fitWidth } from '../../domain/format';
import { PROFILE_NAME_RULE } from '../../domain/profile-name';
import { caretOf } from '../../store/text-target';
import { LoadState } from '../components/LoadState';
import { TextField } from '../components/TextField';
import { borderStyle, glyph } from '../glyphs';
import { useApp } from '../store-context';
import { color } from '../theme';

/** `:profile`: every profile with its URL and the last four characters of its key, never more. */
export function ProfilesOverlay({ width }: { readonly width: number }) {
  const list = useApp((s) => s.profileList);
  const current = useApp((s) => s.currentProfile);
  return (
    <Box flexDirection="column" width={width} borderStyle={borderStyle()} borderColor={color('ui.accent')}>
      <Text bold>{' Profiles'}</Text>
      {list.length === 0 && <Text color={color('ui.muted')}> None yet.</Text>}
      {list.map((p) => (
        <Text key={p.name} wrap="truncate">
          {fitWidth(
            `  ${p.name === current ? glyph('mark') : ' '} ${fitWidth(p.name, 16)} ${fitWidth(p.baseUrl, 40)} key ${p.keyTail}${p.isDefault ? '  (default)' : ''}`,
            width - 2,
          )}
        </Text>
      ))}
      <Text color={color('ui.muted')} wrap="truncate">
        {fitWidth(
          '  :profile use NAME (or sandbox) · :profile add · :profile rename OLD NEW · :profile remove NAME',
          width - 2,
        )}
      </Text>
    </Box>
  );
}

/** `:profile add`: name, base URL, API key (masked); checked with GET /v1/me before it is saved. */
export function ProfileAddForm({ width }: { readonly width: number }) {
  const f = useApp((s) => s.profileForm);
  const caret = useApp(caretOf);
  if (!f) return null;
  const row = (field: 'name' | 'baseUrl' | 'apiKey', label: string) => (
    <Box>
      <Text color={f.focus === field ? color('ui.focus') : color('ui.muted')}>
        {fitWidth(`${f.focus === field ? glyph('cursor') : ' '} ${label}`, 12)}
      </Text>
      {f.focus === field ? (
        <TextField value={f[field]} caret={caret} {...(field === 'apiKey' ? { mask: glyph('mask') } : {})} />
      ) : (
        <Text>{field === 'apiKey' ? glyph('mask').repeat(Math.min(24, f.apiKey.length)) : f[field]}</Text>
      )}
    </Box>
  );
  return (
    <Box flexDirection="column" width={width} borderStyle={borderStyle()} borderColor={color('ui.accent')}>
      <Text bold>{' New profile'}</Text>
      {row('name', 'Name')}
      <Text color={f.nameError ? color('tone.error') : color('ui.muted')} wrap="truncate">
        {`             ${f.nameError ? `${glyph('fail')} ${f.nameError}` : PROFILE_NAME_RULE}`}
      </Text>
      {row('baseUrl', 'Base URL')}
      {row('apiKey', 'API key')}
      {f.check.status !== 'idle' && (
        <LoadState
          load={f.check}
          what="the account"
          doing="Checking the account (GET /v1/me)"
          failed={glyph('fail')}
          retries={false}
        />
      )}
    </Box>
  );
}
