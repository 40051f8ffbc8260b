import {
  Alert,
  Anchor,
  Button,
  Loader,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconFileTypePdf, IconInfoCircle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, lazy, type ReactNode, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { parseWholeAmount, roundAndClamp } from '../../../../domain/loan/amount-rule';
import { amountOutOfRange } from '../../../../domain/loan/borrower-request';
import { toMinor } from '../../../../domain/money';
import { FormAlerts } from '../../../components/form-alerts';
import { InlineLoading, LoadError } from '../../../components/load-state';
import { SafetyNotice } from '../../../components/safety-notice';
import { useAfterFirstPaint } from '../../../lib/after-first-paint';
import { hasSavedDraft } from '../../../lib/application-draft/key';
import { errorInfoFrom, translateError } from '../../../lib/error-text';
import { onFirstInput } from '../../../lib/first-input';
import { formErrorsFromIssues, useFormErrors } from '../../../lib/form-errors';
import { amountInputText, useFormat } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';
import { useCurrentUser } from '../../../lib/session';
import { useSettings } from '../../../lib/settings';
import { myApplicationQuery, useMyApplication } from '../api/my-application';
import { type OfferedProduct, useOfferedProducts } from '../api/offered-products';
import { estimateDisclosure, type Step1Data } from '../model/step1';
import { ActiveLoanDialog, PreviousApplicationNote } from './current-application';
import { HowItWorks } from './how-it-works';
import { LoanBanner } from './loan-banner';
import { LoanFigures } from './loan-figures';
import { loadOpenLoanHome } from './open-loan-home-chunk';
import { ProductChoice, ProductLimitNote } from './product-choice';
import { StepHeader } from './step-header';
import classes from './step1-page.module.css';

const OpenLoanHome = lazy(() => loadOpenLoanHome().then((m) => ({ default: m.OpenLoanHome })));

/**
 * The step-1 phone rule (the shared loan-request schema's) and the draft store, both built with zod, which
 * nothing else on step 1's first load needs (~17 KiB gzip; docs/decisions/052): fetched at the borrower's
 * first key, tap or click on the form, or before the form is drawn when a draft is saved (its choices are
 * the form's first values). Apply waits for them if they are not in yet.
 */
const loadStep1Rules = () =>
  Promise.all([import('../../../../domain/loan/terms'), import('../draft/draft-store')]).then(
    ([terms, drafts]) =>
      (step1Rules = {
        phone: terms.loanRequestSchema.shape.phone,
        loadTextDraft: drafts.loadTextDraft,
        updateTextDraft: drafts.updateTextDraft,
      }),
  );
let step1Rules:
  | {
      phone: typeof import('../../../../domain/loan/terms')['loanRequestSchema']['shape']['phone'];
      loadTextDraft: typeof import('../draft/draft-store')['loadTextDraft'];
      updateTextDraft: typeof import('../draft/draft-store')['updateTextDraft'];
    }
  | undefined;

/** Tests start each case as a first visit: nothing fetched the rules yet (the modules stay loaded). */
export function forgetStep1Rules(): void {
  step1Rules = undefined;
}

/** True while a saved draft waits for the draft store (the form is drawn with the draft's choices). */
function useDraftPending(userId: string): boolean {
  const waiting = step1Rules === undefined && hasSavedDraft(userId);
  const [failed, setFailed] = useState(false);
  const [, setLoaded] = useState(false);
  useEffect(() => {
    if (!waiting) return;
    let live = true;
    loadStep1Rules().then(
      () => live && setLoaded(true),
      // Not fetched (offline): the form starts from the product's own values; the draft stays saved.
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [waiting]);
  return waiting && !failed;
}

/** /loan/application — step 1 of 2 (SPEC §2.4): amount, period and the full cost, then Apply. */
export function Step1Page() {
  const { t } = useTranslation();
  const mine = useMyApplication();
  const user = useCurrentUser();
  const draftPending = useDraftPending(user.id);
  // The time zone, and the products offered to this borrower with their terms: no figure before they are known.
  const settings = useSettings();
  const products = useOfferedProducts();
  const location = useLocation();
  // Sent back from step 2 because the chosen product changed or was retired meanwhile (docs/decisions/034).
  const notice = (location.state as { notice?: unknown } | null)?.notice;
  const open = mine.data && !mine.data.canApply ? mine.data.application : null;
  // Kept here, not in the form: the check that finds an open application also replaces the form with it,
  // and the notice must outlive that swap.
  const [blocked, setBlocked] = useState(false);
  const belowShown = useAfterFirstPaint();

  let body: ReactNode;
  const offered = products.data?.items;
  const pending = mine.isPending || settings.isPending || (!open && (products.isPending || draftPending));
  const spinner = <InlineLoading label={t('application.loading')} />;
  if (pending) {
    body = spinner;
  } else if (settings.isError) {
    body = <LoadError error={settings.error} onRetry={() => void settings.refetch()} />;
  } else if (open) {
    body = (
      <Suspense fallback={spinner}>
        <OpenLoanHome application={open} />
      </Suspense>
    );
  } else if (!offered) {
    body = <LoadError error={products.error} onRetry={() => void products.refetch()} />;
  } else if (offered.length === 0) {
    body = (
      <Alert variant="light" color="orange" icon={<IconInfoCircle size={18} />} role="note">
        {t('application.products.none')}
      </Alert>
    );
  } else {
    // Also when the check failed: Apply asks the server again before going on.
    body = (
      <>
        {typeof notice === 'string' ? (
          <Alert variant="light" color="orange" icon={<IconInfoCircle size={18} />} role="alert">
            {translateError(t, { code: notice })}
          </Alert>
        ) : null}
        {mine.data?.application ? <PreviousApplicationNote application={mine.data.application} /> : null}
        <LoanRequestForm
          products={offered}
          currency={settings.data.currency}
          timeZone={settings.data.timeZone}
          onBlocked={() => setBlocked(true)}
        />
      </>
    );
  }
  // An open application or a running loan: the home says where it stands, not "Step 1 of 2" (issue #32).
  if (open && !pending) {
    return (
      <Stack gap="lg">
        <Title order={2} size="h3">
          {t('application.home.title')}
        </Title>
        {body}
        <ActiveLoanDialog opened={blocked} onClose={() => setBlocked(false)} />
      </Stack>
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
  products,
  currency,
  timeZone,
  onBlocked,
}: {
  products: readonly OfferedProduct[];
  currency: string;
  timeZone: string;
  onBlocked: () => void;
}) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const user = useCurrentUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const errors = useFormErrors();
  // A reload (or Back from step 2) keeps what was chosen (the page waits for the draft store when one is saved).
  const saved = useMemo(
    () => (step1Rules && hasSavedDraft(user.id) ? step1Rules.loadTextDraft(user.id).step1 : null),
    [user.id],
  );
  // The product chosen before (a reload, Back from step 2) if still offered, else the first one.
  const [productId, setProductId] = useState(
    () => products.find((p) => p.productId === saved?.productId)?.productId ?? products[0]!.productId,
  );
  const product = products.find((p) => p.productId === productId) ?? products[0]!;
  const rule = product.borrowerAmount;
  const [phone, setPhone] = useState(saved?.phone ?? user.phone ?? '');
  const [amountText, setAmountText] = useState(
    amountInputText(roundAndClamp(saved?.amount ?? rule.min, rule)),
  );
  const [termMonths, setTermMonths] = useState(
    saved && product.termsMonths.includes(saved.termMonths) ? saved.termMonths : product.defaultTermMonths,
  );
  const [checking, setChecking] = useState(false);
  useEffect(() => onFirstInput(() => void loadStep1Rules().catch(() => {})), []);

  // The figures follow what the field will hold after blur: the typed amount rounded and clamped.
  const typed = parseWholeAmount(amountText);
  const amount = typed === null ? null : roundAndClamp(typed, rule);
  const disclosure = useMemo(
    () => (amount === null ? null : estimateDisclosure(amount, termMonths, { product, currency, timeZone })),
    [amount, termMonths, product, currency, timeZone],
  );

  // What the last blur changed, said under the field: an amount is never changed silently (issue #32).
  const [adjusted, setAdjusted] = useState<{ from: number; to: number } | null>(null);

  // SPEC §5: on blur the amount is rounded to the nearest step and clamped (and the borrower is told so);
  // text that is no amount stays.
  const snapAmount = () => {
    if (amount === null) {
      const { top, fields } = errors.errors;
      errors.set({ top, fields: { ...fields, amount: amountOutOfRange(rule) } });
      return;
    }
    if (typed !== null && typed !== amount) setAdjusted({ from: typed, to: amount });
    setAmountText(amountInputText(amount));
    errors.clearField('amount');
  };

  // Another product: its amounts and periods; what was typed is kept where it still fits.
  const chooseProduct = (next: OfferedProduct) => {
    setProductId(next.productId);
    setAmountText(amountInputText(roundAndClamp(amount ?? next.borrowerAmount.min, next.borrowerAmount)));
    if (!next.termsMonths.includes(termMonths)) setTermMonths(next.defaultTermMonths);
    errors.clearField('amount');
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    // Enter in the amount field submits without a blur: snap the amount the same way first.
    const snapped = amount;
    if (snapped !== null) setAmountText(amountInputText(snapped));
    if (typed !== null && snapped !== null && typed !== snapped) setAdjusted({ from: typed, to: snapped });
    // Apply as the very first tap: the rules are still on their way, and the button says it is busy (and
    // takes no second tap) until they are in. Otherwise they are, and nothing shows in between.
    let rules = step1Rules;
    if (rules === undefined) {
      setChecking(true);
      try {
        rules = await loadStep1Rules();
      } catch (error) {
        // Not fetched (offline): said as the failed check of the application below would say it.
        setChecking(false);
        errors.set({ top: errorInfoFrom(error, 'INTERNAL'), fields: {} });
        return;
      }
    }
    const parsed = rules.phone.safeParse(phone);
    if (!parsed.success || snapped === null) {
      setChecking(false);
      errors.set({
        top: { code: 'FORM_HAS_ERRORS' },
        fields: {
          ...(parsed.success
            ? {}
            : formErrorsFromIssues(parsed.error.issues.map((i) => ({ ...i, path: ['phone', ...i.path] })))
                .fields),
          ...(snapped === null ? { amount: amountOutOfRange(rule) } : {}),
        },
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
        phone: parsed.data,
        amount: snapped,
        termMonths,
        productId: product.productId,
        productVersionId: product.versionId,
        monthlyPaymentMinor: estimateDisclosure(snapped, termMonths, { product, currency, timeZone })
          .monthlyPaymentMinor,
      };
      rules.updateTextDraft(user.id, { step1 });
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
              {products.length > 1 ? (
                <ProductChoice
                  products={products}
                  value={product.productId}
                  onChange={chooseProduct}
                  disabled={checking}
                />
              ) : null}
              <TextInput
                label={t('application.step1.phone')}
                type="tel"
                inputMode="tel"
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
                description={
                  <>
                    {t('application.step1.amountHint', {
                      min: fmt.money(toMinor(rule.min), { omitZeroCents: true }),
                      max: fmt.money(toMinor(rule.max), { omitZeroCents: true }),
                      step: fmt.money(toMinor(rule.step), { omitZeroCents: true }),
                    })}
                    <ProductLimitNote product={product} />
                  </>
                }
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
                  setAdjusted(null);
                  errors.clearField('amount');
                }}
                onBlur={snapAmount}
                error={errors.field('amount')}
                disabled={checking}
              />
              {adjusted ? (
                <Alert
                  variant="light"
                  color="orange"
                  icon={<IconInfoCircle size={18} />}
                  role="status"
                  data-testid="amount-adjusted"
                  p="xs"
                >
                  {t('application.step1.amountAdjusted', {
                    from: fmt.money(toMinor(adjusted.from), { omitZeroCents: true }),
                    to: fmt.money(toMinor(adjusted.to), { omitZeroCents: true }),
                    min: fmt.money(toMinor(rule.min), { omitZeroCents: true }),
                    max: fmt.money(toMinor(rule.max), { omitZeroCents: true }),
                    step: fmt.money(toMinor(rule.step), { omitZeroCents: true }),
                  })}
                </Alert>
              ) : null}
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
                  href={`/api/applications/disclosure.pdf?amount=${disclosure.amountMinor / 100}&termMonths=${disclosure.termMonths}&productVersionId=${product.versionId}&lang=${currentLanguage()}`}
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
