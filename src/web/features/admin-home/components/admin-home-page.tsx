import { Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../../lib/use-page-title';

/** /admin/home. The dashboard figures (SPEC §2.7) come with their API; only the title for now. */
export function AdminHomePage() {
  const { t } = useTranslation();
  usePageTitle(t('staff.home.title'));
  return (
    <Title order={1} size="h2">
      {t('staff.home.title')}
    </Title>
  );
}
