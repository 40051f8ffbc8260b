import { Button, CopyButton, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import classes from './paying.module.css';

/**
 * A value to type into a payment app, with a button that copies it (the loan number, an account number,
 * the amount). The button says "Copied" for two seconds and a screen reader hears "<what> copied"; its name
 * starts with its visible text ("Copy loan number"), as WCAG 2.5.3 asks.
 */
export function CopyValue(props: {
  label: string;
  /** What is copied: the text shown unless `copyText` differs (an amount copied as plain digits). */
  value: string;
  copyText?: string;
  prominent?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <CopyButton value={props.copyText ?? props.value} timeout={2000}>
      {({ copied, copy }) => (
        <Group justify="space-between" wrap="nowrap" gap="sm" align="center" data-testid={props.testId}>
          <Stack gap={0} miw={0}>
            <Text size="xs" c="dimmed">
              {props.label}
            </Text>
            <Text
              fw={700}
              size={props.prominent ? 'xl' : 'md'}
              className={classes.copyValue}
              data-testid={props.testId ? `${props.testId}-value` : undefined}
            >
              {props.value}
            </Text>
          </Stack>
          <Button
            onClick={copy}
            size="xs"
            variant={copied ? 'filled' : 'light'}
            color={copied ? 'green.8' : undefined}
            leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
            aria-label={copied ? t('paying.copied') : t('paying.copyLabel', { what: props.label })}
            className={classes.copyButton}
          >
            {copied ? t('paying.copied') : t('paying.copy')}
          </Button>
          <VisuallyHidden role="status" aria-live="polite">
            {copied ? t('paying.copiedStatus', { what: props.label }) : ''}
          </VisuallyHidden>
        </Group>
      )}
    </CopyButton>
  );
}
