import { Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { limits } from '../../../../domain/schemas/limits';
import { ReasonModal } from '../../../components/reason-modal';
import { fieldErrorText } from '../../../lib/error-text';
import { draftText, useFormDraft } from '../../../lib/form-draft';
import { notifySuccess } from '../../../lib/notify';
import { useMessageBorrower } from '../api/servicing';
import { LoanLine, type ServicingModalProps } from './loan-line';

/** Message Borrower (officer, admin): shown in the borrower's status panel history. */
export function MessageModal({ loan, opened, onClose }: ServicingModalProps) {
  const { t } = useTranslation();
  const send = useMessageBorrower();
  const [message, setMessage] = useState('');
  // The message and the reason are kept while typed (issue #32), under one name per loan.
  const draftKey = loan ? `servicing.message:${loan.id}` : null;
  const draft = useFormDraft<{ message: string }>(opened ? draftKey : null);
  const kept = draftText(draft.restored?.message);
  // biome-ignore lint/correctness/useExhaustiveDependencies: kept is read once per opening
  useEffect(() => {
    if (opened) setMessage(kept);
  }, [opened]);
  const label = t('servicing.message.label');
  return (
    <ReasonModal
      opened={opened}
      onClose={onClose}
      title={t('servicing.message.title')}
      description={loan ? <LoanLine loan={loan} /> : undefined}
      confirmLabel={t('servicing.message.send')}
      draftKey={draftKey}
      onDraftDiscarded={() => setMessage('')}
      validate={() => (message.trim() ? null : fieldErrorText(t, 'message', 'FIELD_REQUIRED'))}
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
        onChange={(event) => {
          setMessage(event.currentTarget.value);
          draft.save({ message: event.currentTarget.value });
        }}
      />
    </ReasonModal>
  );
}
