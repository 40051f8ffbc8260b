import { Stack, Text } from '@mantine/core';
import { useFormat } from '../lib/format';

/**
 * A date over its time (configured time zone), so date columns stay narrow in tables; "N/A" when
 * missing. The full date and time is the element's title.
 */
export function DateTimeCell({ iso }: { iso: string | null | undefined }) {
  const fmt = useFormat();
  if (!iso) return <>{fmt.na}</>;
  return (
    <Stack gap={0} title={fmt.dateTime(iso)}>
      <Text size="sm">{fmt.date(iso)}</Text>
      <Text size="xs" c="dimmed">
        {fmt.time(iso)}
      </Text>
    </Stack>
  );
}
