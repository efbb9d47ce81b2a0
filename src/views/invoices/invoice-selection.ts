/** Selection of invoice rows by id, kept by the screen that owns the table (spec §2 'Seleccionar todos'). */
export type InvoiceSelection = ReadonlySet<number>;

export const EMPTY_SELECTION: InvoiceSelection = new Set<number>();

/** True when every loaded row is selected (and there is at least one). */
export function allSelected(selection: InvoiceSelection, ids: readonly number[]): boolean {
  return ids.length > 0 && ids.every((id) => selection.has(id));
}

/** Spec §4: 'Seleccionar todos' toggles between all loaded rows and none. */
export function toggleAll(selection: InvoiceSelection, ids: readonly number[]): InvoiceSelection {
  return allSelected(selection, ids) ? EMPTY_SELECTION : new Set(ids);
}

/** Adds or removes one row. */
export function toggleOne(selection: InvoiceSelection, id: number): InvoiceSelection {
  const next = new Set(selection);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

/** Drops ids no longer listed (after a filter change or a row leaving the list). */
export function keepListed(selection: InvoiceSelection, ids: readonly number[]): InvoiceSelection {
  const listed = new Set(ids);
  const kept = [...selection].filter((id) => listed.has(id));
  return kept.length === selection.size ? selection : new Set(kept);
}
