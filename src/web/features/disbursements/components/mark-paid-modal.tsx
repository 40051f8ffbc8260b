import { Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { limits } from '../../../../domain/schemas/limits';
import { FormModal } from '../../../components/modals';
import { useFormat } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useCan } from '../../../lib/session';
import { useMarkDisbursementPaid } from '../api/disbursements';
import { FullDestination } from './full-destination';
import { PayoutLine, type PayoutModalProps } from './payout-line';

/** Mark Paid: the transfer reference is required ("A transfer reference is required."). */
export function MarkPaidModal({ row, opened, onClose }: PayoutModalProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const markPaid = useMarkDisbursementPaid();
  const canReveal = useCan()('disbursement.revealDestination');
  const [reference, setReference] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  useEffect(() => {
    if (opened) {
      setReference('');
      setFieldError(null);
    }
  }, [opened]);

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={t('disbursements.paid.title')}
      confirmLabel={t('disbursements.paid.confirm')}
      confirmColor="green.8"
      validate={() => {
        if (reference.trim()) return null;
        setFieldError(t('errors.REFERENCE_REQUIRED'));
        return true;
      }}
      onConfirm={async () => {
        if (!row) return;
        const paid = await markPaid.run({ id: row.id, reference: reference.trim() });
        if (paid)
          notifySuccess(
            t('disbursements.paid.toast', { amount: fmt.money(row.netMinor), loanNumber: row.loanNumber }),
          );
      }}
    >
      {row ? (
        <>
          <PayoutLine row={row} />
          {canReveal ? <FullDestination row={row} /> : null}
          <Text size="sm" c="dimmed">
            {t('disbursements.paid.help')}
          </Text>
          <TextInput
            label={t('disbursements.paid.reference')}
            withAsterisk
            autoComplete="off"
            maxLength={limits.payoutReference}
            value={reference}
            error={fieldError}
            data-autofocus
            onChange={(event) => {
              setReference(event.currentTarget.value);
              if (fieldError) setFieldError(null);
            }}
          />
        </>
      ) : null}
    </FormModal>
  );
}
