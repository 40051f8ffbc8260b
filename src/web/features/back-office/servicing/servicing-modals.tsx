import { Group, Loader, NumberInput, Paper, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { creditRating } from '../../../../domain/loan/credit-rating';
import { defaultLoanProduct, makeStaffLoanUpdateSchema } from '../../../../domain/loan/terms';
import { MINOR_PER_MAJOR } from '../../../../domain/money';
import {
  type ApplicationProfile,
  creditScoreSchema,
  type ServicingItem,
} from '../../../../domain/schemas/staff';
import { ApiError } from '../../../lib/api';
import { useErrorText } from '../../../lib/error-text';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { applicationProfileQuery, refreshAfterApplicationChange } from '../api/applications';
import { clampTypedAmount, minimumAmountCovering, monthlyPaymentFor } from '../applications/loan-terms';
import { useFormat } from '../components/shared/format';
import { ReasonModal } from '../components/shared/modals';
import { StatusBadge } from '../components/shared/status-badge';
import { maskedDestination } from './account-mask';
import {
  changeBankDetails,
  changeCreditScore,
  changeLoanAmount,
  changeLoanStatus,
  messageBorrower,
  resetBorrowerPassword,
} from './servicing-api';
import { TemporaryPasswordModal } from './temporary-password-modal';

/** Longest texts the server takes (domain/schemas/staff.ts). */
const HOLD_MESSAGE_MAX = 300;
const BORROWER_MESSAGE_MAX = 1000;
const BANK_NAME_MAX = 80;
const ACCOUNT_NUMBER_MAX = 34;

const rule = defaultLoanProduct.staffAmount;
const amountSchema = makeStaffLoanUpdateSchema(defaultLoanProduct).shape.amount;
/** Grouped like "120,000": the domain parser reads it back in every language. */
const grouping = new Intl.NumberFormat('en-US');

export interface ServicingModalProps {
  loan: ServicingItem | null;
  opened: boolean;
  onClose: () => void;
}

/**
 * Runs a servicing change: success toast and every list re-read. When the list was out of date (the loan
 * already has that status, or is no longer running) the server's message is a red toast, the lists
 * refresh and the modal closes; any other error stays in the modal.
 */
function useServicingChange() {
  const queryClient = useQueryClient();
  const errorText = useErrorText();
  return async <T,>(
    call: () => Promise<T>,
    success: (result: T) => string,
    profile?: (result: T) => ApplicationProfile,
  ) => {
    try {
      const result = await call();
      notifySuccess(success(result));
      await refreshAfterApplicationChange(queryClient, profile?.(result));
      return result;
    } catch (error) {
      if (
        error instanceof ApiError &&
        ['STATUS_UNCHANGED', 'LOAN_NOT_FOUND', 'NOT_FOUND'].includes(error.code)
      ) {
        notifyError(errorText(error));
        void refreshAfterApplicationChange(queryClient);
        return null;
      }
      throw error;
    }
  };
}

/** Loan number, borrower and status at the top of every servicing modal. */
function LoanLine({ loan, children }: { loan: ServicingItem; children?: ReactNode }) {
  return (
    <Stack gap={6}>
      <Group gap="xs" wrap="wrap">
        <Text span ff="monospace" size="sm" fw={600}>
          {loan.loanNumber}
        </Text>
        <Text span size="sm">
          {loan.fullName}
        </Text>
        <StatusBadge status={loan.status} size="sm" />
      </Group>
      {children}
    </Stack>
  );
}

/** A labelled current value in a tinted box ("Currently: …"). */
function Current(props: { label: string; children: ReactNode }) {
  return (
    <Paper
      withBorder
      p="xs"
      radius="md"
      bg="light-dark(var(--mantine-color-gray-0), var(--mantine-color-dark-6))"
    >
      <Text size="xs" c="dimmed">
        {props.label}
      </Text>
      <Text size="sm" fw={500} component="div" style={{ overflowWrap: 'anywhere' }}>
        {props.children}
      </Text>
    </Paper>
  );
}

/** Change Status: put a running loan on hold (with a message the borrower sees) or release the hold. */
export function ChangeStatusModal({ loan, opened, onClose }: ServicingModalProps) {
  const { t } = useTranslation();
  const change = useServicingChange();
  const [message, setMessage] = useState('');
  const hold = loan?.status !== 'on_hold';
  useEffect(() => {
    if (opened) setMessage('');
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
      validate={() => (hold && !message.trim() ? t('servicing.status.messageRequired') : null)}
      onConfirm={async (reason) => {
        if (!loan) return;
        await change(
          () =>
            changeLoanStatus(
              loan.id,
              hold ? { action: 'hold', message: message.trim(), reason } : { action: 'release', reason },
            ),
          () =>
            hold
              ? t('servicing.status.heldToast', { loanNumber: loan.loanNumber })
              : t('servicing.status.releasedToast', { loanNumber: loan.loanNumber }),
          (profile) => profile,
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
          maxLength={HOLD_MESSAGE_MAX}
          value={message}
          onChange={(event) => setMessage(event.currentTarget.value)}
        />
      ) : null}
    </ReasonModal>
  );
}

/** Change Bank Details (finance, admin): the current account masked to its last 4 digits. */
export function BankDetailsModal({ loan, opened, onClose }: ServicingModalProps) {
  const { t } = useTranslation();
  const change = useServicingChange();
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
        if (!bankName.trim()) return t('errors.FIELD_REQUIRED', { field: bankLabel });
        if (!accountNumber.trim()) return t('errors.FIELD_REQUIRED', { field: accountLabel });
        return null;
      }}
      onConfirm={async (reason) => {
        if (!loan) return;
        await change(
          () => changeBankDetails(loan.id, { bankName: bankName.trim(), accountNumber, reason }),
          () => t('servicing.bank.toast', { loanNumber: loan.loanNumber }),
          (updated) => updated,
        );
      }}
    >
      <TextInput
        label={bankLabel}
        withAsterisk
        maxLength={BANK_NAME_MAX}
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
        maxLength={ACCOUNT_NUMBER_MAX}
        value={accountNumber}
        onChange={(event) => setAccountNumber(event.currentTarget.value.replace(/\D+/g, ''))}
      />
    </ReasonModal>
  );
}

/** Change Credit Score (officer, admin): 0–1000 with the rating shown live. */
export function CreditScoreModal({ loan, opened, onClose }: ServicingModalProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const change = useServicingChange();
  const [score, setScore] = useState<string | number>('');
  useEffect(() => {
    if (opened) setScore(loan?.creditScore ?? defaultLoanProduct.defaultCreditScore);
  }, [opened, loan]);
  const parsed = creditScoreSchema.safeParse(score === '' ? undefined : score);
  const rating = parsed.success ? t(`backOffice.rating.${creditRating(parsed.data)}`) : '—';

  return (
    <ReasonModal
      opened={opened}
      onClose={onClose}
      title={t('servicing.creditScore.title')}
      description={
        loan ? (
          <LoanLine loan={loan}>
            <Current label={t('servicing.creditScore.current')}>
              {loan.creditScore === null
                ? fmt.na
                : `${fmt.number(loan.creditScore)} · ${t(`backOffice.rating.${creditRating(loan.creditScore)}`)}`}
            </Current>
          </LoanLine>
        ) : undefined
      }
      validate={() => (parsed.success ? null : t('errors.CREDIT_SCORE_INVALID'))}
      onConfirm={async (reason) => {
        if (!loan || !parsed.success) return;
        await change(
          () => changeCreditScore(loan.id, { creditScore: parsed.data, reason }),
          () =>
            t('servicing.creditScore.toast', { loanNumber: loan.loanNumber, score: fmt.number(parsed.data) }),
          (updated) => updated,
        );
      }}
    >
      <NumberInput
        label={t('servicing.creditScore.label')}
        description={t('servicing.creditScore.hint')}
        withAsterisk
        min={0}
        max={1000}
        step={1}
        allowDecimal={false}
        allowNegative={false}
        clampBehavior="none"
        value={score}
        onChange={setScore}
      />
      <Text size="sm" data-testid="credit-rating" aria-live="polite">
        {t('servicing.creditScore.rating', { rating })}
      </Text>
    </ReasonModal>
  );
}

/** Message Borrower (officer, admin): shown in the borrower's status panel history. */
export function MessageModal({ loan, opened, onClose }: ServicingModalProps) {
  const { t } = useTranslation();
  const change = useServicingChange();
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
        await change(
          () => messageBorrower(loan.id, { message: message.trim(), reason }),
          () => t('servicing.message.toast', { name: loan.fullName }),
          (updated) => updated,
        );
      }}
    >
      <Textarea
        label={label}
        description={t('servicing.message.hint')}
        withAsterisk
        autosize
        minRows={3}
        maxRows={8}
        maxLength={BORROWER_MESSAGE_MAX}
        value={message}
        onChange={(event) => setMessage(event.currentTarget.value)}
      />
    </ReasonModal>
  );
}

/**
 * Change Amount (officer, admin): the staff range in steps, clamped on blur, never below what is already
 * withdrawn; the term stays and the monthly payment is recomputed by the domain.
 */
export function AmountModal({ loan, opened, onClose }: ServicingModalProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const change = useServicingChange();
  const profile = useQuery({ ...applicationProfileQuery(loan?.id ?? ''), enabled: opened && Boolean(loan) });
  const withdrawnMinor = profile.data?.withdrawnMinor ?? 0;
  const [amountText, setAmountText] = useState('');
  useEffect(() => {
    if (opened && loan) setAmountText(grouping.format(loan.approvedAmountMinor / MINOR_PER_MAJOR));
  }, [opened, loan]);

  const payment = profile.data
    ? monthlyPaymentFor(amountText, profile.data.termMonths, profile.data.monthlyRateBp, rule)
    : null;
  const minimum = minimumAmountCovering(withdrawnMinor, rule);
  const label = t('servicing.amount.label');

  return (
    <ReasonModal
      opened={opened}
      onClose={onClose}
      title={t('servicing.amount.title')}
      description={
        loan ? (
          <LoanLine loan={loan}>
            <Current label={t('servicing.amount.current')}>{fmt.money(loan.approvedAmountMinor)}</Current>
          </LoanLine>
        ) : undefined
      }
      validate={() => {
        if (!profile.data) return t('common.loading');
        const parsed = amountSchema.safeParse(amountText);
        if (!parsed.success) return t('errors.LOAN_UPDATE_INVALID');
        if (parsed.data * MINOR_PER_MAJOR < withdrawnMinor)
          return t('errors.AMOUNT_BELOW_WITHDRAWN', {
            amount: fmt.money(withdrawnMinor),
          });
        return null;
      }}
      onConfirm={async (reason) => {
        const parsed = amountSchema.safeParse(amountText);
        if (!loan || !parsed.success) return;
        await change(
          () => changeLoanAmount(loan.id, { amount: parsed.data, reason }),
          () =>
            t('servicing.amount.toast', {
              loanNumber: loan.loanNumber,
              amount: fmt.money(parsed.data * MINOR_PER_MAJOR),
            }),
          (updated) => updated,
        );
      }}
    >
      <TextInput
        label={label}
        description={t('servicing.amount.hint', {
          min: fmt.money(rule.min * MINOR_PER_MAJOR, { omitZeroCents: true }),
          max: fmt.money(rule.max * MINOR_PER_MAJOR, { omitZeroCents: true }),
          step: fmt.money(rule.step * MINOR_PER_MAJOR, { omitZeroCents: true }),
        })}
        withAsterisk
        inputMode="numeric"
        autoComplete="off"
        leftSection={<Text size="sm">₱</Text>}
        rightSection={profile.isFetching && !profile.data ? <Loader size="xs" /> : null}
        value={amountText}
        onChange={(event) => setAmountText(event.currentTarget.value)}
        onBlur={() => {
          const clamped = clampTypedAmount(amountText, rule, withdrawnMinor);
          if (clamped !== null) setAmountText(grouping.format(clamped));
        }}
      />
      <Text size="sm" c="dimmed" data-testid="withdrawn-note">
        {profile.data
          ? t('servicing.amount.withdrawn', {
              amount: fmt.money(withdrawnMinor),
              minimum: fmt.money(minimum * MINOR_PER_MAJOR, { omitZeroCents: true }),
            })
          : t('common.loading')}
      </Text>
      {profile.data ? (
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="sm">
            {t('servicing.amount.monthlyPayment', {
              term: t('backOffice.common.months', { count: profile.data.termMonths }),
            })}
          </Text>
          <Text fw={700} data-testid="monthly-payment" aria-live="polite">
            {payment === null ? '—' : fmt.money(payment)}
          </Text>
        </Group>
      ) : null}
    </ReasonModal>
  );
}

/**
 * Reset Password (admin): asks for the reason, then shows the temporary password once. The borrower's
 * sessions end and they must choose a new password at next login.
 */
export function ResetPasswordModal({ loan, opened, onClose }: ServicingModalProps) {
  const { t } = useTranslation();
  const change = useServicingChange();
  const [password, setPassword] = useState<string | null>(null);
  return (
    <>
      <ReasonModal
        opened={opened}
        onClose={onClose}
        title={t('servicing.resetPassword.title')}
        description={
          loan ? (
            <LoanLine loan={loan}>
              <Text size="sm" c="dimmed">
                {t('servicing.resetPassword.help')}
              </Text>
            </LoanLine>
          ) : undefined
        }
        confirmLabel={t('servicing.resetPassword.confirm')}
        confirmColor="red.7"
        onConfirm={async (reason) => {
          if (!loan) return;
          const result = await change(
            () => resetBorrowerPassword(loan.id, { reason }),
            () => t('servicing.resetPassword.toast', { name: loan.fullName }),
          );
          if (result) setPassword(result.temporaryPassword);
        }}
      />
      <TemporaryPasswordModal
        password={password}
        owner={loan ? `${loan.fullName} (${loan.loanNumber})` : ''}
        onClose={() => setPassword(null)}
      />
    </>
  );
}
