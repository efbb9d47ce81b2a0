import { Button } from '@blueprintjs/core';

// The back office's one pager under a paged table (bitácora, corporativos, bandeja, dispersiones): the server's
// pages (PAGE_SIZE rows, newest first), moved through with Anterior / Siguiente.

export interface OperatorPagerProps {
  /** The nav's accessible name, e.g. 'Páginas de la bitácora'. */
  label: string;
  page: number;
  count: number;
  /** What the list counts, singular and plural: ['corporativo', 'corporativos']. */
  noun: readonly [one: string, other: string];
  /** The page's size when known: the pager then says 'de N'. */
  pageSize?: number;
  hasPrevious: boolean;
  hasNext: boolean;
  onPage(page: number): void;
}

export function OperatorPager({
  label,
  page,
  count,
  noun,
  pageSize,
  hasPrevious,
  hasNext,
  onPage,
}: OperatorPagerProps) {
  const last = pageSize ? Math.max(1, Math.ceil(count / pageSize)) : null;
  return (
    <nav className="flujo-operator-pager" aria-label={label}>
      <Button text="Anterior" disabled={!hasPrevious} onClick={() => onPage(page - 1)} />
      <span>
        Página {page}
        {last === null ? '' : ` de ${last}`} · {count} {count === 1 ? noun[0] : noun[1]}
      </span>
      <Button text="Siguiente" disabled={!hasNext} onClick={() => onPage(page + 1)} />
    </nav>
  );
}
