import '../../../lib/styles/all';
import {
  Badge,
  Button,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconFingerprint, IconLogout } from '@tabler/icons-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/lists/list-page';
import { InlineLoadError, InlineLoading } from '../../../components/load-state';
import { ConfirmModal } from '../../../components/modals';
import { useErrorText } from '../../../lib/error-text';
import { useFormat } from '../../../lib/format';
import { notifyError, notifySuccess } from '../../../lib/notify';
import {
  useAddPasskey,
  useFinishEnrolment,
  useLogoutEverywhere,
  useRemovePasskey,
  useSecurity,
} from '../api/security-api';
import { TotpEnrolment } from './totp-enrolment';

function Section(props: { title: string; status?: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Title order={2} size="h4">
          {props.title}
        </Title>
        {props.status}
      </Group>
      {props.children}
    </Paper>
  );
}

/**
 * The signed-in staff member's Security page (/admin/security): the authenticator app, passkeys, and
 * "sign out everywhere".
 */
export function SecurityPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const security = useSecurity();
  const finish = useFinishEnrolment();
  const addPasskey = useAddPasskey();
  const removePasskey = useRemovePasskey();
  const logoutEverywhere = useLogoutEverywhere();
  const [passkeyName, setPasskeyName] = useState('');
  const [passkeyError, setPasskeyError] = useState<string | null>(null);
  const [confirmingSignOut, setConfirmingSignOut] = useState(false);

  const onAddPasskey = (event: FormEvent) => {
    event.preventDefault();
    if (!passkeyName.trim()) {
      setPasskeyError(t('errors.PASSKEY_NAME_REQUIRED'));
      return;
    }
    addPasskey.mutate(passkeyName.trim(), {
      onSuccess: () => {
        setPasskeyName('');
        notifySuccess(t('security.passkeys.added'));
      },
      onError: (error) => setPasskeyError(errorText(error, 'PASSKEY_INVALID')),
    });
  };

  const data = security.data;
  const on = (enabled: boolean) => (
    <Badge color={enabled ? 'green' : 'gray'} variant="light">
      {enabled ? t('security.on') : t('security.off')}
    </Badge>
  );

  return (
    <>
      <PageHeader title={t('security.title')} />
      {security.isPending ? <InlineLoading /> : null}
      {security.isError ? (
        <InlineLoadError error={security.error} onRetry={() => void security.refetch()} />
      ) : null}
      {data ? (
        <Stack gap="md" maw={760}>
          <Text size="sm" c="dimmed">
            {data.secondFactorRequired ? t('security.requiredForRole') : t('security.optionalForRole')}
          </Text>
          <Section title={t('security.totp.title')} status={on(data.totp.enabled)}>
            {data.totp.enabled ? (
              <Stack gap={4}>
                <Text size="sm">
                  {t('security.totp.enabledSince', { date: format.dateTime(data.totp.enabledAt) })}
                </Text>
                <Text size="sm">{t('security.recovery.left', { count: data.recoveryCodesLeft })}</Text>
                <Text size="sm" c="dimmed">
                  {t('security.totp.resetHint')}
                </Text>
              </Stack>
            ) : (
              <TotpEnrolment onDone={() => void finish()} />
            )}
          </Section>

          <Section title={t('security.passkeys.title')} status={on(data.passkeys.length > 0)}>
            <Stack gap="sm">
              <Text size="sm">{t('security.passkeys.intro')}</Text>
              {data.passkeys.length > 0 ? (
                <Table.ScrollContainer minWidth={320}>
                  <Table>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('security.passkeys.name')}</Table.Th>
                        <Table.Th>{t('security.passkeys.lastUsed')}</Table.Th>
                        <Table.Th>
                          <VisuallyHidden>{t('security.passkeys.actions')}</VisuallyHidden>
                        </Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {data.passkeys.map((p) => (
                        <Table.Tr key={p.id}>
                          <Table.Td>{p.name}</Table.Td>
                          <Table.Td>
                            {p.lastUsedAt ? format.dateTime(p.lastUsedAt) : t('security.passkeys.never')}
                          </Table.Td>
                          <Table.Td ta="right">
                            <Button
                              size="xs"
                              variant="subtle"
                              color="red"
                              aria-label={t('security.passkeys.removeNamed', { name: p.name })}
                              loading={removePasskey.isPending && removePasskey.variables === p.id}
                              onClick={() =>
                                removePasskey.mutate(p.id, {
                                  onError: (error) => notifyError(errorText(error)),
                                })
                              }
                            >
                              {t('security.passkeys.remove')}
                            </Button>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              ) : null}
              <form onSubmit={onAddPasskey} noValidate>
                <Group align="flex-end" gap="sm" wrap="wrap">
                  <TextInput
                    label={t('security.passkeys.nameLabel')}
                    placeholder={t('security.passkeys.namePlaceholder')}
                    value={passkeyName}
                    maxLength={60}
                    onChange={(event) => {
                      setPasskeyName(event.currentTarget.value);
                      setPasskeyError(null);
                    }}
                    error={passkeyError}
                    style={{ flex: '1 1 200px' }}
                  />
                  <Button
                    type="submit"
                    variant="light"
                    leftSection={<IconFingerprint size={18} />}
                    loading={addPasskey.isPending}
                  >
                    {t('security.passkeys.add')}
                  </Button>
                </Group>
              </form>
            </Stack>
          </Section>

          <Section title={t('security.sessions.title')}>
            <Stack gap="sm" align="flex-start">
              <Text size="sm">{t('security.sessions.open', { count: data.openSessions })}</Text>
              <Text size="sm" c="dimmed">
                {t('security.sessions.limits')}
              </Text>
              <Button
                color="red"
                variant="light"
                leftSection={<IconLogout size={18} />}
                onClick={() => setConfirmingSignOut(true)}
              >
                {t('security.sessions.signOutEverywhere')}
              </Button>
            </Stack>
          </Section>
        </Stack>
      ) : null}
      <ConfirmModal
        opened={confirmingSignOut}
        onClose={() => setConfirmingSignOut(false)}
        title={t('security.sessions.signOutEverywhere')}
        message={t('security.sessions.confirm')}
        confirmLabel={t('security.sessions.signOutEverywhere')}
        confirmColor="red"
        onConfirm={async () => {
          await logoutEverywhere.mutateAsync();
          navigate('/login', { replace: true });
        }}
      />
    </>
  );
}
