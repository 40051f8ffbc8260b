import { Alert, Button, Group, Image, List, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconDeviceMobile } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TotpSetupResponse } from '../../../../domain/schemas/second-factor';
import { useErrorText } from '../../../lib/error-text';
import { useConfirmTotp, useStartTotp } from '../api/security-api';

/**
 * Setting up an authenticator app: a QR code (and the same key as text, to type in by hand or have read
 * aloud), confirmed by a current code; then the ten recovery codes, shown this once.
 */
export function TotpEnrolment(props: { onDone: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const start = useStartTotp();
  const confirm = useConfirmTotp();
  const [setup, setSetup] = useState<TotpSetupResponse | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  const begin = () =>
    start.mutate(undefined, {
      onSuccess: (answer) => {
        setSetup(answer);
        setError(null);
      },
      onError: (e) => setError(errorText(e)),
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code)) {
      setError(t('errors.SECOND_FACTOR_CODE_REQUIRED'));
      return;
    }
    confirm.mutate(code, {
      onSuccess: (answer) => setRecoveryCodes(answer.recoveryCodes),
      onError: (e) => setError(errorText(e)),
    });
  };

  if (recoveryCodes) {
    return (
      <Stack gap="md">
        <Alert color="green" variant="light" title={t('security.totp.enabledTitle')}>
          {t('security.recovery.intro')}
        </Alert>
        <Paper withBorder p="md" radius="md">
          <SimpleGrid
            cols={2}
            spacing="xs"
            component="ul"
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
          >
            {recoveryCodes.map((c) => (
              <Text component="li" key={c} ff="monospace" fz="md" data-testid="recovery-code">
                {c}
              </Text>
            ))}
          </SimpleGrid>
        </Paper>
        <Text size="sm" c="dimmed">
          {t('security.recovery.once')}
        </Text>
        <Button onClick={props.onDone}>{t('security.recovery.saved')}</Button>
      </Stack>
    );
  }

  if (!setup) {
    return (
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{t('security.totp.intro')}</Text>
        {error ? (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
            {error}
          </Alert>
        ) : null}
        <Button leftSection={<IconDeviceMobile size={18} />} onClick={begin} loading={start.isPending}>
          {t('security.totp.setUp')}
        </Button>
      </Stack>
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <List type="ordered" size="sm" spacing={4}>
          <List.Item>{t('security.totp.step1')}</List.Item>
          <List.Item>{t('security.totp.step2')}</List.Item>
          <List.Item>{t('security.totp.step3')}</List.Item>
        </List>
        <Group align="flex-start" gap="lg" wrap="wrap">
          <Image src={setup.qrCode} alt={t('security.totp.qrAlt')} w={180} h={180} bg="white" radius="sm" />
          <Stack gap={4} miw={0} style={{ flex: '1 1 200px' }}>
            <Text size="sm" fw={600} id="totp-secret-label">
              {t('security.totp.manualKey')}
            </Text>
            <Paper withBorder p="xs" radius="sm" bg="var(--mantine-color-default-hover)">
              <Text ff="monospace" fz="md" data-testid="totp-secret" style={{ wordBreak: 'break-all' }}>
                {setup.secret.replace(/(.{4})/g, '$1 ').trim()}
              </Text>
            </Paper>
            <Text size="xs" c="dimmed">
              {t('security.totp.manualHint')}
            </Text>
          </Stack>
        </Group>
        <TextInput
          label={t('security.totp.codeLabel')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          onChange={(event) => {
            setCode(event.currentTarget.value.replace(/\D/g, '').slice(0, 6));
            setError(null);
          }}
          error={error}
          maw={220}
        />
        <Group>
          <Button type="submit" loading={confirm.isPending}>
            {t('security.totp.confirm')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
