import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../lib/i18n';

/**
 * The statement of account (PDF) of the borrower's paid-out loan, in the language the borrower reads the
 * app in. A plain link: the browser downloads it with the session cookie. Prominent once the loan is paid
 * in full, a quiet link while it runs.
 */
export function StatementDownload(props: { prominent: boolean }) {
  const { t } = useTranslation();
  return (
    <Button
      component="a"
      href={`/api/wallet/statement.pdf?lang=${currentLanguage()}`}
      download
      variant={props.prominent ? 'filled' : 'subtle'}
      size={props.prominent ? 'sm' : 'xs'}
      px={props.prominent ? undefined : 0}
      w="fit-content"
      leftSection={<IconDownload size={16} />}
    >
      {t('wallet.statement.download')}
    </Button>
  );
}
