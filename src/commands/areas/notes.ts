import { selectTargetLine } from '../../store/selectors';
import { c, FOOTER, needsLine } from '../command';

/** Notes per line, kept on this machine (the API has no field for them): the form, the column. */
export const NOTES_COMMANDS = [
  // Local only, so read-only mode (which guards the service) leaves them alone.
  c(
    'note.edit',
    ['n'],
    ['lines', 'detail'],
    'Line',
    'Edit the note (kept on this machine)',
    (s) => {
      const line = selectTargetLine(s);
      if (line) s.openNoteForm(line);
    },
    { footer: FOOTER.most, disabled: needsLine(selectTargetLine) },
  ),
  c('note.column', ['N'], 'lines', 'Find', 'Show or hide the Note column', (s) =>
    // A chosen column set (a view's, the picker's) holds the Note column like any other.
    s.columns ? s.toggleColumn('note') : s.toggleNoteColumn(),
  ),

  // Note form
  c('note.next', ['tab', 'down'], 'note', 'Input', 'Next field', (s) => s.moveNoteFocus(1), { footer: true }),
  c('note.prev', ['shift+tab', 'up'], 'note', 'Input', 'Previous field', (s) => s.moveNoteFocus(-1)),
  c('note.save', ['enter'], 'note', 'Input', 'Save (all blank: remove the note)', (s) => s.saveNoteForm(), {
    footer: true,
  }),
  c('note.cancel', ['escape'], 'note', 'Input', 'Cancel', (s) => s.closeNoteForm(), { footer: true }),
] as const;
