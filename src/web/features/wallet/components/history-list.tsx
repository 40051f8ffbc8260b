import { Paper, Text, ThemeIcon, Timeline, Title } from '@mantine/core';
import {
  IconAlertTriangle,
  IconBell,
  IconBuildingBank,
  IconCash,
  IconCircleCheck,
  IconCircleX,
  IconGauge,
  IconHandStop,
  IconKey,
  IconMessage,
  IconPlayerPlay,
  IconPointFilled,
  IconReceipt,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { BorrowerEventDto } from '../../../../domain/schemas/wallet';
import { useFormat } from '../../../lib/format';
import { historyText } from '../lib/history-text';

const kindIcons: Record<string, { icon: ReactNode; color: string }> = {
  approved: { icon: <IconCircleCheck size={14} />, color: 'green' },
  rejected: { icon: <IconCircleX size={14} />, color: 'red' },
  terms_changed: { icon: <IconReceipt size={14} />, color: 'blue' },
  on_hold: { icon: <IconHandStop size={14} />, color: 'red' },
  released: { icon: <IconPlayerPlay size={14} />, color: 'green' },
  bank_changed: { icon: <IconBuildingBank size={14} />, color: 'blue' },
  credit_score_changed: { icon: <IconGauge size={14} />, color: 'blue' },
  message: { icon: <IconMessage size={14} />, color: 'brand' },
  disbursement_paid: { icon: <IconCash size={14} />, color: 'green' },
  disbursement_failed: { icon: <IconAlertTriangle size={14} />, color: 'red' },
  password_reset: { icon: <IconKey size={14} />, color: 'gray' },
  repayment_received: { icon: <IconCash size={14} />, color: 'green' },
  credit_refunded: { icon: <IconCash size={14} />, color: 'blue' },
  repayment_reversed: { icon: <IconAlertTriangle size={14} />, color: 'red' },
  loan_closed: { icon: <IconCircleCheck size={14} />, color: 'green' },
  loan_reopened: { icon: <IconAlertTriangle size={14} />, color: 'orange' },
  payment_reminder: { icon: <IconBell size={14} />, color: 'blue' },
};
const fallbackIcon = { icon: <IconPointFilled size={14} />, color: 'gray' };

/** What staff changed on the loan, newest first (SPEC principle 5), each with its time in Manila. */
export function HistoryList(props: { history: BorrowerEventDto[] }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <Paper withBorder radius="lg" p="md" component="section" aria-labelledby="history-title">
      <Title order={2} size="h4" id="history-title" mb="md">
        {t('wallet.history.title')}
      </Title>
      {props.history.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('wallet.history.empty')}
        </Text>
      ) : (
        <Timeline bulletSize={26} lineWidth={2} aria-label={t('wallet.history.title')}>
          {props.history.map((event) => {
            const { text, note } = historyText(event, t, format);
            const look = kindIcons[event.kind] ?? fallbackIcon;
            return (
              <Timeline.Item
                key={event.id}
                bullet={
                  <ThemeIcon size={26} radius="xl" color={look.color} variant="light">
                    {look.icon}
                  </ThemeIcon>
                }
              >
                {/* A bank reference is one long word: it wraps rather than push a phone's page sideways. */}
                <Text size="sm" data-testid="history-text" style={{ overflowWrap: 'anywhere' }}>
                  {text}
                </Text>
                {note ? (
                  <Text size="sm" c="dimmed" mt={2} style={{ overflowWrap: 'anywhere' }}>
                    {note}
                  </Text>
                ) : null}
                <Text size="xs" c="dimmed" mt={4} component="time" dateTime={event.createdAt}>
                  {format.dateTime(event.createdAt)}
                </Text>
              </Timeline.Item>
            );
          })}
        </Timeline>
      )}
    </Paper>
  );
}
