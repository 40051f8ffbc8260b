import { Table, Text } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './data-table.module.css';

export interface Column<T> {
  /** Stable id of the column (React key). */
  key: string;
  /** Translated header text. */
  header: ReactNode;
  cell: (row: T) => ReactNode;
  align?: 'left' | 'right' | 'center';
  /** Keep the cell on one line (dates, amounts, buttons). Default true; set false for long text. */
  nowrap?: boolean;
  width?: number | string;
  /** Stay at the right edge while the table scrolls sideways (a row's actions, on a phone). */
  sticky?: boolean;
}

export interface DataTableProps<T> {
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** The table scrolls sideways below this width (phones); default 880 px. */
  minWidth?: number;
  /** Accessible name of the table, e.g. the page title. */
  label?: string;
}

type Placement = Pick<Column<unknown>, 'align' | 'nowrap' | 'sticky'>;

/** A column's alignment and wrapping, the same for its header and its cells. */
function alignment(column: Placement): CSSProperties {
  return {
    textAlign: column.align ?? 'left',
    // A long-text column may wrap its header too ("Marked / by"): narrow lists fit at 1280 px.
    whiteSpace: column.nowrap === false ? undefined : 'nowrap',
  };
}

const stickyClass = (column: Placement) => (column.sticky ? classes.sticky : undefined);

/** A striped Mantine table from a column list; an empty list shows "No results found.". */
export function DataTable<T>({ columns, rows, rowKey, minWidth = 880, label }: DataTableProps<T>) {
  const { t } = useTranslation();
  return (
    <>
      <Table.ScrollContainer minWidth={minWidth} type="native">
        <Table striped highlightOnHover verticalSpacing="xs" horizontalSpacing={8} fz="sm" aria-label={label}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th
                  key={column.key}
                  className={stickyClass(column)}
                  style={{ ...alignment(column), width: column.width }}
                >
                  {column.header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={rowKey(row)}>
                {columns.map((column) => (
                  <Table.Td key={column.key} className={stickyClass(column)} style={alignment(column)}>
                    {column.cell(row)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {/* Under the scrolling table, not in a cell: a cell spans the table's full scrolled width, so on a
          phone its centred text sat off-screen and an empty list looked blank. */}
      {rows.length === 0 && (
        <Text ta="center" c="dimmed" py="xl">
          {t('backOffice.common.noResults')}
        </Text>
      )}
    </>
  );
}
