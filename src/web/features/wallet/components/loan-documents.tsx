import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconFileTypePdf, IconMessageReport } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SectionCard } from '../../../components/section-card';
import { currentLanguage } from '../../../lib/i18n';
import { useSettings } from '../../../lib/settings';

/**
 * The documents the borrower keeps (issue #14): the disclosure statement they signed and the signed loan
 * agreement, as plain links (the browser downloads them with the session cookie; no PDF code here).
 */
export function LoanDocuments() {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const link = (href: string, label: string) => (
    <Button
      component="a"
      href={href}
      download
      variant="light"
      size="sm"
      leftSection={<IconFileTypePdf size={16} />}
    >
      {label}
    </Button>
  );
  return (
    <SectionCard titleId="documents-title" title={t('wallet.documents.title')} titleSize="h5" titleMb="xs">
      <Group gap="xs">
        {link(`/api/wallet/disclosure.pdf?lang=${lang}`, t('wallet.documents.disclosure'))}
        {link(`/api/wallet/agreement.pdf?lang=${lang}`, t('wallet.documents.agreement'))}
      </Group>
    </SectionCard>
  );
}

/** How to complain, and the regulator to turn to when a complaint is not resolved (REGULATOR_CONTACT). */
export function ComplaintHelp() {
  const { t } = useTranslation();
  const regulator = useSettings().data?.regulatorContact;
  return (
    <Paper withBorder radius="lg" p="md" component="section" aria-labelledby="complaint-help-title">
      <Stack gap={6}>
        <Title order={2} size="h5" id="complaint-help-title">
          {t('complaints.home.title')}
        </Title>
        <Text size="sm">{t('complaints.home.how')}</Text>
        {regulator ? (
          <Text size="sm" c="dimmed">
            {t('complaints.home.regulator')} <span style={{ overflowWrap: 'anywhere' }}>{regulator}</span>
          </Text>
        ) : null}
        <Button
          component={Link}
          to="/account#complaints"
          variant="subtle"
          size="xs"
          px={0}
          w="fit-content"
          leftSection={<IconMessageReport size={16} />}
        >
          {t('complaints.home.link')}
        </Button>
      </Stack>
    </Paper>
  );
}
