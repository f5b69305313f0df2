import { FIELDS } from '../../domain/line-form';
import type { AppState } from '../../store/app-store';
import { c } from '../command';
import { keyNamed, said } from '../hints';

/** ←/→ choose on a choice field (package, connections); in a text field they move the caret. */
const notAChoice = (s: AppState) => {
  const kind = FIELDS.find((f) => f.id === s.form?.focus)?.kind;
  return kind === 'select' || kind === 'number' ? null : 'Not a field with choices';
};

/** In a text field the help key (?) is typed: help is offered on the other fields only. */
const onTextField = (s: AppState) =>
  FIELDS.find((f) => f.id === s.form?.focus)?.kind === 'text'
    ? 'Help opens from the other fields: in a text field its key is typed'
    : null;

/** The new-line form and its bouquet picker. */
export const FORM_COMMANDS = [
  c('form.next', ['tab', 'down'], 'form', 'Input', 'Next field', (s) => s.moveFocus(1), { footer: true }),
  c('form.prev', ['shift+tab', 'up'], 'form', 'Input', 'Previous field', (s) => s.moveFocus(-1)),
  c(
    'form.decrease',
    ['left'],
    'form',
    'Input',
    'Previous choice (package, connections)',
    (s) => s.adjustField(-1),
    { disabled: notAChoice },
  ),
  c(
    'form.increase',
    ['right'],
    'form',
    'Input',
    'Next choice (package, connections)',
    (s) => s.adjustField(1),
    { footer: true, disabled: notAChoice },
  ),
  c('form.toggle', ['space'], 'form', 'Input', 'Toggle enabled; pick bouquets', (s) => s.toggleField()),
  c(
    'form.generate',
    ['ctrl+g'],
    'form',
    'Input',
    'Fill a random valid username or password',
    (s) => s.generateField(),
    {
      footer: true,
      disabled: (s) =>
        s.form?.focus === 'username' || s.form?.focus === 'password'
          ? null
          : 'It fills the username or the password field',
    },
  ),
  c('form.submit', ['enter'], 'form', 'Input', 'Check and show the cost', (s) => s.submitForm(), {
    footer: true,
  }),
  c('form.cancel', ['escape'], 'form', 'Input', 'Close the form', (s) => s.closeForm(), { footer: true }),
  // On a choice field (in a text field ? is typed): help over the form, which Esc comes back to.
  c(
    'form.help',
    ['?'],
    'form',
    'App',
    'Help (on a choice field)',
    (s) => {
      s.pushView({ id: 'help' });
      s.scrollToStart('help');
    },
    { footer: true, disabled: onTextField },
  ),

  // Bouquet picker
  c('picker.down', ['down'], 'picker', 'Input', 'Next bouquet', (s) => s.pickerMove(1)),
  c('picker.up', ['up'], 'picker', 'Input', 'Previous bouquet', (s) => s.pickerMove(-1)),
  c('picker.toggle', ['space'], 'picker', 'Input', 'Choose or drop the bouquet', (s) => s.pickerToggle(), {
    footer: true,
    overText: true,
  }),
  c('picker.tab', ['tab'], 'picker', 'Input', 'Channels / movies', (s) => s.pickerSwitchTab(), {
    footer: true,
  }),
  c('picker.all', ['ctrl+a'], 'picker', 'Input', 'Choose every bouquet shown', (s) => s.pickerSetAll(true), {
    footer: true,
  }),
  c('picker.none', ['ctrl+n'], 'picker', 'Input', 'Drop every bouquet shown', (s) => s.pickerSetAll(false), {
    footer: true,
  }),
  c(
    'picker.same',
    ['ctrl+l'],
    'picker',
    'Input',
    'Same bouquets as a line created earlier (again: older)',
    // Annotated: the hint names this command of the table this table's type is built from.
    (s): void => s.pickerSameAsLine(said(keyNamed(s, 'picker.same'), 'again for an older line')),
    { footer: true },
  ),
  c('picker.done', ['enter'], 'picker', 'Input', 'Done', (s) => s.pickerClose(true), { footer: true }),
  c('picker.cancel', ['escape'], 'picker', 'Input', 'Undo and close', (s) => s.pickerClose(false), {
    footer: true,
  }),
] as const;
