import { Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Stack align="center" gap="xs">
        <Text fz={48} fw={800} c="dimmed" lh={1}>
          404
        </Text>
        <Title order={1} size="h3">
          {t('common.notFound')}
        </Title>
      </Stack>
    </Center>
  );
}
