import { Alert, Button, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { tintedBackground } from '../../lib/styles/tint';

export interface TemporaryPasswordModalProps {
  /** The password to show; null closes the modal (and nothing keeps it afterwards). */
  password: string | null;
  /** Whose password it is, e.g. "Ana Santos (HL-25-000001)". */
  owner: string;
  onClose: () => void;
}

/**
 * Shows a freshly issued temporary password exactly once, with a copy button and the warning to hand it
 * over in person. The caller forgets it on close; the server never shows it again.
 */
export function TemporaryPasswordModal({ password, owner, onClose }: TemporaryPasswordModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={password !== null}
      onClose={onClose}
      title={t('servicing.temporaryPassword.title')}
      centered
      size="md"
      closeOnClickOutside={false}
    >
      <Stack gap="md">
        <Text size="sm">{t('servicing.temporaryPassword.description', { owner })}</Text>
        <Group
          justify="space-between"
          gap="sm"
          wrap="nowrap"
          p="sm"
          bg={tintedBackground}
          style={{
            borderRadius: 'var(--mantine-radius-md)',
            border: '1px solid var(--mantine-color-default-border)',
          }}
        >
          <Text
            ff="monospace"
            fw={700}
            size="lg"
            data-testid="temporary-password"
            style={{ overflowWrap: 'anywhere', userSelect: 'all' }}
          >
            {password}
          </Text>
          <CopyButton value={password ?? ''} timeout={2000}>
            {({ copied, copy }) => (
              <Button
                size="xs"
                variant={copied ? 'filled' : 'default'}
                color={copied ? 'green.8' : undefined}
                leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                onClick={copy}
                style={{ flexShrink: 0 }}
              >
                {copied ? t('servicing.temporaryPassword.copied') : t('servicing.temporaryPassword.copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Alert color="orange" icon={<IconAlertTriangle size={18} />} py="xs">
          {t('servicing.temporaryPassword.warning')}
        </Alert>
        <Group justify="flex-end">
          <Button onClick={onClose} data-autofocus>
            {t('servicing.temporaryPassword.done')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
