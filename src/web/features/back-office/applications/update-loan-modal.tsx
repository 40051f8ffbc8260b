import {
  Alert,
  Button,
  Group,
  Loader,
  Modal,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { defaultLoanProduct, makeStaffLoanUpdateSchema } from '../../../../domain/loan/terms';
import { MINOR_PER_MAJOR } from '../../../../domain/money';
import type { ApplicationListItem } from '../../../../domain/schemas/staff';
import { ApiError } from '../../../lib/api';
import { useErrorText } from '../../../lib/error-text';
import { notifyError, notifySuccess } from '../../../lib/notify';
import {
  applicationProfileQuery,
  type LoanQueue,
  refreshAfterApplicationChange,
  updateLoanTerms,
} from '../api/applications';
import { useFormat } from '../components/shared/format';
import { REASON_MAX_LENGTH } from '../components/shared/modals';
import { clampTypedAmount, minimumAmountCovering, monthlyPaymentFor } from './loan-terms';

const product = defaultLoanProduct;
const rule = product.staffAmount;
const updateSchema = makeStaffLoanUpdateSchema(product);
/** Grouped like "120,000": the domain parser reads it back in every language. */
const grouping = new Intl.NumberFormat('en-US');

export interface UpdateLoanModalProps {
  queue: LoanQueue;
  row: ApplicationListItem | null;
  opened: boolean;
  onClose: () => void;
}

/**
 * Update Loan (SPEC §2.7): amount in the staff range (clamped on blur) and term, with the monthly payment
 * recomputed live by the domain. On an approved loan the amount never goes below what was withdrawn.
 */
export function UpdateLoanModal({ queue, row, opened, onClose }: UpdateLoanModalProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  // The profile tells the loan's own rate and, for approved loans, what was already withdrawn.
  const profile = useQuery({ ...applicationProfileQuery(row?.id ?? ''), enabled: opened && Boolean(row) });
  const rateBp = profile.data?.monthlyRateBp ?? product.monthlyRateBp;
  const withdrawnMinor = queue === 'approved' ? (profile.data?.withdrawnMinor ?? 0) : 0;
  const waitingForWithdrawn = queue === 'approved' && !profile.data;

  const currentAmount = row ? (row.approvedAmountMinor ?? row.amountMinor) / MINOR_PER_MAJOR : 0;
  const [amountText, setAmountText] = useState('');
  const [termMonths, setTermMonths] = useState<number>(product.defaultTermMonths);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (opened && row) {
      setAmountText(grouping.format(currentAmount));
      setTermMonths(row.termMonths);
      setReason('');
      setError(null);
    }
  }, [opened, row, currentAmount]);

  const payment = monthlyPaymentFor(amountText, termMonths, rateBp, rule);
  const minimum = minimumAmountCovering(withdrawnMinor, rule);

  const onBlur = () => {
    const clamped = clampTypedAmount(amountText, rule, withdrawnMinor);
    if (clamped !== null) setAmountText(grouping.format(clamped));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!row) return;
    const parsed = updateSchema.safeParse({ amount: amountText, termMonths });
    if (!parsed.success) {
      setError(t('errors.LOAN_UPDATE_INVALID'));
      return;
    }
    if (parsed.data.amount * MINOR_PER_MAJOR < withdrawnMinor) {
      setError(
        t('errors.AMOUNT_BELOW_WITHDRAWN', {
          amount: fmt.money(withdrawnMinor),
        }),
      );
      return;
    }
    setSaving(true);
    setError(null);
    try {
      const updated = await updateLoanTerms(queue, row.id, {
        amount: parsed.data.amount,
        termMonths: parsed.data.termMonths,
        ...(reason.trim() ? { reason: reason.trim() } : {}),
      });
      notifySuccess(t('backOffice.update.success', { loanNumber: row.loanNumber }));
      await refreshAfterApplicationChange(queryClient, updated);
      onClose();
    } catch (caught) {
      const message = errorText(caught);
      if (caught instanceof ApiError && (caught.code === 'ALREADY_DECIDED' || caught.code === 'NOT_FOUND')) {
        // Someone else decided it meanwhile: nothing to update here any more.
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
    <Modal opened={opened} onClose={onClose} title={t('backOffice.update.title')} centered size="md">
      {row ? (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack gap="md">
            <Text size="sm">
              {t('backOffice.update.description', {
                loanNumber: row.loanNumber,
                name: row.fullName,
              })}
            </Text>
            <TextInput
              label={t('backOffice.update.amount')}
              description={t('backOffice.update.amountHint', {
                min: fmt.money(rule.min * MINOR_PER_MAJOR, { omitZeroCents: true }),
                max: fmt.money(rule.max * MINOR_PER_MAJOR, { omitZeroCents: true }),
                step: fmt.money(rule.step * MINOR_PER_MAJOR, { omitZeroCents: true }),
              })}
              inputMode="numeric"
              autoComplete="off"
              leftSection={<Text size="sm">₱</Text>}
              value={amountText}
              onChange={(event) => {
                setAmountText(event.currentTarget.value);
                if (error) setError(null);
              }}
              onBlur={onBlur}
              rightSection={waitingForWithdrawn && profile.isFetching ? <Loader size="xs" /> : null}
            />
            {queue === 'approved' ? (
              <Text size="sm" c="dimmed" data-testid="withdrawn-note">
                {waitingForWithdrawn
                  ? t('common.loading')
                  : t('backOffice.update.withdrawn', {
                      amount: fmt.money(withdrawnMinor),
                      minimum: fmt.money(minimum * MINOR_PER_MAJOR, { omitZeroCents: true }),
                    })}
              </Text>
            ) : null}
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {t('backOffice.update.term')}
              </Text>
              <SegmentedControl
                fullWidth
                value={String(termMonths)}
                onChange={(value) => setTermMonths(Number(value))}
                data={product.termsMonths.map((months) => ({
                  value: String(months),
                  label: t('backOffice.common.months', { count: months }),
                }))}
                aria-label={t('backOffice.update.term')}
              />
            </Stack>
            <Paper
              withBorder
              p="sm"
              radius="md"
              bg="light-dark(var(--mantine-color-gray-0), var(--mantine-color-dark-6))"
            >
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text size="sm">{t('backOffice.update.monthlyPayment')}</Text>
                <Text fw={700} size="lg" data-testid="monthly-payment" aria-live="polite">
                  {payment === null ? '—' : fmt.money(payment)}
                </Text>
              </Group>
              <Text size="xs" c="dimmed">
                {t('backOffice.update.rateNote', {
                  rate: fmt.percent(rateBp / 10_000),
                })}
              </Text>
            </Paper>
            <Textarea
              label={t('backOffice.update.reason')}
              description={t('backOffice.update.reasonHint')}
              autosize
              minRows={2}
              maxRows={5}
              maxLength={REASON_MAX_LENGTH}
              value={reason}
              onChange={(event) => setReason(event.currentTarget.value)}
            />
            {error ? (
              <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" py="xs">
                {error}
              </Alert>
            ) : null}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onClose} disabled={saving}>
                {t('backOffice.common.cancel')}
              </Button>
              <Button type="submit" loading={saving} disabled={waitingForWithdrawn}>
                {t('backOffice.update.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : null}
    </Modal>
  );
}
