import '../../../lib/styles/all';
import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconFileText } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LoadError, PageLoading } from '../../../components/load-state';
import { ApplicationTracker } from '../../../components/loan/application-tracker';
import { LoanNowCard } from '../../../components/loan/loan-now-card';
import { useMyTerms } from '../api/terms-api';
import { useWallet } from '../api/wallet-api';
import { walletStatus } from '../lib/wallet-status';
import { DisbursementList } from './disbursement-list';
import { HistoryList } from './history-list';
import { HowToPay } from './how-to-pay';
import { LoanCard } from './loan-card';
import { ComplaintHelp, LoanDocuments } from './loan-documents';
import { RepaymentSchedule } from './repayment-schedule';
import { SignedTerms } from './signed-terms';
import { StatusPanel } from './status-panel';
import { TermsChangeCard } from './terms-change-card';
import { WithdrawForm } from './withdraw-form';

/** A borrower without any application: say so and show the way to apply. */
function NoLoan() {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="lg" p="lg" component="section">
      <Stack align="center" ta="center" gap="sm">
        <ThemeIcon size={48} radius="xl" variant="light">
          <IconFileText size={26} />
        </ThemeIcon>
        <Title order={2} size="h4">
          {t('wallet.none.title')}
        </Title>
        <Text size="sm" c="dimmed" maw={420}>
          {t('wallet.none.text')}
        </Text>
        <Button component={Link} to="/loan/application" size="md">
          {t('wallet.none.apply')}
        </Button>
      </Stack>
    </Paper>
  );
}

/** /wallet — My Wallet (SPEC §2.5). */
export function WalletPage() {
  const wallet = useWallet();
  const terms = useMyTerms();

  if (wallet.isPending) return <PageLoading />;
  if (wallet.isError) return <LoadError error={wallet.error} onRetry={() => void wallet.refetch()} />;

  const data = wallet.data;
  const status = walletStatus(data);
  const position = data.repayment?.position ?? null;
  // The state that matters now comes first (issue #32): what is due or overdue once money is paid out, the
  // tracker (with the lender's review time) under SPEC §4's pending text while a decision is awaited.
  // "Approved — Congratulations" is said until the first payout, never to a borrower who is repaying; the
  // withdraw form shows only while there is money left to draw.
  const panel = status && !(position && (status.kind === 'approved' || status.kind === 'closed'));
  const drawable = (data.balance?.availableMinor ?? 0) > 0;
  return (
    <Stack gap="md">
      {terms.data?.proposed ? <TermsChangeCard change={terms.data.proposed} /> : null}
      {data.application && status ? (
        <>
          {data.repayment && position ? <LoanNowCard repayment={data.repayment} position={position} /> : null}
          {panel ? <StatusPanel status={status} canApply={data.canApply} /> : null}
          {status.kind === 'pending' ? <ApplicationTracker application={data.application} /> : null}
          <LoanCard wallet={data} />
          {drawable ? <WithdrawForm wallet={data} /> : null}
        </>
      ) : (
        <NoLoan />
      )}
      {data.history.length > 0 || data.application ? <HistoryList history={data.history} /> : null}
      {data.balance ? <DisbursementList disbursements={data.disbursements} /> : null}
      <RepaymentSchedule schedule={data.schedule} repayment={data.repayment} />
      {data.repayment?.position ? <HowToPay repayment={data.repayment} /> : null}
      {terms.data ? <SignedTerms terms={terms.data} /> : null}
      {data.application ? <LoanDocuments /> : null}
      <ComplaintHelp />
    </Stack>
  );
}
