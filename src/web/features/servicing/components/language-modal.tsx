import { Select } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Language, languages } from '../../../../domain/languages';
import { ReasonModal } from '../../../components/reason-modal';
import { fieldErrorText } from '../../../lib/error-text';
import { notifySuccess } from '../../../lib/notify';
import { useChangeBorrowerLanguage } from '../api/servicing';
import { LoanLine, type ServicingModalProps } from './loan-line';

/**
 * Change SMS Language (officer, admin; issue #36): the language a borrower asked to be sent their codes,
 * reminders and complaint replies in. The borrower's own language switch in the app changes it too.
 */
export function LanguageModal({ loan, opened, onClose }: ServicingModalProps) {
  const { t } = useTranslation();
  const change = useChangeBorrowerLanguage();
  const [language, setLanguage] = useState<Language | null>(null);
  useEffect(() => {
    if (opened) setLanguage(null);
  }, [opened]);
  const label = t('servicing.language.label');
  return (
    <ReasonModal
      opened={opened}
      onClose={onClose}
      title={t('servicing.language.title')}
      description={loan ? <LoanLine loan={loan} /> : undefined}
      validate={() => (language ? null : fieldErrorText(t, 'language', 'FIELD_REQUIRED'))}
      onConfirm={async (reason) => {
        if (!loan || !language) return;
        const updated = await change.run({ id: loan.id, language, reason });
        if (updated)
          notifySuccess(
            t('servicing.language.toast', { name: loan.fullName, language: t(`languages.${language}`) }),
          );
      }}
    >
      <Select
        label={label}
        description={t('servicing.language.hint')}
        withAsterisk
        allowDeselect={false}
        data={languages.map((value) => ({ value, label: t(`languages.${value}`) }))}
        value={language}
        onChange={(value) => setLanguage(languages.find((l) => l === value) ?? null)}
      />
    </ReasonModal>
  );
}
