import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertCircle, IconCircleCheck, IconCurrencyPeso } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toMinor } from '../../../../domain/money';
import {
  type WalletResponse,
  type WithdrawalPreviewResponse,
  withdrawalCodeRequest,
  withdrawalRequest,
} from '../../../../domain/schemas/wallet';
import { CodeField } from '../../../components/code-field';
import { SafetyNotice } from '../../../components/safety-notice';
import { ApiError } from '../../../lib/api';
import { translateError, useErrorText } from '../../../lib/error-text';
import {
  type FormErrors,
  formErrorsFromError,
  formErrorsFromIssues,
  useFormErrors,
} from '../../../lib/form-errors';
import { useFormat } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useCurrentUser } from '../../../lib/session';
import { useResendCountdown } from '../../../lib/use-countdown';
import {
  useSendWithdrawalCode,
  useWithdraw,
  useWithdrawalPreview,
  walletQueryKey,
  withdrawalPreviewKey,
} from '../api/wallet-api';
import { newIdempotencyKey } from '../lib/idempotency-key';
import { canWithdraw } from '../lib/wallet-status';
import { type PreviewState, WithdrawalPreview } from './withdrawal-preview';

const fieldNames = ['amount', 'code'] as const;
const amountAndCode = withdrawalRequest.pick({ amount: true, code: true });

/** Errors that mean the wallet on screen is out of date (balance used up, loan put on hold, …). */
const staleWalletCodes = new Set([
  'AMOUNT_EXCEEDS_BALANCE',
  'WITHDRAWALS_PAUSED',
  'LOAN_NOT_FOUND',
  'WITHDRAWAL_PERIOD_ENDED',
  'WITHDRAWAL_PREVIEW_OUTDATED',
  'WITHDRAWAL_PLAN_CHANGED',
]);

/** How long the amount must stay unchanged before its preview is asked for. */
export const PREVIEW_DEBOUNCE_MS = 400;

interface Attempt {
  amount: number;
  code: string;
  key: string;
}

/** The amount as typed, checked as the server will: a whole amount within the balance, or why not. */
function checkAmount(
  text: string,
  availableMinor: number,
): { amount: number } | { error: 'AMOUNT_INVALID' | 'AMOUNT_EXCEEDS_BALANCE' } | null {
  if (text.trim() === '') return null;
  const parsed = withdrawalCodeRequest.safeParse({ amount: text });
  if (!parsed.success) {
    const code = parsed.error.issues[0]?.message;
    return { error: code === 'AMOUNT_EXCEEDS_BALANCE' ? code : 'AMOUNT_INVALID' };
  }
  if (toMinor(parsed.data.amount) > availableMinor) return { error: 'AMOUNT_EXCEEDS_BALANCE' };
  return { amount: parsed.data.amount };
}

/** Only the fields' own messages: client-side checks never need a form-wide alert. */
function fieldsOnly(errors: FormErrors): FormErrors {
  return { top: null, fields: errors.fields };
}

/**
 * Withdraw to the loan's account (SPEC §2.5, §4): amount in whole pesos; what it does to the borrower's
 * payments (re-disclosure, issue #10), shown before a code can be sent; a code sent to the borrower's own
 * phone for that amount and those figures; then Withdraw. One idempotency key per attempt, reused when
 * the same attempt is sent again (e.g. after a network error), so a retry can never withdraw twice.
 */
export function WithdrawForm(props: { wallet: WalletResponse }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const format = useFormat();
  const queryClient = useQueryClient();
  const user = useCurrentUser();
  const sendCode = useSendWithdrawalCode();
  const withdraw = useWithdraw();
  const countdown = useResendCountdown();
  // The withdrawal just requested, said in the form until the borrower starts another (issue #32: not a
  // toast alone), and only while it waits: once finance pays or fails it, the Withdrawals list says so.
  const [requested, setRequested] = useState<{ id: string; amountMinor: number } | null>(null);
  const errors = useFormErrors();
  const codeInput = useRef<HTMLInputElement>(null);
  const attempt = useRef<Attempt | null>(null);
  /** The amount the last code was sent for; the amount is locked meanwhile, since the code is bound to it. */
  const [codeAmount, setCodeAmount] = useState<number | null>(null);
  /** The figures the last code was sent for: they stay on screen while the code is in use. */
  const [boundPreview, setBoundPreview] = useState<WithdrawalPreviewResponse | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { amount: '', code: '' },
    onValuesChange: (values, previous) => {
      for (const name of fieldNames) if (values[name] !== previous[name]) errors.clearField(name);
    },
  });

  const { application, balance } = props.wallet;
  const available = balance?.availableMinor ?? 0;
  const enabled = canWithdraw(props.wallet);
  const busy = sendCode.isPending || withdraw.isPending;

  // The preview follows the amount once it has stayed the same for a moment and is one the server accepts.
  const amountText = form.getValues().amount;
  const [settledText] = useDebouncedValue(amountText, PREVIEW_DEBOUNCE_MS);
  const settled = checkAmount(settledText, available);
  const previewAmount = settled && 'amount' in settled && enabled ? settled.amount : null;
  const preview = useWithdrawalPreview(codeAmount === null ? previewAmount : null);
  const typing = settledText !== amountText;
  const shown =
    preview.data && previewAmount !== null && preview.data.amountMinor === toMinor(previewAmount)
      ? preview.data
      : null;
  const previewReady = !typing && !preview.isFetching && preview.isSuccess && shown !== null;
  const previewState: PreviewState = boundPreview
    ? { kind: 'ready', preview: boundPreview }
    : previewAmount === null || (typing && !preview.isFetching && shown === null)
      ? { kind: 'idle' }
      : preview.isFetching || typing
        ? { kind: 'loading' }
        : preview.isError
          ? {
              kind: 'error',
              message: errorText(preview.error, 'NETWORK'),
              onRetry:
                preview.error instanceof ApiError && !preview.error.isTransport
                  ? null
                  : () => void preview.refetch(),
            }
          : shown
            ? { kind: 'ready', preview: shown }
            : { kind: 'idle' };
  // An amount the server would refuse is said at once, without waiting for "Send code".
  const liveAmountError =
    settled && 'error' in settled && !typing ? translateError(t, { code: settled.error }) : null;

  const refreshIfStale = (error: unknown) => {
    if (error instanceof ApiError && staleWalletCodes.has(error.code)) {
      void queryClient.invalidateQueries({ queryKey: walletQueryKey });
    }
  };

  /** Client-side "Amount exceeds balance"; the server checks again under a lock. */
  const overBalance = (amount: number): boolean => toMinor(amount) > available;

  const reset = () => {
    form.reset();
    errors.clear();
    setCodeAmount(null);
    setBoundPreview(null);
    attempt.current = null;
  };

  /** The figures changed on the server: show the new ones and let the borrower ask for a code again. */
  const reviewAgain = () => {
    setCodeAmount(null);
    setBoundPreview(null);
    form.setFieldValue('code', '');
    attempt.current = null;
    void queryClient.invalidateQueries({ queryKey: withdrawalPreviewKey(previewAmount) });
  };

  const onSendCode = () => {
    const parsed = withdrawalCodeRequest.safeParse({ amount: form.getValues().amount });
    if (!parsed.success) {
      errors.set(fieldsOnly(formErrorsFromIssues(parsed.error.issues)));
      return;
    }
    const { amount } = parsed.data;
    if (overBalance(amount)) {
      errors.set({ top: null, fields: { amount: { code: 'AMOUNT_EXCEEDS_BALANCE' } } });
      return;
    }
    // A code is only ever asked for the figures on the screen (the button waits for them).
    if (!previewReady || !shown || shown.amountMinor !== toMinor(amount)) return;
    const figures = shown;
    sendCode.mutate(
      { amount, planDigest: figures.planDigest },
      {
        onSuccess: (sent) => {
          errors.clear();
          setRequested(null);
          setCodeAmount(amount);
          setBoundPreview(figures);
          form.setFieldValue('code', '');
          countdown.sent(sent.resendAfterSeconds);
          notifySuccess(t('wallet.withdraw.codeSent', { last4: (user.phone ?? '').slice(-4) }));
          codeInput.current?.focus();
        },
        onError: (error) => {
          const next = formErrorsFromError(error, 'NETWORK');
          countdown.refused(next);
          errors.set(next);
          refreshIfStale(error);
        },
      },
    );
  };

  const onSubmit = form.onSubmit((values) => {
    const parsed = amountAndCode.safeParse(values);
    if (!parsed.success) {
      errors.set(fieldsOnly(formErrorsFromIssues(parsed.error.issues)));
      return;
    }
    const { amount, code } = parsed.data;
    if (overBalance(amount)) {
      errors.set({ top: null, fields: { amount: { code: 'AMOUNT_EXCEEDS_BALANCE' } } });
      return;
    }
    // Same amount and code as the last unanswered try: the same attempt, so the same key.
    const previous = attempt.current;
    const current =
      previous && previous.amount === amount && previous.code === code
        ? previous
        : { amount, code, key: newIdempotencyKey() };
    attempt.current = current;
    errors.clear();
    withdraw.mutate(
      { amount, code, idempotencyKey: current.key },
      {
        onSuccess: (result) => {
          reset();
          setRequested({ id: result.disbursement.id, amountMinor: result.disbursement.amountMinor });
          notifySuccess(
            t('wallet.withdraw.success', { amount: format.money(result.disbursement.amountMinor) }),
          );
        },
        onError: (error) => {
          // The code is cleared first: a changed field would take the message away with it.
          if (error instanceof ApiError && error.code === 'WITHDRAWAL_PLAN_CHANGED') reviewAgain();
          errors.set(formErrorsFromError(error, 'NETWORK'));
          refreshIfStale(error);
        },
      },
    );
  });

  if (!application || !balance) return null;

  // On hold: the status panel says "Withdrawals are paused: …"; there is nothing to fill in.
  if (application.status !== 'approved') return null;

  const locked = codeAmount !== null;

  return (
    <Paper withBorder radius="lg" p="md" component="section" aria-labelledby="withdraw-title">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4" id="withdraw-title">
            {t('wallet.withdraw.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('wallet.withdraw.destination', {
              bank: application.bankName,
              last4: application.accountNumberLast4,
            })}
          </Text>
          {enabled ? null : (
            <Alert color="gray" variant="light">
              {t('wallet.withdraw.nothingLeft')}
            </Alert>
          )}
          {requested !== null &&
          (props.wallet.disbursements.find((d) => d.id === requested.id)?.status ?? 'requested') ===
            'requested' ? (
            <Alert
              color="green"
              variant="light"
              icon={<IconCircleCheck size={18} />}
              role="status"
              data-testid="withdrawal-requested"
              withCloseButton
              closeButtonLabel={t('wallet.dismiss')}
              onClose={() => setRequested(null)}
            >
              {t('wallet.withdraw.requested', {
                amount: format.money(requested.amountMinor),
                bank: application.bankName,
                last4: application.accountNumberLast4,
              })}
            </Alert>
          ) : null}
          <TextInput
            label={t('wallet.withdraw.amount')}
            description={
              locked
                ? t('wallet.withdraw.amountLocked')
                : t('wallet.withdraw.available', { amount: format.money(available) })
            }
            inputMode="numeric"
            autoComplete="off"
            leftSection={<IconCurrencyPeso size={16} />}
            readOnly={locked}
            disabled={!enabled || busy}
            {...form.getInputProps('amount')}
            error={errors.field('amount') ?? liveAmountError}
          />
          {enabled ? <WithdrawalPreview state={previewState} bound={boundPreview !== null} /> : null}
          <CodeField
            inputRef={codeInput}
            label={t('wallet.withdraw.code')}
            description={
              locked && codeAmount !== null
                ? t('wallet.withdraw.codeFor', { amount: format.money(toMinor(codeAmount)) })
                : t('wallet.withdraw.codeHint')
            }
            autoComplete="one-time-code"
            disabled={!enabled || withdraw.isPending}
            value={form.getValues().code}
            onChange={(code) => form.setFieldValue('code', code)}
            error={errors.field('code')}
            sendLabel={t('wallet.withdraw.sendCode')}
            resendLabel={(n) => t('wallet.withdraw.resendIn', { n })}
            secondsLeft={countdown.remaining}
            sending={sendCode.isPending}
            sendDisabled={!enabled || withdraw.isPending || !previewReady}
            onSend={onSendCode}
            align="center"
          />
          <SafetyNotice />
          {errors.alert ? (
            <Alert
              color="red"
              variant="light"
              icon={<IconAlertCircle size={18} />}
              role="alert"
              withCloseButton
              closeButtonLabel={t('wallet.dismiss')}
              onClose={errors.clear}
            >
              {errors.alert}
            </Alert>
          ) : null}
          <Group grow gap="sm" mt={4}>
            <Button variant="default" size="md" onClick={reset} disabled={withdraw.isPending}>
              {t('wallet.withdraw.cancel')}
            </Button>
            <Button
              type="submit"
              size="md"
              loading={withdraw.isPending}
              disabled={!enabled || sendCode.isPending}
            >
              {t('wallet.withdraw.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
