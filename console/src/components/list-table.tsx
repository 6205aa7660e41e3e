/**
 * The console's tables of things (projects, content sets, API keys, webhooks, deliveries):
 * a caption for screen readers, one header per column, and a row per thing whose first cell
 * is its row header (what the row is named by). Where the table's box is narrower than its
 * columns need (a phone), each row stacks into a card whose cells carry their column's name
 * (styles.css, `.list-table-box`), so every value and button shows without sideways scrolling.
 */
import type { ReactNode } from 'react';

export interface Column<Row> {
  header: string;
  /** Read by screen readers only (a column of buttons needs a name, not a visible title). */
  hiddenHeader?: boolean;
  /** Right-aligned figures. */
  number?: boolean;
  cell: (row: Row) => ReactNode;
}

export function ListTable<Row>(props: {
  /** The table's accessible name. */
  caption: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  /** `data-*` attributes of a row, by which tests and styles find it. */
  rowData?: (row: Row) => Record<`data-${string}`, string>;
  /** Shown instead of the table when there are no rows; without it, the table shows empty. */
  empty?: ReactNode;
  testId?: string;
}) {
  const { columns } = props;
  if (props.rows.length === 0 && props.empty !== undefined) return props.empty;
  return (
    <div className="list-table-box">
      <table className="list-table" data-testid={props.testId}>
        <caption className="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" className={column.number ? 'number' : undefined}>
                {column.hiddenHeader ? <span className="visually-hidden">{column.header}</span> : column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={props.rowKey(row)} {...props.rowData?.(row)}>
              {columns.map((column, index) => {
                const className = column.number ? 'number' : undefined;
                return index === 0 ? (
                  <th key={column.header} scope="row" className={className}>
                    {column.cell(row)}
                  </th>
                ) : (
                  <td key={column.header} className={column.hiddenHeader ? 'actions-cell' : className}>
                    {/* The column's name beside the value when rows stack; the cell's header already names it to screen readers. */}
                    {!column.hiddenHeader && (
                      <span className="cell-label" aria-hidden="true">
                        {column.header}
                      </span>
                    )}
                    {column.cell(row)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
