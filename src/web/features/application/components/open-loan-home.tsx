import { Stack } from '@mantine/core';
import type { MyApplicationDto } from '../../../../domain/schemas/application';
import { ApplicationTracker } from '../../../components/loan/application-tracker';
import { LoanNowCard } from '../../../components/loan/loan-now-card';
import { useWallet } from '../../../lib/wallet-query';
import { CurrentApplication } from './current-application';

/**
 * Home while the borrower has an open application or a running loan (issue #32): the state that matters
 * now first, as the wallet says it — the tracker while a decision is awaited, what is due or overdue once
 * money is paid out — then the application's details. Not "Step 1 of 2": there is nothing to choose.
 */
export function OpenLoanHome({ application }: { application: MyApplicationDto }) {
  const wallet = useWallet();
  const repayment = wallet.data?.repayment ?? null;
  const position = repayment?.position ?? null;
  return (
    <Stack gap="md">
      {application.status === 'pending' ? <ApplicationTracker application={application} /> : null}
      {repayment && position ? (
        <LoanNowCard repayment={repayment} position={position} howToPayHref="/wallet" />
      ) : null}
      <CurrentApplication application={application} />
    </Stack>
  );
}
