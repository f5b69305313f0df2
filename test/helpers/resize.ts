import type { renderApp } from './app';

/** The terminal of a rendered app made `columns` × `rows`, as a real resize says it. */
export function resize(app: Awaited<ReturnType<typeof renderApp>>, columns: number, rows: number) {
  Object.defineProperty(app.ui.stdout, 'columns', { value: columns, configurable: true });
  Object.defineProperty(app.ui.stdout, 'rows', { value: rows, configurable: true });
  app.ui.stdout.emit('resize');
}
