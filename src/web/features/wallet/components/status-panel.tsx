import { Alert, Button, Stack, Text } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCircleCheck,
  IconClockHour4,
  IconHandStop,
  IconLoader,
  IconLock,
} from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { statusLook } from '../../../lib/status';
import { type WalletStatus, type WalletStatusKind, walletShownStatus } from '../lib/wallet-status';
import classes from './status-panel.module.css';

const icons: Record<WalletStatusKind, ReactNode> = {
  pending: <IconClockHour4 size={20} />,
  approved: <IconCircleCheck size={20} />,
  processing: <IconLoader size={20} />,
  onHold: <IconHandStop size={20} />,
  rejected: <IconAlertTriangle size={20} />,
  closed: <IconLock size={20} />,
};

/**
 * The loan's status in the SPEC §4 words and colour. Dismissible; a new status (or a new staff message)
 * shows again.
 */
export function StatusPanel(props: { status: WalletStatus; canApply: boolean }) {
  const { t } = useTranslation();
  const { kind, message } = props.status;
  const identity = `${kind}|${message ?? ''}`;
  const [dismissed, setDismissed] = useState<string | null>(null);
  if (dismissed === identity) return null;

  // Hold and rejection carry staff's own words; the others have fixed texts. A hold is said once, here,
  // in the words of SPEC §5 ("Withdrawals are paused: …"), instead of a second alert in the form.
  const text =
    kind === 'onHold' && message
      ? t('errors.WITHDRAWALS_PAUSED', { message })
      : (message ?? t(`wallet.status.${kind}.text`));
  const color = statusLook(walletShownStatus[kind]).color;
  return (
    <Alert
      color={color}
      variant="light"
      radius="md"
      classNames={{ root: classes.panel, title: classes.title, icon: classes.icon }}
      icon={icons[kind]}
      title={t(`wallet.status.${kind}.title`)}
      withCloseButton
      closeButtonLabel={t('wallet.dismiss')}
      onClose={() => setDismissed(identity)}
      role="status"
      data-status={kind}
      data-color={color}
    >
      <Stack gap="xs">
        <Text size="sm">{text}</Text>
        {kind === 'rejected' && props.canApply ? (
          <>
            <Text size="sm">{t('wallet.status.rejected.again')}</Text>
            <Button component={Link} to="/loan/application" size="sm" w="fit-content">
              {t('wallet.applyAgain')}
            </Button>
          </>
        ) : null}
      </Stack>
    </Alert>
  );
}
