import {
  Anchor,
  Button,
  Center,
  Loader,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconFileTypePdf } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  type LoanProduct,
  makeLoanRequestSchema,
  parseWholeAmount,
  type RepaymentRules,
  roundAndClamp,
} from '../../../../domain/loan';
import { toMinor } from '../../../../domain/money';
import { FormAlerts } from '../../../components/form-alerts';
import { LoadError } from '../../../components/load-state';
import { SafetyNotice } from '../../../components/safety-notice';
import { useAfterFirstPaint } from '../../../lib/after-first-paint';
import { errorInfoFrom } from '../../../lib/error-text';
import { formErrorsFromIssues, useFormErrors } from '../../../lib/form-errors';
import { amountInputText, useFormat } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';
import { useCurrentUser } from '../../../lib/session';
import { useSettings } from '../../../lib/settings';
import { myApplicationQuery, useMyApplication } from '../api/applications';
import { loadTextDraft, updateTextDraft } from '../draft/draft-store';
import { estimateDisclosure, type Step1Data } from '../model/step1';
import { ActiveLoanDialog, CurrentApplication, PreviousApplicationNote } from './current-application';
import { HowItWorks } from './how-it-works';
import { LoanBanner } from './loan-banner';
import { LoanFigures } from './loan-figures';
import { StepHeader } from './step-header';
import classes from './step1-page.module.css';

/** /loan/application — step 1 of 2 (SPEC §2.4): amount, period and the full cost, then Apply. */
export function Step1Page() {
  const { t } = useTranslation();
  const mine = useMyApplication();
  // The lender's own rate, fees and time zone: no figure is shown before they are known.
  const settings = useSettings();
  const open = mine.data && !mine.data.canApply ? mine.data.application : null;
  // Kept here, not in the form: the check that finds an open application also replaces the form with it,
  // and the notice must outlive that swap.
  const [blocked, setBlocked] = useState(false);
  const belowShown = useAfterFirstPaint();

  let body: ReactNode;
  const pending = mine.isPending || settings.isPending;
  if (pending) {
    body = (
      <Center py="xl" role="status">
        <Loader size="sm" aria-label={t('application.loading')} />
      </Center>
    );
  } else if (settings.isError) {
    body = <LoadError error={settings.error} onRetry={() => void settings.refetch()} />;
  } else if (open) {
    body = <CurrentApplication application={open} />;
  } else {
    // Also when the check failed: Apply asks the server again before going on.
    body = (
      <>
        {mine.data?.application ? <PreviousApplicationNote application={mine.data.application} /> : null}
        <LoanRequestForm
          product={settings.data.loanProduct}
          rules={settings.data.repayments}
          timeZone={settings.data.timeZone}
          onBlocked={() => setBlocked(true)}
        />
      </>
    );
  }
  return (
    <Stack gap="lg">
      <LoanBanner />
      <StepHeader step={1} title={t('application.step1.title')} subtitle={t('application.step1.subtitle')} />
      {body}
      {/* Shown with the form, not before it: below a spinner they would be pushed down (a layout shift).
          Drawn just after the first screen (lib/after-first-paint.ts): they are below the Apply button. */}
      {pending || !belowShown ? null : (
        <>
          <HowItWorks />
          <SafetyNotice />
        </>
      )}
      <ActiveLoanDialog opened={blocked} onClose={() => setBlocked(false)} />
    </Stack>
  );
}

function LoanRequestForm({
  product,
  rules,
  timeZone,
  onBlocked,
}: {
  product: LoanProduct;
  rules: RepaymentRules;
  timeZone: string;
  onBlocked: () => void;
}) {
  const rule = product.borrowerAmount;
  const { t } = useTranslation();
  const fmt = useFormat();
  const user = useCurrentUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const errors = useFormErrors();
  // A reload (or Back from step 2) keeps what was chosen.
  const saved = useMemo(() => loadTextDraft(user.id).step1, [user.id]);
  const [phone, setPhone] = useState(saved?.phone ?? user.phone ?? '');
  const [amountText, setAmountText] = useState(amountInputText(saved?.amount ?? rule.min));
  const [termMonths, setTermMonths] = useState(
    saved && product.termsMonths.includes(saved.termMonths) ? saved.termMonths : product.defaultTermMonths,
  );
  const requestSchema = useMemo(() => makeLoanRequestSchema(product), [product]);
  const [checking, setChecking] = useState(false);

  // The figures follow what the field will hold after blur: the typed amount rounded and clamped.
  const typed = parseWholeAmount(amountText);
  const amount = typed === null ? null : roundAndClamp(typed, rule);
  const disclosure = useMemo(
    () => (amount === null ? null : estimateDisclosure(amount, termMonths, { product, rules, timeZone })),
    [amount, termMonths, product, rules, timeZone],
  );

  // SPEC §5: on blur the amount is rounded to the nearest step and clamped; text that is no amount stays.
  const snapAmount = () => {
    if (amount === null) {
      const { top, fields } = errors.errors;
      errors.set({ top, fields: { ...fields, amount: { code: 'LOAN_AMOUNT_INVALID' } } });
      return;
    }
    setAmountText(amountInputText(amount));
    errors.clearField('amount');
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    // Enter in the amount field submits without a blur: snap the amount the same way first.
    const snapped = amount;
    if (snapped !== null) setAmountText(amountInputText(snapped));
    const parsed = requestSchema.safeParse({ phone, amount: snapped ?? amountText, termMonths });
    if (!parsed.success) {
      errors.set({
        top: { code: 'FORM_HAS_ERRORS' },
        fields: formErrorsFromIssues(parsed.error.issues).fields,
      });
      return;
    }
    errors.clear();
    setChecking(true);
    try {
      const status = await queryClient.fetchQuery({
        ...myApplicationQuery,
        staleTime: 0,
      });
      if (!status.canApply) {
        onBlocked();
        return;
      }
      const step1: Step1Data = {
        ...parsed.data,
        monthlyPaymentMinor: estimateDisclosure(parsed.data.amount, parsed.data.termMonths, {
          product,
          rules,
          timeZone,
        }).monthlyPaymentMinor,
      };
      updateTextDraft(user.id, { step1 });
      navigate('/loan/info', { state: { step1 } });
    } catch (error) {
      errors.set({ top: errorInfoFrom(error, 'INTERNAL'), fields: {} });
    } finally {
      setChecking(false);
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Paper withBorder radius="lg" p="md">
            <Stack gap="md">
              <TextInput
                label={t('application.step1.phone')}
                type="tel"
                inputMode="numeric"
                autoComplete="tel"
                value={phone}
                onChange={(event) => {
                  setPhone(event.currentTarget.value);
                  errors.clearField('phone');
                }}
                error={errors.field('phone')}
                disabled={checking}
              />
              <TextInput
                label={t('application.step1.amount')}
                description={t('application.step1.amountHint', {
                  min: fmt.money(toMinor(rule.min), { omitZeroCents: true }),
                  max: fmt.money(toMinor(rule.max), { omitZeroCents: true }),
                  step: fmt.money(toMinor(rule.step), { omitZeroCents: true }),
                })}
                inputMode="numeric"
                autoComplete="off"
                leftSection={
                  <Text size="sm" fw={600}>
                    ₱
                  </Text>
                }
                value={amountText}
                onChange={(event) => {
                  setAmountText(event.currentTarget.value);
                  errors.clearField('amount');
                }}
                onBlur={snapAmount}
                error={errors.field('amount')}
                disabled={checking}
              />
              <div>
                <Text component="div" size="sm" fw={500} id="loan-term-label" mb={4}>
                  {t('application.step1.term')}
                </Text>
                <SegmentedControl
                  fullWidth
                  aria-labelledby="loan-term-label"
                  value={String(termMonths)}
                  onChange={(value) => setTermMonths(Number(value))}
                  disabled={checking}
                  data={product.termsMonths.map((n) => ({
                    value: String(n),
                    label: (
                      // The space keeps the accessible name "12 months".
                      <span className={classes.term}>
                        <span className={classes.termNumber}>{n}</span>{' '}
                        <span className={classes.termUnit}>{t('application.monthsUnit')}</span>
                      </span>
                    ),
                  }))}
                />
              </div>
              <Paper radius="md" p="sm" bg="var(--mantine-primary-color-light)" aria-live="polite">
                <Text size="sm" c="dimmed">
                  {t('application.step1.monthlyEstimate')}
                </Text>
                <Text fz={26} fw={800} c="brand" lh={1.3} data-testid="monthly-estimate">
                  {disclosure ? fmt.money(disclosure.monthlyPaymentMinor) : '-'}
                </Text>
              </Paper>
            </Stack>
          </Paper>
          <Paper withBorder radius="lg" p="md" component="section" aria-labelledby="loan-summary-title">
            <Title order={3} size="h4" id="loan-summary-title" mb={4}>
              {t('application.summary.title')}
            </Title>
            {disclosure ? (
              <>
                <LoanFigures disclosure={disclosure} />
                <Text size="xs" c="dimmed" mt="xs">
                  {t('application.summary.note')}
                </Text>
                {/* A plain link: the server writes the PDF from the same figures; no PDF code in the page. */}
                <Anchor
                  href={`/api/applications/disclosure.pdf?amount=${disclosure.amountMinor / 100}&termMonths=${disclosure.termMonths}&lang=${currentLanguage()}`}
                  download
                  size="sm"
                  fw={600}
                  mt="xs"
                  display="inline-flex"
                  style={{ alignItems: 'center', gap: 6 }}
                >
                  <IconFileTypePdf size={16} aria-hidden="true" />
                  {t('application.disclosurePdf')}
                </Anchor>
              </>
            ) : (
              <Text size="sm" c="dimmed">
                {t('application.summary.enterAmount')}
              </Text>
            )}
          </Paper>
        </SimpleGrid>
        <FormAlerts error={errors.alert} />
        <Button
          type="submit"
          size="md"
          fullWidth
          className={classes.apply}
          disabled={checking || phone.trim() === ''}
          leftSection={checking ? <Loader size={16} color="currentColor" /> : null}
        >
          {checking ? t('application.step1.checking') : t('application.step1.apply')}
        </Button>
      </Stack>
    </form>
  );
}
