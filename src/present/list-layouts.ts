/**
 * The lists drawn with headings (and notes) between their rows, laid out as items one row each: the
 * one layout the screen draws (a window over the items, ui/screens/) and the page keys move over
 * (store/find-slice.ts, store/renewals-slice.ts: a page is of rows drawn, headings included).
 */
import { counted, credits } from '../domain/format';
import { loaded } from '../domain/load';
import type { RenewalsPlan } from '../domain/renewals';
import type { FindGroup } from '../services/find-lines';

/** An item of the find screen: a profile's heading, its note, or its `index`-th match overall. */
export type FindItem =
  | { readonly kind: 'heading'; readonly group: FindGroup }
  | { readonly kind: 'note'; readonly text: string }
  | { readonly kind: 'row'; readonly index: number };

/** An item of the renewals view: a group's heading, or its `index`-th line overall. */
export type RenewalsItem =
  | { readonly kind: 'heading'; readonly text: string }
  | { readonly kind: 'row'; readonly index: number };

/** The find screen: each group's heading, its note, then its rows. */
export function findItemsOf(groups: readonly FindGroup[]): FindItem[] {
  const out: FindItem[] = [];
  let index = 0;
  for (const group of groups) {
    out.push({ kind: 'heading', group });
    const data = loaded(group.load);
    if (!data) continue;
    if (data.note) out.push({ kind: 'note', text: data.note });
    for (let i = 0; i < data.lines.length; i++) out.push({ kind: 'row', index: index++ });
  }
  return out;
}

/** The renewals view: a heading per group that has lines (its count and, for renewals, its
 *  subtotal), then its lines. */
export function renewalsItemsOf(plan: RenewalsPlan): RenewalsItem[] {
  const out: RenewalsItem[] = [];
  let index = 0;
  for (const g of plan.groups) {
    if (!g.count) continue;
    const subtotal = g.group === 'trial' || g.group === 'unsuspend' ? '' : ` · ~${credits(g.subtotal)}`;
    out.push({ kind: 'heading', text: `── ${g.label}: ${counted(g.count, 'line')}${subtotal}` });
    for (let i = 0; i < g.count; i++) out.push({ kind: 'row', index: index++ });
  }
  return out;
}

/** Where each row is among the items (the cursor's stops), in order. */
export const rowStops = (items: readonly { readonly kind: string }[]): number[] =>
  items.flatMap((it, i) => (it.kind === 'row' ? [i] : []));
