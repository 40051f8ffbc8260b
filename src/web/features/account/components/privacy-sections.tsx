import { Badge, Button, Group, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconLogout2 } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DocumentThumb } from '../../../components/document-thumb';
import { InlineLoadError, InlineLoading } from '../../../components/load-state';
import { FormModal } from '../../../components/modals';
import { PasswordField } from '../../../components/password-field';
import { PrivacyNoticeText } from '../../../components/privacy-notice';
import { useFormat } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { usePrivacyNotice } from '../../../lib/privacy';
import { useForgetSession } from '../../../lib/session';
import { exportUrl, useCloseAccount, useMyConsents, useMyDocuments } from '../api/privacy-api';

/** As the application form asks for them. */
const kindOrder = ['id_front', 'id_back', 'selfie', 'signature'];

/** The borrower's own uploaded pictures, by application; a click enlarges one (GET /api/files/:id). */
export function MyDocuments() {
  const { t } = useTranslation();
  const documents = useMyDocuments();
  if (documents.isPending) return <InlineLoading />;
  if (documents.isError)
    return <InlineLoadError error={documents.error} onRetry={() => void documents.refetch()} />;
  const items = documents.data.items;
  if (items.length === 0) return <Text size="sm">{t('privacy.account.documents.empty')}</Text>;
  const byLoan = new Map<string, typeof items>();
  for (const item of items) byLoan.set(item.loanNumber, [...(byLoan.get(item.loanNumber) ?? []), item]);
  const inFormOrder = (docs: typeof items) =>
    [...docs].sort((a, b) => kindOrder.indexOf(a.kind) - kindOrder.indexOf(b.kind));
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('privacy.account.documents.intro')}
      </Text>
      {[...byLoan].map(([loanNumber, docs]) => (
        <Stack key={loanNumber} gap="xs">
          <Title order={3} size="h6">
            {t('privacy.account.documents.application', { loanNumber })}
          </Title>
          <SimpleGrid cols={{ base: 2, xs: 4 }} spacing="sm">
            {inFormOrder(docs).map((doc) => (
              <DocumentThumb
                key={doc.id}
                fileId={doc.id}
                height={90}
                label={t(`privacy.account.documents.kinds.${doc.kind}`)}
              />
            ))}
          </SimpleGrid>
        </Stack>
      ))}
    </Stack>
  );
}

/** Download everything held about the borrower as a ZIP (a plain link: the browser streams it to disk). */
export function MyData() {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" align="flex-start">
      <Text size="sm">{t('privacy.account.data.intro')}</Text>
      <Button component="a" href={exportUrl} download="my-data.zip" leftSection={<IconDownload size={16} />}>
        {t('privacy.account.data.download')}
      </Button>
    </Stack>
  );
}

/** The notices the borrower agreed to, newest first, and the notice in force to read again. */
export function MyConsents() {
  const { t } = useTranslation();
  const format = useFormat();
  const consents = useMyConsents();
  const notice = usePrivacyNotice();
  const [reading, setReading] = useState(false);
  if (consents.isPending) return <InlineLoading />;
  if (consents.isError)
    return <InlineLoadError error={consents.error} onRetry={() => void consents.refetch()} />;
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('privacy.account.consents.intro')}
      </Text>
      {consents.data.items.length === 0 ? (
        <Text size="sm">{t('privacy.account.consents.empty')}</Text>
      ) : (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {consents.data.items.map((consent) => (
            <li key={`${consent.version}-${consent.consentedAt}`}>
              <Group gap="xs" wrap="wrap">
                <Text size="sm" fw={600}>
                  {t('privacy.account.consents.version', { version: consent.version })}
                </Text>
                {consent.current ? (
                  <Badge color="green" variant="light" size="sm">
                    {t('privacy.account.consents.current')}
                  </Badge>
                ) : null}
              </Group>
              <Text size="sm" c="dimmed">
                {t(`privacy.account.consents.${consent.context}`)} · {format.dateTime(consent.consentedAt)}
              </Text>
            </li>
          ))}
        </Stack>
      )}
      {notice.data ? (
        <>
          <Button variant="default" onClick={() => setReading(true)} style={{ alignSelf: 'flex-start' }}>
            {t('privacy.account.consents.read')}
          </Button>
          <Modal
            opened={reading}
            onClose={() => setReading(false)}
            title={t('privacy.account.consents.read')}
            size="lg"
            closeButtonProps={{ 'aria-label': t('privacy.account.consents.close') }}
          >
            <PrivacyNoticeText notice={notice.data} headingOrder={2} />
          </Modal>
        </>
      ) : null}
    </Stack>
  );
}

/** Closing the account: when it can be done, the retention period, and a password-confirmed request. */
export function CloseAccount() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const notice = usePrivacyNotice();
  const close = useCloseAccount();
  const forgetSession = useForgetSession();
  const format = useFormat();
  const [opened, setOpened] = useState(false);
  const [password, setPassword] = useState('');
  return (
    <Stack gap="sm" align="flex-start">
      <Text size="sm">{t('privacy.account.close.intro')}</Text>
      {notice.data ? (
        <Text size="sm" c="dimmed">
          {t('privacy.account.close.retention', { years: notice.data.retentionYears })}
        </Text>
      ) : null}
      <Button
        color="red"
        variant="light"
        leftSection={<IconLogout2 size={16} />}
        onClick={() => setOpened(true)}
      >
        {t('privacy.account.close.button')}
      </Button>
      <FormModal
        opened={opened}
        onClose={() => {
          setOpened(false);
          setPassword('');
        }}
        title={t('privacy.account.close.confirmTitle')}
        confirmLabel={t('privacy.account.close.confirm')}
        confirmColor="red"
        validate={() => (password ? null : t('errors.CURRENT_PASSWORD_WRONG'))}
        onConfirm={async () => {
          const result = await close.mutateAsync(password);
          notifySuccess(t('privacy.account.close.done', { date: format.calendarDate(result.anonymiseOn) }));
          forgetSession();
          navigate('/login', { replace: true });
        }}
      >
        <Text size="sm" mb="sm">
          {t('privacy.account.close.confirmBody')}
        </Text>
        <PasswordField
          label={t('privacy.account.close.password')}
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          data-autofocus
        />
      </FormModal>
    </Stack>
  );
}
