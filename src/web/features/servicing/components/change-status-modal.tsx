import { Text, Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { limits } from '../../../../domain/schemas/limits';
import { ReasonModal } from '../../../components/reason-modal';
import { draftText, useFormDraft } from '../../../lib/form-draft';
import { notifySuccess } from '../../../lib/notify';
import { useChangeLoanStatus } from '../api/servicing';
import { Current, LoanLine, type ServicingModalProps } from './loan-line';

/** Change Status: put a running loan on hold (with a message the borrower sees) or release the hold. */
export function ChangeStatusModal({ loan, opened, onClose }: ServicingModalProps) {
  const { t } = useTranslation();
  const change = useChangeLoanStatus();
  const [message, setMessage] = useState('');
  const hold = loan?.status !== 'on_hold';
  // The message and the reason are kept while typed (issue #32), per loan and action.
  const draftKey = loan ? `servicing.${hold ? 'hold' : 'release'}:${loan.id}` : null;
  const draft = useFormDraft<{ message: string }>(opened ? draftKey : null);
  const kept = draftText(draft.restored?.message);
  // biome-ignore lint/correctness/useExhaustiveDependencies: kept is read once per opening
  useEffect(() => {
    if (opened) setMessage(kept);
  }, [opened]);

  return (
    <ReasonModal
      opened={opened}
      onClose={onClose}
      title={hold ? t('servicing.status.holdTitle') : t('servicing.status.releaseTitle')}
      description={
        loan ? (
          <LoanLine loan={loan}>
            {hold ? null : (
              <Current label={t('servicing.status.currentMessage')}>{loan.statusMessage || '—'}</Current>
            )}
            <Text size="sm" c="dimmed">
              {hold ? t('servicing.status.holdHelp') : t('servicing.status.releaseHelp')}
            </Text>
          </LoanLine>
        ) : undefined
      }
      confirmLabel={hold ? t('servicing.status.hold') : t('servicing.status.release')}
      confirmColor={hold ? 'red.7' : 'green.8'}
      draftKey={draftKey}
      onDraftDiscarded={() => setMessage('')}
      validate={() => (hold && !message.trim() ? t('servicing.status.messageRequired') : null)}
      onConfirm={async (reason) => {
        if (!loan) return;
        const body = hold
          ? { action: 'hold' as const, message: message.trim(), reason }
          : { action: 'release' as const, reason };
        const updated = await change.run({ id: loan.id, ...body });
        if (!updated) return;
        notifySuccess(
          hold
            ? t('servicing.status.heldToast', { loanNumber: loan.loanNumber })
            : t('servicing.status.releasedToast', { loanNumber: loan.loanNumber }),
        );
      }}
    >
      {hold ? (
        <Textarea
          label={t('servicing.status.message')}
          description={t('servicing.status.messageHint')}
          withAsterisk
          autosize
          minRows={2}
          maxRows={6}
          maxLength={limits.holdMessage}
          value={message}
          onChange={(event) => {
            setMessage(event.currentTarget.value);
            draft.save({ message: event.currentTarget.value });
          }}
        />
      ) : null}
    </ReasonModal>
  );
}
