import { Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { ServicingItem } from '../../../../domain/schemas/staff';
import { LoanIdentity } from '../../../components/staff/loan-identity';
import { StatusBadge } from '../../../components/status-badge';
import { tintedBackground } from '../../../lib/styles/tint';

/** What every servicing modal receives: the loan row it was opened from. */
export interface ServicingModalProps {
  loan: ServicingItem | null;
  opened: boolean;
  onClose: () => void;
}

/** Loan number, borrower and status at the top of every servicing modal. */
export function LoanLine({ loan, children }: { loan: ServicingItem; children?: ReactNode }) {
  return (
    <Stack gap={6}>
      <LoanIdentity loanNumber={loan.loanNumber} fullName={loan.fullName}>
        <StatusBadge status={loan.status} size="sm" />
      </LoanIdentity>
      {children}
    </Stack>
  );
}

/** A labelled current value in a tinted box ("Currently: …"). */
export function Current(props: { label: string; children: ReactNode }) {
  return (
    <Paper withBorder p="xs" radius="md" bg={tintedBackground}>
      <Text size="xs" c="dimmed">
        {props.label}
      </Text>
      <Text size="sm" fw={500} component="div" style={{ overflowWrap: 'anywhere' }}>
        {props.children}
      </Text>
    </Paper>
  );
}
