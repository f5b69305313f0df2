import { Box, Text } from 'ink';
import { joined, said } from '../../commands/keymap';
import { credits, creditsText, fitWidth } from '../../domain/format';
import { type FieldDef, fieldsFor } from '../../domain/line-form';
import { caretOf } from '../../store/text-target';
import { loaded } from '../../store/types';
import { TextField } from '../components/TextField';
import { glyph } from '../glyphs';
import { useApp } from '../store-context';
import { color } from '../theme';
import { useKeysNamed } from '../use-keys-named';

/** New line / new trial: every field with its rule beside it and its message when it breaks one. */
export function LineForm({ width }: { readonly width: number }) {
  const form = useApp((s) => s.form);
  const caret = useApp(caretOf);
  const packages = useApp((s) => s.packages);
  // The keys its text names, only while they work (not under the help overlay over the form).
  const k = useKeysNamed([
    'form.submit',
    'form.toggle',
    'form.decrease',
    'form.increase',
    'form.generate',
  ] as const);
  if (!form) return null;
  const pk = (loaded(packages) ?? []).filter((p) => p.is_trial === form.trial);
  const pkg = pk.find((p) => p.id === form.values.packageId);
  const v = form.values;
  const show = (id: string): string => {
    switch (id) {
      case 'package':
        return pkg
          ? `‹ ${pkg.package_name} › ${pkg.is_trial ? `${pkg.duration} h` : `${pkg.duration} mo`}, ${credits(pkg.credits_cost)}${pkg.is_trial ? '' : ` + ${creditsText(pkg.extra_connection_credits_cost)} per extra connection`}`
          : packages.status === 'error'
            ? `packages unavailable: ${packages.error}`
            : 'loading packages…';
      case 'connections':
        return `‹ ${v.connections} ›`;
      case 'enabled':
        return v.enabled ? '[x] enabled' : '[ ] disabled';
      case 'bouquets':
        return v.bouquets.length ? `${v.bouquets.length} chosen (${v.bouquets.join(', ')})` : 'none';
      default:
        return String((v as unknown as Record<string, string>)[id] ?? '');
    }
  };
  return (
    <Box flexDirection="column" width={width}>
      <Text bold color={color('ui.accent')}>
        {` ${joined([form.trial ? 'New trial line' : 'New line', said(k['form.submit'], 'shows the cost before anything is charged')], ' — ')}`}
      </Text>
      {fieldsFor(form.trial).map((f) => {
        const focused = form.focus === f.id;
        const error = form.errors[f.id];
        return (
          <Box key={f.id} flexDirection="column">
            <Box>
              <Text color={focused ? color('ui.focus') : color('ui.muted')}>
                {fitWidth(`${focused ? glyph('cursor') : ' '} ${f.label}`, 16)}
              </Text>
              {focused && f.kind === 'text' ? (
                <TextField
                  value={show(f.id)}
                  caret={caret}
                  placeholder={f.id === 'username' || f.id === 'password' ? '(random)' : ''}
                />
              ) : (
                <Text wrap="truncate">
                  {fitWidth(show(f.id) || (f.kind === 'text' ? '—' : ''), Math.max(10, width - 17))}
                </Text>
              )}
            </Box>
            {(focused || error) && (
              <Text color={error ? color('tone.error') : color('ui.muted')} wrap="truncate">
                {fitWidth(`                 ${error ? `${glyph('fail')} ${error}` : fieldHint(f, k)}`, width)}
              </Text>
            )}
          </Box>
        );
      })}
    </Box>
  );
}

/**
 * A field's hint with the keys that act on it as they are now (a key moved in the config moves
 * here too, a key that works not now is left out): the domain's words say what, the table says which
 * key.
 */
function fieldHint(f: FieldDef, k: FormKeys): string {
  if (f.kind === 'bouquets' || f.kind === 'toggle') return said(k['form.toggle'], f.hint) ?? f.hint;
  if (f.kind === 'select' || f.kind === 'number')
    return k['form.decrease'] && k['form.increase']
      ? `${k['form.decrease']}/${k['form.increase']} ${f.hint}`
      : f.hint;
  if (f.id === 'username' || f.id === 'password')
    return joined([f.hint, said(k['form.generate'], 'fills one')], '; ');
  return f.hint;
}

type FormKeys = Readonly<
  Record<'form.submit' | 'form.toggle' | 'form.decrease' | 'form.increase' | 'form.generate', string | null>
>;
