import {
  Alert,
  Button,
  Checkbox,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconInfoCircle } from '@tabler/icons-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { limits } from '../../../../domain/schemas/limits';
import type { ProductTermsInput } from '../../../../domain/schemas/products';
import { ApiError } from '../../../lib/api';
import { translateError } from '../../../lib/error-text';
import {
  type FieldProblem,
  formFieldOf,
  type ProductFormValues,
  readProductForm,
} from '../model/product-form';

export interface ProductFormProps {
  initial: ProductFormValues;
  /** A new product asks for its code; an edit shows the reason box instead. */
  mode: 'create' | 'edit';
  submitLabel: string;
  /** Above the form, e.g. "Saving makes version 3". */
  note?: ReactNode;
  onCancel: () => void;
  /** Resolves when saved (the caller moves on); throws an ApiError to show the server's reasons. */
  onSubmit: (input: { code: string; terms: ProductTermsInput; reason: string }) => Promise<unknown>;
}

/**
 * The product's terms, grouped as a lender thinks of them: names, amounts, periods, price, approval, who may
 * borrow how much. Every check runs before anything is sent (the domain's own rules, legal ceilings
 * included), and the server's answer lands on the same fields.
 */
export function ProductForm(props: ProductFormProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<ProductFormValues>(props.initial);
  const [problems, setProblems] = useState<Record<string, FieldProblem>>({});
  const [top, setTop] = useState<FieldProblem | null>(null);
  const [saving, setSaving] = useState(false);

  const set = <K extends keyof ProductFormValues>(key: K, value: ProductFormValues[K]) =>
    setValues((current) => ({ ...current, [key]: value }));
  const error = (field: string) => {
    const problem = problems[field];
    return problem ? translateError(t, problem) : undefined;
  };
  const text = (key: keyof ProductFormValues, label: string, field: string, extra: object = {}) => (
    <TextInput
      label={label}
      value={values[key] as string}
      onChange={(event) => set(key, event.currentTarget.value as never)}
      error={error(field)}
      disabled={saving}
      autoComplete="off"
      {...extra}
    />
  );
  const numeric = { inputMode: 'decimal' as const };
  /** A group's inputs are outlined in red; its one message is shown under them. */
  const outlined = (field: string) => ({ ...numeric, error: problems[field] ? true : undefined });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    // The first field that needs a change, once the messages are drawn: it may be far above the button.
    const focusFirstProblem = () =>
      requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
    const read = readProductForm(values);
    if (!read.terms) {
      setProblems(read.problems);
      setTop({ code: 'PRODUCT_INVALID' });
      focusFirstProblem();
      return;
    }
    setProblems({});
    setTop(null);
    setSaving(true);
    try {
      await props.onSubmit({ code: values.code.trim(), terms: read.terms, reason: values.reason.trim() });
    } catch (caught) {
      if (caught instanceof ApiError && !caught.isTransport) {
        const fields: Record<string, FieldProblem> = {};
        for (const [key, field] of Object.entries(caught.fields)) {
          const name = formFieldOf(key);
          if (!(name in fields)) fields[name] = { code: field.code, params: field.params };
        }
        setProblems(fields);
        setTop({ code: caught.code, params: caught.params });
        focusFirstProblem();
      } else {
        setTop({ code: 'INTERNAL' });
      }
    } finally {
      setSaving(false);
    }
  };

  const section = (title: string, children: ReactNode, hint?: string) => (
    <Paper withBorder radius="md" p="md" component="section">
      <Title order={2} size="h4" mb={hint ? 2 : 'sm'}>
        {title}
      </Title>
      {hint ? (
        <Text size="sm" c="dimmed" mb="sm">
          {hint}
        </Text>
      ) : null}
      {children}
    </Paper>
  );
  const amountRule = (prefix: 'borrower' | 'staff', field: string) => (
    <>
      <SimpleGrid cols={3} spacing="xs">
        {text(`${prefix}Min`, t('products.form.min'), '', outlined(field))}
        {text(`${prefix}Max`, t('products.form.max'), '', outlined(field))}
        {text(`${prefix}Step`, t('products.form.step'), '', outlined(field))}
      </SimpleGrid>
      {error(field) ? (
        <Text size="sm" c="red" mt={4} role="alert">
          {error(field)}
        </Text>
      ) : null}
    </>
  );

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {props.note}
        {section(
          t('products.form.identity'),
          <Stack gap="sm">
            {props.mode === 'create'
              ? text('code', t('products.form.code'), 'code', {
                  description: t('products.form.codeHint'),
                  withAsterisk: true,
                })
              : null}
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              {text('nameEn', t('products.form.nameEn'), 'names.en', { lang: 'en' })}
              {text('nameFil', t('products.form.nameFil'), 'names.fil', { lang: 'fil' })}
              {text('nameZh', t('products.form.nameZh'), 'names.zh', { lang: 'zh' })}
              {text('nameKm', t('products.form.nameKm'), 'names.km', { lang: 'km' })}
            </SimpleGrid>
          </Stack>,
        )}
        {section(
          t('products.form.amounts'),
          <Stack gap="sm">
            <Text size="sm" fw={500}>
              {t('products.form.borrowerAmount')}
            </Text>
            {amountRule('borrower', 'borrowerAmount')}
            <Text size="sm" fw={500}>
              {t('products.form.staffAmount')}
            </Text>
            {amountRule('staff', 'staffAmount')}
          </Stack>,
        )}
        {section(
          t('products.form.periods'),
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {text('terms', t('products.form.terms'), 'termsMonths', {
              description: t('products.form.termsHint'),
            })}
            {text('defaultTerm', t('products.form.defaultTerm'), 'defaultTermMonths', {
              inputMode: 'numeric',
            })}
          </SimpleGrid>,
        )}
        {section(
          t('products.form.price'),
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
              {text('monthlyRate', t('products.form.monthlyRate'), 'monthlyRateBp', numeric)}
              {text('feeFlat', t('products.form.feeFlat'), 'fees.flatMinor', numeric)}
              {text('feePercent', t('products.form.feePercent'), 'fees.percentBp', numeric)}
              {text('lateCharge', t('products.form.lateCharge'), 'lateChargeMonthlyBp', numeric)}
              {text('graceDays', t('products.form.graceDays'), 'graceDays', { inputMode: 'numeric' })}
            </SimpleGrid>
            <Text size="sm">{t('products.form.feeCollection')}</Text>
          </Stack>,
          t('products.form.ceilingsNote'),
        )}
        {section(
          t('products.form.approval'),
          text('fourEyes', t('products.form.fourEyes'), 'fourEyesThresholdMinor', {
            ...numeric,
            description: t('products.form.fourEyesHint'),
          }),
        )}
        {section(
          t('products.form.eligibility'),
          <Stack gap="sm">
            {text('firstLoanMax', t('products.form.firstLoanMax'), 'eligibility.firstLoanMaxAmount', numeric)}
            <Checkbox
              label={t('products.form.repeat')}
              checked={values.repeat}
              onChange={(event) => set('repeat', event.currentTarget.checked)}
              disabled={saving}
            />
            {values.repeat ? (
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                {text(
                  'repeatAfterLoans',
                  t('products.form.repeatAfterLoans'),
                  'eligibility.repeat.afterLoans',
                  {
                    inputMode: 'numeric',
                  },
                )}
                {text(
                  'repeatMaxDaysLate',
                  t('products.form.repeatMaxDaysLate'),
                  'eligibility.repeat.maxDaysLate',
                  { inputMode: 'numeric' },
                )}
                {text('repeatMax', t('products.form.repeatMax'), 'eligibility.repeat.maxAmount', numeric)}
              </SimpleGrid>
            ) : null}
          </Stack>,
          t('products.form.eligibilityHint'),
        )}
        {props.mode === 'edit' ? (
          <Textarea
            label={t('products.form.reason')}
            autosize
            minRows={2}
            maxRows={5}
            maxLength={limits.reason}
            value={values.reason}
            onChange={(event) => set('reason', event.currentTarget.value)}
            disabled={saving}
          />
        ) : null}
        {top ? (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
            {translateError(t, top)}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={props.onCancel} disabled={saving}>
            {t('products.form.cancel')}
          </Button>
          <Button type="submit" loading={saving}>
            {props.submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** "Saving makes version N; loans already signed keep their terms." */
export function VersionNote({ next }: { next: number }) {
  const { t } = useTranslation();
  return (
    <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />}>
      {t('products.form.editNote', { n: next })}
    </Alert>
  );
}
