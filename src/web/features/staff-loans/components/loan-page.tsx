import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconCash, IconCashBanknote, IconFileTypePdf, IconId } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { isRunning } from '../../../../domain/loan/status';
import type { LoanLedgerDto } from '../../../../domain/schemas/repayments';
import { PageHeader, RefreshButton } from '../../../components/lists/list-page';
import { InlineLoadError, InlineLoading } from '../../../components/load-state';
import { ProfileModal } from '../../../components/staff/profile-modal';
import { StatusBadge } from '../../../components/status-badge';
import { useFormat } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';
import { useCan } from '../../../lib/session';
import { applicationProfileQuery } from '../../../lib/staff/queries';
import { agreementUrl, statementUrl, useLoanLedger } from '../api/loans';
import { PositionSummary } from './position-summary';
import { RecordRepaymentModal } from './record-repayment-modal';
import { RefundCreditModal } from './refund-credit-modal';
import { type LedgerRepayment, RepaymentLedger } from './repayment-ledger';
import { ReverseRepaymentModal } from './reverse-repayment-modal';
import { ScheduleTable } from './schedule-table';

type Dialog = 'profile' | 'record' | 'reverse' | 'refund';

/**
 * A loan after approval (/admin/loans/:id): who borrowed, what it owes today, the schedule, every
 * repayment and where it went. Finance and admins record and reverse repayments here.
 */
export function LoanPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation();
  const ledger = useLoanLedger(id);
  const data = ledger.data;
  return (
    <Stack gap="md">
      <PageHeader
        title={
          data ? t('staffLoans.loan.title', { loanNumber: data.loanNumber }) : t('staffLoans.list.title')
        }
      >
        <RefreshButton
          onClick={() => void ledger.refetch()}
          loading={ledger.isFetching && !ledger.isPending}
        />
      </PageHeader>
      {ledger.isError ? <InlineLoadError error={ledger.error} onRetry={() => void ledger.refetch()} /> : null}
      {ledger.isPending ? <InlineLoading /> : data ? <LoanBody ledger={data} /> : null}
    </Stack>
  );
}

function LoanBody({ ledger }: { ledger: LoanLedgerDto }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const can = useCan();
  const profile = useQuery(applicationProfileQuery(ledger.loanId));
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [repayment, setRepayment] = useState<LedgerRepayment | null>(null);
  const close = () => setDialog(null);
  const l = (key: string, options?: Record<string, unknown>) => t(`staffLoans.loan.${key}`, options);

  const { position } = ledger;
  const closed = ledger.status === 'closed';
  const mayRecord = can('repayment.record');
  // Money is recorded only for a running loan that has been paid out (the server refuses anything else).
  const canRecord = mayRecord && isRunning(ledger.status) && position.startDate !== null;
  const canReverse = can('repayment.reverse');
  const canRefund = can('credit.refund') && position.creditMinor > 0;
  const borrowerName = profile.data?.fullName ?? '';

  return (
    <>
      <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={4} miw={0}>
            <Group gap="xs" wrap="wrap">
              <StatusBadge status={ledger.status} data-testid="loan-status" />
              {closed && ledger.closedAt ? (
                <Text span size="sm" c="dimmed">
                  {l('closedOn', { date: fmt.date(ledger.closedAt) })}
                </Text>
              ) : null}
            </Group>
            <Text size="sm">
              <Text span c="dimmed" size="sm">
                {l('borrower')}:{' '}
              </Text>
              <Text span fw={600} size="sm">
                {profile.data ? fmt.text(profile.data.fullName) : '…'}
              </Text>
              {'  ·  '}
              <Text span c="dimmed" size="sm">
                {l('phone')}:{' '}
              </Text>
              <Text span size="sm">
                {profile.data ? fmt.text(profile.data.phone) : '…'}
              </Text>
            </Text>
          </Stack>
          <Group gap="xs" wrap="wrap">
            <Button variant="default" leftSection={<IconId size={16} />} onClick={() => setDialog('profile')}>
              {l('viewProfile')}
            </Button>
            <Button
              component="a"
              variant="default"
              leftSection={<IconFileTypePdf size={16} />}
              href={statementUrl(ledger.loanId, currentLanguage())}
              download
            >
              {l('statement')}
            </Button>
            <Button
              component="a"
              variant="default"
              leftSection={<IconFileTypePdf size={16} />}
              href={agreementUrl(ledger.loanId, currentLanguage())}
              download
            >
              {l('agreement')}
            </Button>
            {canRecord ? (
              <Button leftSection={<IconCash size={16} />} onClick={() => setDialog('record')}>
                {t('staffLoans.record.button')}
              </Button>
            ) : null}
            {canRefund ? (
              <Button
                variant="default"
                leftSection={<IconCashBanknote size={16} />}
                onClick={() => setDialog('refund')}
              >
                {t('staffLoans.refund.button')}
              </Button>
            ) : null}
          </Group>
        </Group>
      </Paper>
      <PositionSummary position={position} closed={closed} />
      <ScheduleTable position={position} />
      <RepaymentLedger
        repayments={ledger.repayments}
        onReverse={
          canReverse
            ? (row) => {
                setRepayment(row);
                setDialog('reverse');
              }
            : undefined
        }
      />
      <ProfileModal applicationId={ledger.loanId} opened={dialog === 'profile'} onClose={close} />
      {mayRecord ? (
        <RecordRepaymentModal
          opened={dialog === 'record'}
          onClose={close}
          today={position.asOf}
          loan={{
            id: ledger.loanId,
            loanNumber: ledger.loanNumber,
            borrowerName,
            payoffMinor: position.payoffMinor,
          }}
        />
      ) : null}
      {canRefund ? (
        <RefundCreditModal
          opened={dialog === 'refund'}
          onClose={close}
          loan={{ id: ledger.loanId, loanNumber: ledger.loanNumber, creditMinor: position.creditMinor }}
        />
      ) : null}
      {canReverse ? (
        <ReverseRepaymentModal
          opened={dialog === 'reverse'}
          onClose={close}
          repayment={repayment}
          loan={{ id: ledger.loanId, loanNumber: ledger.loanNumber, status: ledger.status }}
        />
      ) : null}
    </>
  );
}
