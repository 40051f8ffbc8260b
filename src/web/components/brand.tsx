import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The logo mark (public/favicon.svg) and the product name. */
export function Brand(props: { size?: number; c?: string }) {
  const { t } = useTranslation();
  const size = props.size ?? 28;
  return (
    <Group gap={8} wrap="nowrap">
      <img src="/favicon.svg" width={size} height={size} alt="" />
      <Text fw={800} fz={size * 0.7} c={props.c} lh={1} style={{ letterSpacing: '0.01em' }}>
        {t('common.appName')}
      </Text>
    </Group>
  );
}
