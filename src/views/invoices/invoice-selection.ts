import { useEffect, useRef, useState } from 'react';
import type { Invoice } from '../../domain/schemas/invoices';

/** Selection of invoice rows by id, kept by the screen that owns the table (spec §2 'Seleccionar todos'). */
export type InvoiceSelection = ReadonlySet<number>;

export const EMPTY_SELECTION: InvoiceSelection = new Set<number>();

/** True when every loaded row is selected (and there is at least one). */
export function allSelected(selection: InvoiceSelection, ids: readonly number[]): boolean {
  return ids.length > 0 && ids.every((id) => selection.has(id));
}

/**
 * Spec §4: 'Seleccionar todos' toggles between all rows and none: it adds every loaded row (rows selected on
 * pages the list has dropped stay), or clears the whole selection when every loaded row is selected.
 */
export function toggleAll(selection: InvoiceSelection, ids: readonly number[]): InvoiceSelection {
  return allSelected(selection, ids) ? EMPTY_SELECTION : new Set([...selection, ...ids]);
}

/** Adds or removes one row. */
export function toggleOne(selection: InvoiceSelection, id: number): InvoiceSelection {
  const next = new Set(selection);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

/** The rows a bounded list holds, in the server's order, and whether they reach its first and last row. */
export interface LoadedRows {
  ids: readonly number[];
  fromStart: boolean;
  toEnd: boolean;
}

/**
 * Drops the selected ids the server says are gone, and only those: a row that was loaded and is missing now
 * although rows loaded around it (or the list's start and end) still are. The order is fixed, so a row that
 * still exists would sit between them, where every row is loaded. A row missing because its page was dropped
 * (maxPages), or that slid past the first or last page kept, has nothing loaded on that side and stays selected.
 */
export function dropGone(
  selection: InvoiceSelection,
  before: LoadedRows,
  after: LoadedRows,
): InvoiceSelection {
  if (selection.size === 0) return selection;
  const loaded = new Set(after.ids);
  const gone = new Set<number>();
  before.ids.forEach((id, index) => {
    if (!selection.has(id) || loaded.has(id)) return;
    const above = after.fromStart || before.ids.slice(0, index).some((other) => loaded.has(other));
    const below = after.toEnd || before.ids.slice(index + 1).some((other) => loaded.has(other));
    if (above && below) gone.add(id);
  });
  return gone.size === 0 ? selection : new Set([...selection].filter((id) => !gone.has(id)));
}

interface SelectableList {
  rows: readonly Invoice[];
  loading: boolean;
  error: boolean;
  hasEarlier?: boolean;
  hasMore: boolean;
}

/**
 * A list screen's selection. It lasts until the filters change (another list) or the user deselects; when the
 * rows change it loses only the ids `dropGone` proves gone, never those on pages the bounded list dropped.
 */
export function useListSelection(list: SelectableList, filters: unknown) {
  const [selection, setSelection] = useState<InvoiceSelection>(EMPTY_SELECTION);
  const loaded = useRef<LoadedRows | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: other filters are another list, a new selection.
  useEffect(() => {
    setSelection(EMPTY_SELECTION);
    loaded.current = null;
  }, [filters]);
  const { rows, loading, error, hasEarlier = false, hasMore } = list;
  useEffect(() => {
    if (loading || error) return;
    const now = { ids: rows.map((row) => row.id), fromStart: !hasEarlier, toEnd: !hasMore };
    const before = loaded.current;
    loaded.current = now;
    if (before) setSelection((current) => dropGone(current, before, now));
  }, [rows, loading, error, hasEarlier, hasMore]);
  return [selection, setSelection] as const;
}
