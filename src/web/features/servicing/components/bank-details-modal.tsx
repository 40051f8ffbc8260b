import { Loader, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { limits } from '../../../../domain/schemas/limits';
import { ReasonModal } from '../../../components/reason-modal';
import { fieldErrorText } from '../../../lib/error-text';
import { notifySuccess } from '../../../lib/notify';
import { maskedDestination } from '../../../lib/staff/account-mask';
import { applicationProfileQuery } from '../../../lib/staff/queries';
import { useChangeBankDetails } from '../api/servicing';
import { Current, LoanLine, type ServicingModalProps } from './loan-line';

/** Change Bank Details (finance, admin): the current account masked to its last 4 digits. */
export function BankDetailsModal({ loan, opened, onClose }: ServicingModalProps) {
  const { t } = useTranslation();
  const change = useChangeBankDetails();
  const profile = useQuery({ ...applicationProfileQuery(loan?.id ?? ''), enabled: opened && Boolean(loan) });
  const [bankName, setBankName] = useState('');
  const [accountNumber, setAccountNumber] = useState('');
  const currentBank = profile.data?.bankName ?? '';
  useEffect(() => {
    if (opened) {
      setBankName('');
      setAccountNumber('');
    }
  }, [opened]);
  // Most changes are a new account at the same bank: start from the current bank name once known.
  useEffect(() => {
    if (opened && currentBank) setBankName((typed) => typed || currentBank);
  }, [opened, currentBank]);

  const bankLabel = t('servicing.bank.bankName');
  const accountLabel = t('servicing.bank.accountNumber');
  return (
    <ReasonModal
      opened={opened}
      onClose={onClose}
      title={t('servicing.bank.title')}
      description={
        loan ? (
          <LoanLine loan={loan}>
            <Current label={t('servicing.bank.current')}>
              {profile.data ? (
                <span data-testid="current-account">
                  {maskedDestination(profile.data.bankName, profile.data.accountNumber)}
                </span>
              ) : (
                <Loader size="xs" />
              )}
            </Current>
          </LoanLine>
        ) : undefined
      }
      validate={() => {
        if (!bankName.trim()) return fieldErrorText(t, 'bankName', 'FIELD_REQUIRED');
        if (!accountNumber.trim()) return fieldErrorText(t, 'accountNumber', 'FIELD_REQUIRED');
        return null;
      }}
      onConfirm={async (reason) => {
        if (!loan) return;
        const updated = await change.run({ id: loan.id, bankName: bankName.trim(), accountNumber, reason });
        if (updated) notifySuccess(t('servicing.bank.toast', { loanNumber: loan.loanNumber }));
      }}
    >
      <TextInput
        label={bankLabel}
        withAsterisk
        maxLength={limits.bankName}
        autoComplete="off"
        value={bankName}
        onChange={(event) => setBankName(event.currentTarget.value)}
      />
      <TextInput
        label={accountLabel}
        description={t('servicing.bank.accountHint')}
        withAsterisk
        inputMode="numeric"
        autoComplete="off"
        maxLength={limits.accountNumber}
        value={accountNumber}
        onChange={(event) => setAccountNumber(event.currentTarget.value.replace(/\D+/g, ''))}
      />
    </ReasonModal>
  );
}
