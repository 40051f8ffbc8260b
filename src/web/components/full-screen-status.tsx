import { Button, Center, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageLoading } from './load-state';

/** "Loading..." while the session is restored from the server. */
export function LoadingScreen() {
  return <PageLoading fullScreen />;
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
