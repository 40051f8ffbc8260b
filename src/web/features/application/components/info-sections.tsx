import { Divider, NativeSelect, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import type { ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { contactRelations } from '../../../../domain/schemas/application';
import type { InfoField, PictureField } from '../model/validate';
import { PictureField as PictureInput } from './picture-field';
import type { ApplicationForm } from './use-application-form';

export interface SectionProps {
  form: ApplicationForm;
  /** The translated message under a field, or null. */
  errorText: (field: InfoField | PictureField | 'signature') => string | null;
  disabled: boolean;
}

/** The props every text field of step 2 shares: label, value, change, visited and its message. */
function useTextField({ form, errorText, disabled }: SectionProps) {
  const { t } = useTranslation();
  return (field: InfoField) => ({
    label: t(`fields.${field}`),
    value: form.values[field],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
      form.setValue(field, event.currentTarget.value),
    onBlur: () => form.touch(field),
    error: errorText(field),
    disabled,
    name: field,
  });
}

export function IdentitySection(props: SectionProps) {
  const { t } = useTranslation();
  const text = useTextField(props);
  const { form, errorText, disabled } = props;
  return (
    <Stack gap="sm">
      <TextInput {...text('fullName')} autoComplete="name" />
      <TextInput {...text('idNumber')} autoComplete="off" />
      {(['idFront', 'idBack', 'selfie'] as const).map((field) => (
        <PictureInput
          key={field}
          label={t(`fields.${field}`)}
          value={form.pictures[field]}
          error={errorText(field)}
          disabled={disabled}
          onPick={(file) => void form.pickPicture(field, file)}
          onRemove={() => form.removePicture(field)}
        />
      ))}
    </Stack>
  );
}

export function BasicSection(props: SectionProps) {
  const { t } = useTranslation();
  const text = useTextField(props);
  const pesos = { inputMode: 'numeric' as const, description: t('application.hints.pesos') };
  return (
    <Stack gap="sm">
      <TextInput {...text('companyName')} autoComplete="organization" />
      <TextInput {...text('position')} autoComplete="organization-title" />
      <TextInput {...text('phone')} type="tel" inputMode="tel" autoComplete="tel" />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <TextInput {...text('income')} {...pesos} />
        <TextInput {...text('monthlyExpense')} {...pesos} />
      </SimpleGrid>
      <Textarea {...text('address')} autosize minRows={2} maxRows={5} autoComplete="street-address" />
      <TextInput
        {...text('email')}
        type="email"
        autoComplete="email"
        description={t('application.step2.optional')}
      />
      <Divider
        mt="xs"
        labelPosition="left"
        label={
          <Text size="sm" fw={700} c="var(--mantine-color-text)">
            {t('application.step2.otherContact')}
          </Text>
        }
      />
      <TextInput {...text('contactName')} autoComplete="off" />
      <TextInput {...text('contactPhone')} type="tel" inputMode="tel" autoComplete="off" />
      <Textarea {...text('contactAddress')} autosize minRows={2} maxRows={5} autoComplete="off" />
      <NativeSelect
        {...text('contactRelation')}
        data={[
          { value: '', label: t('application.step2.relationPlaceholder'), disabled: true },
          ...contactRelations.map((relation) => ({
            value: relation,
            label: t(`application.step2.relations.${relation}`),
          })),
        ]}
      />
    </Stack>
  );
}

export function BankSection(props: SectionProps) {
  const { t } = useTranslation();
  const text = useTextField(props);
  return (
    <Stack gap="sm">
      <TextInput {...text('bankName')} autoComplete="off" />
      <TextInput
        {...text('accountNumber')}
        inputMode="numeric"
        autoComplete="off"
        description={t('application.hints.digits')}
      />
    </Stack>
  );
}
