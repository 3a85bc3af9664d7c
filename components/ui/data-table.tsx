import type { ReactNode } from 'react';
import { cx } from './cx';

export interface DataColumn<Row> {
  /** On a phone it also labels the value in each card. */
  header: string;
  cell: (row: Row) => ReactNode;
  numeric?: boolean;
  className?: string;
}

// Cards below 640 px, so a phone never scrolls sideways. The explicit ARIA roles keep it a table for screen readers,
// which browsers stop doing once CSS changes a table's `display`.
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  testId,
  className,
}: {
  caption: string;
  columns: DataColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string;
  testId?: string;
  className?: string;
}) {
  return (
    <div className={cx('sm:overflow-x-auto', className)}>
      <table role="table" className="block w-full text-left text-sm sm:table" data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead role="rowgroup" className="hidden sm:table-header-group">
          <tr role="row" className="border-b border-slate-200">
            {columns.map((column) => (
              <th key={column.header} role="columnheader" scope="col" className={cx('py-2 pr-3 font-medium last:pr-0', column.numeric && 'text-right')}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup" className="block space-y-2 sm:table-row-group">
          {rows.map((row, index) => (
            <tr
              key={rowKey(row, index)}
              role="row"
              className="block rounded-lg border border-slate-200 bg-white px-3 py-2 sm:table-row sm:rounded-none sm:border-0 sm:border-b sm:border-slate-100 sm:bg-transparent sm:p-0"
            >
              {columns.map((column, i) => (
                <td
                  key={column.header}
                  role="cell"
                  className={cx(
                    i === 0 ? 'block break-words font-medium text-slate-900 sm:font-normal' : 'flex justify-between gap-x-3 py-0.5',
                    'sm:table-cell sm:py-2 sm:pr-3 sm:last:pr-0',
                    column.numeric && 'tabular-nums sm:text-right',
                    column.className,
                  )}
                >
                  {i === 0 ? (
                    column.cell(row)
                  ) : (
                    <>
                      <span className="shrink-0 text-slate-600 sm:hidden">{column.header}</span>
                      <span className="min-w-0 break-words text-right">{column.cell(row)}</span>
                    </>
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
