import { Anchor, Badge, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconReceipt } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { DisbursementDto } from '../../../../domain/schemas/wallet';
import { SectionCard } from '../../../components/section-card';
import { useFormat } from '../../../lib/format';
import { statusLook } from '../../../lib/status';
import payingClasses from './paying.module.css';
import classes from './wallet.module.css';

/**
 * The borrower's withdrawals, newest first: when, how much, where to, and what became of it; a paid one has
 * its receipt (issue #32). Long references and bank names wrap instead of pushing the page sideways.
 */
export function DisbursementList(props: { disbursements: DisbursementDto[] }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <SectionCard titleId="disbursements-title" title={t('wallet.disbursements.title')} titleMb="sm">
      {props.disbursements.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('wallet.disbursements.empty')}
        </Text>
      ) : (
        <Stack gap={0} component="ul" className={classes.list} aria-labelledby="disbursements-title">
          {props.disbursements.map((d) => (
            <li key={d.id} className={classes.listItem} data-testid="disbursement">
              <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
                <Stack gap={2} miw={0}>
                  <Text fw={700} className={classes.money}>
                    {format.money(d.amountMinor)}
                  </Text>
                  <Text size="xs" c="dimmed" component="time" dateTime={d.requestedAt}>
                    {format.dateTime(d.requestedAt)}
                  </Text>
                </Stack>
                <Badge color={statusLook(d.status).color} variant="light" style={{ flexShrink: 0 }}>
                  {t(`wallet.disbursements.${d.status}`)}
                </Badge>
              </Group>
              <Text size="xs" c="dimmed" mt={4} className={payingClasses.wrap}>
                {t('wallet.disbursements.to', { bank: d.bankName, last4: d.accountNumberLast4 })}
              </Text>
              {d.feeMinor > 0 ? (
                <Text size="xs" c="dimmed" mt={2}>
                  {t('wallet.disbursements.feeNote', {
                    fee: format.money(d.feeMinor),
                    net: format.money(d.netMinor),
                  })}
                </Text>
              ) : null}
              {d.status === 'paid' && d.reference ? (
                <Text size="xs" mt={2} className={payingClasses.wrap}>
                  {t('wallet.disbursements.reference', { reference: d.reference })}
                </Text>
              ) : null}
              {d.status === 'failed' ? (
                <Text size="xs" c="red" mt={2} className={payingClasses.wrap}>
                  {t('wallet.disbursements.reason', { reason: d.failureReason ?? '-' })}
                </Text>
              ) : null}
              {d.status === 'paid' ? (
                <Anchor
                  component={Link}
                  to={`/wallet/receipts/payouts/${d.id}`}
                  size="sm"
                  mt={4}
                  display="inline-flex"
                >
                  <IconReceipt size={16} aria-hidden style={{ marginRight: 4 }} />
                  {t('paying.payoutReceipt')}
                  <VisuallyHidden>
                    {' '}
                    {t('paying.payoutReceiptFor', { amount: format.money(d.amountMinor) })}
                  </VisuallyHidden>
                </Anchor>
              ) : null}
            </li>
          ))}
        </Stack>
      )}
    </SectionCard>
  );
}
