import { IconCircleCheckFilled, IconCircleDashed } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** The complete mark of a step-2 section (SPEC §2.4); its name is read out with the section's title. */
export function SectionMark({ complete }: { complete: boolean }) {
  const { t } = useTranslation();
  const label = complete ? t('application.step2.complete') : t('application.step2.notComplete');
  return (
    <span
      role="img"
      aria-label={label}
      title={label}
      style={{
        display: 'inline-flex',
        flexShrink: 0,
        color: complete ? 'var(--mantine-color-green-7)' : 'var(--mantine-color-gray-5)',
      }}
    >
      {complete ? <IconCircleCheckFilled size={22} /> : <IconCircleDashed size={22} />}
    </span>
  );
}
