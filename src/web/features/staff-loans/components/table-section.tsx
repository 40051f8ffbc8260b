import { Paper, Stack, Text, Title } from '@mantine/core';
import { DataTable, type DataTableProps } from '../../../components/lists/data-table';

/**
 * A titled table of the staff loan page (the schedule, the repayments), or the line that says why it is
 * empty. The heading names the section and the table for screen readers.
 */
export function TableSection<T>(
  props: Omit<DataTableProps<T>, 'label'> & { titleId: string; title: string; empty: string },
) {
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      component="section"
      aria-labelledby={props.titleId}
    >
      <Stack gap="sm">
        <Title order={2} size="h4" id={props.titleId}>
          {props.title}
        </Title>
        {props.rows.length === 0 ? (
          <Text size="sm" c="dimmed">
            {props.empty}
          </Text>
        ) : (
          <DataTable
            columns={props.columns}
            rows={props.rows}
            rowKey={props.rowKey}
            minWidth={props.minWidth}
            label={props.title}
          />
        )}
      </Stack>
    </Paper>
  );
}
