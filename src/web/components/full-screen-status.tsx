import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** "Loading..." while the session is restored from the server. */
export function LoadingScreen() {
  const { t } = useTranslation();
  return (
    <Center mih="100vh" role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader />
        <Text c="dimmed">{t('common.loading')}</Text>
      </Stack>
    </Center>
  );
}

/** Shown when the session cannot be read at all (server down, offline). */
export function ErrorScreen(props: { message: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" gap="md" maw={420}>
        <Text ta="center" role="alert">
          {props.message}
        </Text>
        <Button onClick={props.onRetry}>{t('common.retry')}</Button>
      </Stack>
    </Center>
  );
}
