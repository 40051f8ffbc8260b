import {
  Alert,
  Button,
  Center,
  type CenterProps,
  Group,
  Loader,
  Stack,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../lib/error-text';

/**
 * A page's content while its data loads: a spinner with "Loading..." announced to screen readers;
 * `fullScreen` fills the window (while there is no page yet).
 */
export function PageLoading(props: { fullScreen?: boolean }) {
  const { t } = useTranslation();
  return (
    <Center {...(props.fullScreen ? { mih: '100vh' } : { py: 'xl' })} role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader />
        <Text c="dimmed">{t('common.loading')}</Text>
      </Stack>
    </Center>
  );
}

/** A failed read: what went wrong (a transport failure reads as NETWORK) and "Try again". */
export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{errorText(error, 'NETWORK')}</Text>
        <Button size="xs" variant="light" color="red" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}

/** A small spinner and what is loading, in one line (the part of a page it stands for is small). */
export function LoadingLine({ text }: { text: string }) {
  return (
    <Group gap="xs">
      <Loader size="xs" />
      <Text size="sm" c="dimmed">
        {text}
      </Text>
    </Group>
  );
}

/**
 * A spinner inside a page part, a table or a modal while its data loads; `label` (default "Loading...") is
 * announced. The words are hidden text in the live region, not an aria-label on the spinner: the spinner is a
 * plain span, where ARIA forbids a name (axe aria-prohibited-attr).
 */
export function InlineLoading({ label, ...center }: { label?: string } & CenterProps) {
  const { t } = useTranslation();
  return (
    <Center py="xl" {...center} role="status" aria-live="polite">
      <Loader size="sm" aria-hidden />
      <VisuallyHidden>{label ?? t('common.loading')}</VisuallyHidden>
    </Center>
  );
}

/** A failed read inside a page part (a list, the dashboard, a profile): the message with "Try again" beside it. */
export function InlineLoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
      <Group justify="space-between" gap="sm">
        <Text size="sm">{errorText(error)}</Text>
        <Button size="xs" variant="default" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </Group>
    </Alert>
  );
}
