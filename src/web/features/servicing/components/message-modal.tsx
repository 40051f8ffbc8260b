import { Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { limits } from '../../../../domain/schemas/limits';
import { ReasonModal } from '../../../components/reason-modal';
import { notifySuccess } from '../../../lib/notify';
import { useMessageBorrower } from '../api/servicing';
import { LoanLine, type ServicingModalProps } from './loan-line';

/** Message Borrower (officer, admin): shown in the borrower's status panel history. */
export function MessageModal({ loan, opened, onClose }: ServicingModalProps) {
  const { t } = useTranslation();
  const send = useMessageBorrower();
  const [message, setMessage] = useState('');
  useEffect(() => {
    if (opened) setMessage('');
  }, [opened]);
  const label = t('servicing.message.label');
  return (
    <ReasonModal
      opened={opened}
      onClose={onClose}
      title={t('servicing.message.title')}
      description={loan ? <LoanLine loan={loan} /> : undefined}
      confirmLabel={t('servicing.message.send')}
      validate={() => (message.trim() ? null : t('errors.FIELD_REQUIRED', { field: label }))}
      onConfirm={async (reason) => {
        if (!loan) return;
        const updated = await send.run({ id: loan.id, message: message.trim(), reason });
        if (updated) notifySuccess(t('servicing.message.toast', { name: loan.fullName }));
      }}
    >
      <Textarea
        label={label}
        description={t('servicing.message.hint')}
        withAsterisk
        autosize
        minRows={3}
        maxRows={8}
        maxLength={limits.borrowerMessage}
        value={message}
        onChange={(event) => setMessage(event.currentTarget.value)}
      />
    </ReasonModal>
  );
}
