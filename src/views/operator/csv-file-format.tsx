import { AnchorButton, HTMLTable } from '@blueprintjs/core';
import type { ReactNode } from 'react';

export interface CsvFileFormatProps<Column extends string> {
  /** The section's id (its heading's) and title. */
  id: string;
  title: string;
  /** What the file is and its limits, above the columns. */
  intro: ReactNode;
  /** The table's accessible name. */
  label: string;
  columns: readonly Column[];
  meanings: Readonly<Record<Column, string>>;
  examples: Readonly<Record<Column, string>>;
  /** The sample file, written by the domain's own writer, and the name it downloads as. */
  sampleCsv: string;
  sampleName: string;
}

/**
 * A CSV an operator loads, documented where it is loaded: its columns with their meaning and an example each,
 * and a sample file (a data: link, no request). The bank's result file (Dispersiones) and its statement
 * (Cobranza) both read this way; their columns and samples come from src/domain.
 */
export function CsvFileFormat<Column extends string>({
  id,
  title,
  intro,
  label,
  columns,
  meanings,
  examples,
  sampleCsv,
  sampleName,
}: CsvFileFormatProps<Column>) {
  return (
    <section aria-labelledby={id} className="dispersiones-formato">
      <h2 id={id}>{title}</h2>
      <p>{intro}</p>
      <HTMLTable compact className="dispersiones-formato__tabla" aria-label={label}>
        <thead>
          <tr>
            <th scope="col">Columna</th>
            <th scope="col">Contenido</th>
            <th scope="col">Ejemplo</th>
          </tr>
        </thead>
        <tbody>
          {columns.map((column) => (
            <tr key={column}>
              <th scope="row">
                <code>{column}</code>
              </th>
              <td>{meanings[column]}</td>
              <td>
                <span className="dispersiones-formato__etiqueta">Ejemplo: </span>
                {examples[column]}
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <AnchorButton
        icon="download"
        href={`data:text/csv;charset=utf-8,${encodeURIComponent(sampleCsv)}`}
        download={sampleName}
      >
        Descargar archivo de ejemplo
      </AnchorButton>
    </section>
  );
}
