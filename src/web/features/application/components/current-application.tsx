import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconInfoCircle, IconWallet } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { MyApplicationDto } from '../../../../domain/schemas/application';
import { useFormat } from '../../../lib/format';
import { statusLook } from '../../../lib/status';

function statusText(t: (key: string) => string, application: MyApplicationDto): string {
  if (application.status === 'on_hold' && application.statusMessage) return application.statusMessage;
  if (application.status === 'rejected' && application.rejectReason) return application.rejectReason;
  return t(`application.current.text.${application.status}`);
}

/**
 * Shown on step 1 instead of the form while the borrower has an open application or a running loan:
 * its status, the SPEC notice that a second application is not possible, and the way to the wallet.
 */
export function CurrentApplication({ application }: { application: MyApplicationDto }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const rows: [string, string][] = [
    [t('application.current.loanNumber'), application.loanNumber],
    [t('application.current.amount'), fmt.money(application.approvedAmountMinor ?? application.amountMinor)],
    [t('application.current.term'), t('application.termMonths', { n: application.termMonths })],
    [t('application.current.monthlyPayment'), fmt.money(application.monthlyPaymentMinor)],
    [t('application.current.submittedAt'), fmt.date(application.submittedAt)],
  ];
  return (
    <Paper withBorder radius="lg" p="md" component="section" aria-labelledby="current-application-title">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
          <Title order={3} size="h4" id="current-application-title">
            {t('application.current.title')}
          </Title>
          <Badge
            color={statusLook(application.status).color}
            variant="light"
            size="lg"
            style={{ flexShrink: 0 }}
          >
            {t(`application.current.status.${application.status}`)}
          </Badge>
        </Group>
        <Text size="sm">{statusText(t, application)}</Text>
        <Stack gap={4}>
          {rows.map(([label, value]) => (
            <Group key={label} justify="space-between" gap="md" wrap="nowrap">
              <Text size="sm" c="dimmed">
                {label}
              </Text>
              <Text size="sm" fw={600} ta="end">
                {value}
              </Text>
            </Group>
          ))}
        </Stack>
        <Alert variant="light" color="orange" icon={<IconInfoCircle size={18} />} role="note">
          {t('errors.ACTIVE_LOAN_EXISTS')}
        </Alert>
        <Button component={Link} to="/wallet" leftSection={<IconWallet size={18} />} fullWidth>
          {t('application.activeLoan.goToWallet')}
        </Button>
      </Stack>
    </Paper>
  );
}

/** A rejected or closed application does not block a new one; a rejection says why. */
export function PreviousApplicationNote({ application }: { application: MyApplicationDto }) {
  const { t } = useTranslation();
  if (application.status !== 'rejected') return null;
  const text = application.rejectReason
    ? t('application.current.previousRejected', {
        loanNumber: application.loanNumber,
        reason: application.rejectReason,
      })
    : t('application.current.previousRejectedNoReason', { loanNumber: application.loanNumber });
  return (
    <Alert variant="light" color="red" icon={<IconInfoCircle size={18} />}>
      {text} {t('application.current.applyAgain')}
    </Alert>
  );
}

// The notice is a Mantine Modal (with its focus trap and floating-ui): a chunk of its own, fetched the first
// time it opens, so step 1's first load does not carry it for the rare borrower who needs it.
const LoadedActiveLoanDialog = lazy(() =>
  import('./active-loan-dialog').then((module) => ({ default: module.ActiveLoanDialog })),
);

/** SPEC §5: "You already have an active loan. You cannot apply again.", with the way to the wallet. */
export function ActiveLoanDialog(props: { opened: boolean; onClose: () => void }) {
  // Once opened it stays mounted, so closing plays the modal's own transition.
  const [wanted, setWanted] = useState(props.opened);
  if (props.opened && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <LoadedActiveLoanDialog opened={props.opened} onClose={props.onClose} />
    </Suspense>
  );
}
