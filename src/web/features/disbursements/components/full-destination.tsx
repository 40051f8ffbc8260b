import { ActionIcon, Button, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconEye } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StaffDisbursementItem } from '../../../../domain/schemas/wallet';
import { LoadingLine } from '../../../components/load-state';
import { useErrorText } from '../../../lib/error-text';
import { useFormat } from '../../../lib/format';
import { maskAccount, maskedDestination } from '../../../lib/staff/account-mask';
import { usePayoutDestination } from '../api/disbursements';

/**
 * The full bank name and account number of a payout, with a copy button. Mounting it asks the server, and
 * the server records the reveal in the audit log, so it is shown only where someone asked for it.
 */
export function FullDestination({ row, compact = false }: { row: StaffDisbursementItem; compact?: boolean }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const destination = usePayoutDestination(row.id);
  if (destination.isPending) return <LoadingLine text={t('disbursements.destination.loading')} />;
  if (destination.isError)
    return (
      <Text size="sm" c="red.7" role="alert">
        {errorText(destination.error)}
      </Text>
    );
  const { bankName, accountNumber } = destination.data;
  return (
    <Group gap="xs" wrap={compact ? 'wrap' : 'nowrap'} data-testid="full-destination">
      <Stack gap={0}>
        {compact ? null : (
          <Text size="xs" c="dimmed">
            {t('disbursements.destination.fullAccount')}
          </Text>
        )}
        <Text size="sm">{bankName}</Text>
        <Text
          size={compact ? 'sm' : 'md'}
          fw={700}
          ff="monospace"
          style={{ overflowWrap: 'anywhere', userSelect: 'all' }}
          data-testid="full-account-number"
        >
          {accountNumber}
        </Text>
      </Stack>
      <CopyButton value={accountNumber} timeout={2000}>
        {({ copied, copy }) => (
          <Button
            size="compact-xs"
            variant={copied ? 'filled' : 'default'}
            color={copied ? 'green.8' : undefined}
            leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
            onClick={copy}
            style={{ flexShrink: 0 }}
          >
            {copied ? t('disbursements.destination.copied') : t('disbursements.destination.copy')}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

/**
 * A payout's destination in the list: bank and last 4, and for finance / admin a "Show full account" button
 * that reveals (and audits) the full account in place.
 */
export function DestinationCell({ row, canReveal }: { row: StaffDisbursementItem; canReveal: boolean }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const [shown, setShown] = useState(false);
  if (shown) return <FullDestination row={row} compact />;
  return (
    <Stack gap={0} align="flex-start">
      <Text span size="sm">
        {fmt.text(row.bankName)}
      </Text>
      <Group gap={4} wrap="nowrap">
        <Text
          span
          size="xs"
          c="dimmed"
          ff="monospace"
          style={{ whiteSpace: 'nowrap' }}
          title={maskedDestination(row.bankName, row.accountNumberLast4)}
        >
          {maskAccount(row.accountNumberLast4) || fmt.na}
        </Text>
        {canReveal ? (
          // An icon beside the masked number keeps the column narrow (the list fits at 1280 px).
          <Tooltip label={t('disbursements.destination.show')} withArrow>
            <ActionIcon
              size="sm"
              variant="subtle"
              aria-label={t('disbursements.destination.show')}
              onClick={() => setShown(true)}
            >
              <IconEye size={16} />
            </ActionIcon>
          </Tooltip>
        ) : null}
      </Group>
    </Stack>
  );
}
