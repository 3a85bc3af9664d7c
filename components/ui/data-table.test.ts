import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DataTable, type DataColumn } from './data-table';

interface Row {
  month: string;
  gross: string;
  note: string;
}

const columns: DataColumn<Row>[] = [
  { header: 'Month', cell: (r) => r.month },
  { header: 'Note', cell: (r) => r.note },
  { header: 'Gross', cell: (r) => r.gross, numeric: true },
];

/** The markup as served (the unit project runs in node, without a DOM, so it is read as text). */
function renderText(rows: Row[]): string {
  return renderToStaticMarkup(createElement(DataTable<Row>, { caption: 'Revenue by month', columns, rows, rowKey: (r) => r.month, testId: 'revenue' }));
}

describe('DataTable', () => {
  const rows = [
    { month: '2026-10', gross: '$9.00', note: 'first' },
    { month: '2026-11', gross: '$18.00', note: 'second' },
  ];

  it('is a table to assistive technology whatever CSS does to it: roles, a caption, one column header per column', () => {
    const html = renderText(rows);
    expect(html).toMatch(/^<div[^>]*><table role="table"[^>]*data-testid="revenue"/);
    expect(html).toContain('<caption class="sr-only">Revenue by month</caption>');
    expect(html.match(/role="columnheader"/g)).toHaveLength(3);
    expect(html.match(/role="row"/g)).toHaveLength(1 + rows.length);
    expect(html.match(/role="cell"/g)).toHaveLength(columns.length * rows.length);
  });

  it('on a phone each row is a card whose cells after the first carry their column name (hidden from 640 px on)', () => {
    const html = renderText(rows);
    // The header row only shows from `sm`; below it, the labels inside the cells do its work.
    expect(html).toMatch(/<thead role="rowgroup" class="hidden sm:table-header-group">/);
    expect(html.match(/<span class="shrink-0 text-slate-600 sm:hidden">Note<\/span>/g)).toHaveLength(rows.length);
    expect(html.match(/<span class="shrink-0 text-slate-600 sm:hidden">Gross<\/span>/g)).toHaveLength(rows.length);
    expect(html).not.toContain('sm:hidden">Month<');
    expect(html).toMatch(/<tr role="row" class="block rounded-lg border[^"]*sm:table-row/);
  });

  it('right-aligns numeric columns from 640 px on, with tabular figures, and keeps rows in the given order', () => {
    const html = renderText(rows);
    expect(html).toMatch(/<th role="columnheader" scope="col" class="[^"]*text-right[^"]*">Gross<\/th>/);
    expect(html).toMatch(/<td role="cell" class="[^"]*tabular-nums sm:text-right[^"]*"><span[^>]*>Gross<\/span><span[^>]*>\$9\.00<\/span><\/td>/);
    expect(html.indexOf('2026-10')).toBeLessThan(html.indexOf('2026-11'));
  });

  it('renders no row for no data (callers say "nothing yet" themselves)', () => {
    expect(renderText([]).match(/role="row"/g)).toHaveLength(1);
  });
});
