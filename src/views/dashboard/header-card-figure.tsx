import type { ReactNode } from 'react';

/** One labelled figure of a dashboard header card (the summary and the factoring balance). */
export function HeaderCardFigure({
  icon,
  label,
  value,
}: {
  icon: ReactNode;
  label: string;
  value: ReactNode;
}) {
  return (
    <div className="flujo-header-card-figure">
      <dt>
        <span className="flujo-header-card-icon" aria-hidden="true">
          {icon}
        </span>
        {label}
      </dt>
      <dd>{value}</dd>
    </div>
  );
}
