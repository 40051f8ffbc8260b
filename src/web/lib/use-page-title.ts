import { useDocumentTitle } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';

/** The browser tab shows the page's title and the product name. */
export function usePageTitle(title: string): void {
  const { t } = useTranslation();
  useDocumentTitle(title ? `${title} · ${t('common.appName')}` : t('common.appName'));
}
