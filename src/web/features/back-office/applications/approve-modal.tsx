import { Alert, Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { creditRating } from '../../../../domain/loan/credit-rating';
import { defaultLoanProduct } from '../../../../domain/loan/terms';
import { type ApplicationListItem, creditScoreSchema } from '../../../../domain/schemas/staff';
import { ApiError } from '../../../lib/api';
import { useErrorText } from '../../../lib/error-text';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { approveApplication, refreshAfterApplicationChange } from '../api/applications';
import { useFormat } from '../components/shared/format';

/** A race lost to another staff member (or a vanished record): tell, refresh, close. */
export function isDecisionGone(error: unknown): boolean {
  return error instanceof ApiError && (error.code === 'ALREADY_DECIDED' || error.code === 'NOT_FOUND');
}

export interface ApproveModalProps {
  row: ApplicationListItem | null;
  opened: boolean;
  onClose: () => void;
}

/** Approve: the credit score (pre-filled 500, rating shown live), then one atomic approval. */
export function ApproveModal({ row, opened, onClose }: ApproveModalProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [score, setScore] = useState<string | number>(defaultLoanProduct.defaultCreditScore);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (opened) {
      setScore(defaultLoanProduct.defaultCreditScore);
      setError(null);
    }
  }, [opened]);

  const parsed = creditScoreSchema.safeParse(score === '' ? undefined : score);
  const rating = parsed.success ? t(`backOffice.rating.${creditRating(parsed.data)}`) : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!row) return;
    if (!parsed.success) {
      setError(t('errors.CREDIT_SCORE_INVALID'));
      return;
    }
    setSaving(true);
    setError(null);
    try {
      const profile = await approveApplication(row.id, parsed.data);
      notifySuccess(t('backOffice.approve.success', { loanNumber: row.loanNumber }));
      await refreshAfterApplicationChange(queryClient, profile);
      onClose();
    } catch (caught) {
      const message = errorText(caught);
      if (isDecisionGone(caught)) {
        notifyError(message);
        void refreshAfterApplicationChange(queryClient);
        onClose();
      } else {
        setError(message);
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('backOffice.approve.title')} centered size="md">
      {row ? (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack gap="md">
            <Text size="sm">
              {t('backOffice.approve.description', {
                loanNumber: row.loanNumber,
                name: row.fullName,
                amount: fmt.money(row.amountMinor),
                term: t('backOffice.common.months', { count: row.termMonths }),
              })}
            </Text>
            <NumberInput
              label={t('backOffice.approve.creditScore')}
              description={t('backOffice.approve.creditScoreHint')}
              min={0}
              max={1000}
              step={1}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="none"
              value={score}
              onChange={(value) => {
                setScore(value);
                if (error) setError(null);
              }}
              data-autofocus
            />
            <Text size="sm" data-testid="credit-rating" aria-live="polite">
              {t('backOffice.approve.rating', { rating: rating ?? '—' })}
            </Text>
            {error ? (
              <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" py="xs">
                {error}
              </Alert>
            ) : null}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onClose} disabled={saving}>
                {t('backOffice.common.cancel')}
              </Button>
              <Button type="submit" color="green.8" loading={saving}>
                {t('backOffice.approve.confirm')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : null}
    </Modal>
  );
}
