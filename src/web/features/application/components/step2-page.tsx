import { toMinor } from '../../../../domain/money';
import '../../../lib/styles/all';
import { Accordion, Alert, Anchor, Button, Group, Loader, Paper, Progress, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconAlertTriangle, IconArrowLeft, IconDeviceFloppy } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import type { ApplicationSection, MyApplicationDto } from '../../../../domain/schemas/application';
import { PageLoading } from '../../../components/load-state';
import { ApiError } from '../../../lib/api';
import { draftFileStore } from '../../../lib/application-draft/file-store';
import { fieldErrorText, useErrorText } from '../../../lib/error-text';
import { useFormat } from '../../../lib/format';
import { useCurrentUser } from '../../../lib/session';
import { quoteQueryKey, useQuote, useSubmitApplication } from '../api/applications';
import { type OfferedProduct, offeredProductsQueryKey, useOfferedProducts } from '../api/offered-products';
import { clearDraft, loadTextDraft } from '../draft/draft-store';
import { offeredFor, productName, type Step1Data } from '../model/step1';
import { step1FromState } from '../model/step1-data';
import { type FieldName, sectionOf } from '../model/validate';
import classes from './application-form.module.css';
import { ActiveLoanDialog } from './current-application';
import { DisclosureStatement } from './disclosure-statement';
import { BankSection, BasicSection, IdentitySection, type SectionProps } from './info-sections';
import { SectionMark } from './section-mark';
import { SignaturePadField } from './signature-pad';
import { StepHeader } from './step-header';
import { SubmittedDialog } from './submitted-dialog';
import { useApplicationForm } from './use-application-form';

/**
 * /loan/info — step 2 of 2 (SPEC §2.4). Needs the step-1 choices from router state or the saved draft;
 * without them it goes back to step 1.
 */
export function Step2Page() {
  const user = useCurrentUser();
  const location = useLocation();
  const step1 = useMemo(
    () => step1FromState(location.state) ?? loadTextDraft(user.id).step1,
    [location.state, user.id],
  );
  // A draft made under a product version no longer offered (a new version, retired) or an amount or period
  // it no longer allows goes back to step 1 to choose again.
  const products = useOfferedProducts();
  if (!step1) return <Navigate to="/loan/application" replace />;
  if (products.isPending) return <PageLoading />;
  const product = products.data ? offeredFor(step1, products.data.items) : null;
  if (!product) return <Navigate to="/loan/application" replace />;
  return (
    <ApplicationForm
      userId={user.id}
      step1={{ ...step1, productId: product.productId, productVersionId: product.versionId }}
      product={product}
    />
  );
}

function ApplicationForm({
  userId,
  step1,
  product,
}: {
  userId: string;
  step1: Step1Data & { productVersionId: string };
  product: OfferedProduct;
}) {
  const { t, i18n } = useTranslation();
  const fmt = useFormat();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const errorText = useErrorText();
  const quote = useQuote(step1.amount, step1.termMonths, step1.productVersionId);
  const fileStore = useMemo(() => draftFileStore(), []);
  const form = useApplicationForm({
    userId,
    step1,
    fileStore,
    quoteSha256: quote.data?.disclosureSha256,
  });
  const submit = useSubmitApplication();
  const [opened, setOpened] = useState<string[]>(['identity']);
  const [alert, setAlert] = useState<string | null>(null);
  const [blocked, setBlocked] = useState(false);
  const [submitted, setSubmitted] = useState<MyApplicationDto | null>(null);
  const submitting = submit.isPending;

  const fieldText = (field: FieldName) => {
    const error = form.errorOf(field);
    return error ? fieldErrorText(t, field, error) : null;
  };

  // A section the borrower opened and closed again shows what is missing in it from then on.
  const onOpenedChange = (next: string[]) => {
    for (const section of opened)
      if (!next.includes(section)) form.touchSection(section as ApplicationSection);
    setOpened(next);
  };

  const reveal = (sections: ApplicationSection[]) => {
    for (const section of sections) form.touchSection(section);
    setOpened((current) => [...new Set([...current, ...sections])]);
    const first = sections[0];
    if (first) {
      requestAnimationFrame(() =>
        document.getElementById(`section-${first}`)?.scrollIntoView({ behavior: 'smooth', block: 'start' }),
      );
    }
  };

  const onError = (error: unknown) => {
    const api = error instanceof ApiError && !error.isTransport ? error : null;
    if (api?.code === 'ACTIVE_LOAN_EXISTS') {
      setBlocked(true);
      return;
    }
    if (api?.code === 'TERMS_CHANGED') {
      // Show the new terms and ask for a new signature under them.
      form.voidSignature();
      void queryClient.invalidateQueries({
        queryKey: quoteQueryKey(step1.amount, step1.termMonths, step1.productVersionId),
      });
      reveal(['signature']);
      return;
    }
    if (api?.code === 'PRODUCT_TERMS_UPDATED' || api?.code === 'PRODUCT_NOT_OFFERED') {
      // The product changed or was retired meanwhile: back to step 1, which says so, to choose again.
      void queryClient.invalidateQueries({ queryKey: offeredProductsQueryKey });
      navigate('/loan/application', { state: { notice: api.code } });
      return;
    }
    const names = Object.keys(api?.fields ?? {});
    if (api && names.length > 0) {
      form.setServerErrors(
        Object.fromEntries(
          names.map((name) => {
            const field = api.fields[name]!;
            return [name, { code: field.code, params: field.params, message: field.message }];
          }),
        ),
      );
      const sections = [...new Set(names.map(sectionOf).filter((s) => s !== null))];
      if (sections.length > 0) reveal(sections);
      const shown = names.filter((name) => sectionOf(name)).map((name) => api.fields[name]!.code);
      // Say it once: the form-wide message only when no field already says the same.
      setAlert(shown.length === names.length && shown.includes(api.code) ? null : errorText(api));
      return;
    }
    setAlert(errorText(error, 'SUBMIT_FAILED'));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (form.incomplete.length > 0 || !quote.data || submitting) return;
    const body = form.formData(quote.data.disclosureSha256);
    if (!body) return;
    setAlert(null);
    submit.mutate(body, {
      onSuccess: (application) => {
        form.finish();
        void clearDraft(userId, fileStore);
        setSubmitted(application);
      },
      onError,
    });
  };

  const sectionProps: SectionProps = { form, errorText: fieldText, disabled: submitting };
  const sectionBodies: Record<ApplicationSection, ReactNode> = {
    identity: <IdentitySection {...sectionProps} />,
    basic: <BasicSection {...sectionProps} />,
    bank: <BankSection {...sectionProps} />,
    signature: (
      <Stack gap="md">
        {form.termsChanged ? (
          <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
            {t('errors.TERMS_CHANGED')}
          </Alert>
        ) : null}
        <DisclosureStatement quote={quote} />
        <SignaturePadField
          label={t('fields.signature')}
          value={form.signature}
          disabled={!quote.isSuccess || submitting}
          disabledReason={quote.isSuccess ? undefined : t('application.signature.waiting')}
          error={fieldText('signature')}
          onChange={form.setSignature}
        />
      </Stack>
    ),
  };
  const canSubmit = form.incomplete.length === 0 && quote.isSuccess && !submitting;
  const back = () => navigate('/loan/application');

  return (
    <Stack gap="lg" className={classes.page}>
      <div>
        <Button
          variant="subtle"
          px={4}
          leftSection={<IconArrowLeft size={18} />}
          onClick={back}
          disabled={submitting}
        >
          {t('application.step2.back')}
        </Button>
      </div>
      <StepHeader step={2} title={t('application.step2.title')} subtitle={t('application.step2.subtitle')} />
      <Paper withBorder radius="lg" p="sm" className={classes.summary}>
        <Text fw={700}>{productName(product, i18n.language)}</Text>
        <Text fw={700}>{fmt.money(toMinor(step1.amount))}</Text>
        <Text c="dimmed">{t('application.termMonths', { n: step1.termMonths })}</Text>
        <Text fw={600} c="brand">
          {t('application.perMonth', { amount: fmt.money(step1.monthlyPaymentMinor) })}
        </Text>
      </Paper>
      <Group gap={6} wrap="nowrap" align="flex-start">
        <IconDeviceFloppy size={16} aria-hidden="true" style={{ flexShrink: 0, marginTop: 2 }} />
        <Text size="xs" c="dimmed">
          {t('application.step2.draftNote')}
        </Text>
      </Group>
      {form.filesNotKept ? (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />}>
          {t('application.step2.filesNotKept')}
        </Alert>
      ) : null}
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <Accordion
            multiple
            variant="separated"
            radius="lg"
            value={opened}
            onChange={onOpenedChange}
            classNames={{
              root: classes.accordion,
              item: classes.item,
              content: classes.content,
              control: classes.control,
            }}
          >
            {form.sections.map((section) => (
              <Accordion.Item key={section} value={section} id={`section-${section}`}>
                <Accordion.Control>
                  <Group justify="space-between" wrap="nowrap" gap="sm">
                    <Text fw={700}>{t(`application.step2.sections.${section}`)}</Text>
                    <SectionMark complete={form.complete(section)} />
                  </Group>
                </Accordion.Control>
                <Accordion.Panel>{sectionBodies[section]}</Accordion.Panel>
              </Accordion.Item>
            ))}
          </Accordion>
          {alert ? (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
              {alert}
            </Alert>
          ) : null}
          {form.incomplete.length > 0 ? (
            <Stack gap={4}>
              <Text size="sm" c="dimmed">
                {t('errors.SECTIONS_INCOMPLETE')}
              </Text>
              <Group gap="xs">
                <Text size="sm">{t('application.step2.stillToDo')}</Text>
                {form.incomplete.map((section) => (
                  <Anchor
                    key={section}
                    component="button"
                    type="button"
                    size="sm"
                    onClick={() => reveal([section])}
                  >
                    {t(`application.step2.sections.${section}`)}
                  </Anchor>
                ))}
              </Group>
            </Stack>
          ) : null}
          {submitting ? <Progress value={100} striped animated size="sm" aria-hidden="true" /> : null}
          <Group gap="sm" wrap="nowrap">
            <Button variant="default" size="md" onClick={back} disabled={submitting}>
              {t('application.step2.back')}
            </Button>
            <Button
              type="submit"
              size="md"
              flex={1}
              disabled={!canSubmit}
              leftSection={submitting ? <Loader size={16} color="currentColor" /> : null}
            >
              {submitting ? t('application.step2.submitting') : t('application.step2.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
      <ActiveLoanDialog opened={blocked} onClose={() => setBlocked(false)} />
      <SubmittedDialog application={submitted} onClose={() => navigate('/wallet')} />
    </Stack>
  );
}
