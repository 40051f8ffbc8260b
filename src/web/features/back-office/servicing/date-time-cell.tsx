import { Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useTimeZone } from '../../../lib/settings';
import { intlLocale, isMissing, useFormat } from '../components/shared/format';

/**
 * An instant as the date with the time of day under it (configured time zone), so wide tables stay
 * narrow; "N/A" when missing. The full date and time are also the cell's tooltip.
 */
export function DateTimeCell({ iso }: { iso: string | null | undefined }) {
  const { i18n } = useTranslation();
  const fmt = useFormat();
  const timeZone = useTimeZone();
  // biome-ignore lint/correctness/useExhaustiveDependencies: i18n.language re-creates it on a switch
  const time = useMemo(
    () => new Intl.DateTimeFormat(intlLocale(), { timeZone, hour: '2-digit', minute: '2-digit' }),
    [timeZone, i18n.language],
  );
  if (isMissing(iso)) return <>{fmt.na}</>;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return <>{fmt.na}</>;
  return (
    <Stack gap={0} title={fmt.dateTime(iso)}>
      <Text span size="sm">
        {fmt.date(iso)}
      </Text>
      <Text span size="xs" c="dimmed">
        {time.format(date)}
      </Text>
    </Stack>
  );
}
