import { Text, ThemeIcon, Timeline } from '@mantine/core';
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
import {
  type BorrowerEventKind,
  type BorrowerEventTone,
  borrowerEventTones,
} from '../../../../domain/borrower-events';
import type { BorrowerEventDto } from '../../../../domain/schemas/wallet';
import { SectionCard } from '../../../components/section-card';
import { useFormat } from '../../../lib/format';
import { historyText } from '../lib/history-text';

/**
 * One icon per kind (a new kind without one does not compile); the colour is its tone's. A kind from a newer
 * server than this page (an open tab across an upgrade) gets a plain dot.
 */
const kindIcons: Record<BorrowerEventKind, ReactNode> = {
  approved: <IconCircleCheck size={14} />,
  rejected: <IconCircleX size={14} />,
  terms_changed: <IconReceipt size={14} />,
  terms_change_proposed: <IconReceipt size={14} />,
  terms_change_accepted: <IconReceipt size={14} />,
  terms_change_declined: <IconReceipt size={14} />,
  terms_change_withdrawn: <IconReceipt size={14} />,
  on_hold: <IconHandStop size={14} />,
  released: <IconPlayerPlay size={14} />,
  bank_changed: <IconBuildingBank size={14} />,
  credit_score_changed: <IconGauge size={14} />,
  message: <IconMessage size={14} />,
  disbursement_paid: <IconCash size={14} />,
  disbursement_failed: <IconAlertTriangle size={14} />,
  password_reset: <IconKey size={14} />,
  repayment_received: <IconCash size={14} />,
  credit_refunded: <IconCash size={14} />,
  repayment_reversed: <IconAlertTriangle size={14} />,
  loan_closed: <IconCircleCheck size={14} />,
  loan_reopened: <IconAlertTriangle size={14} />,
  payment_reminder: <IconBell size={14} />,
};
const toneColors: Record<BorrowerEventTone, string> = {
  good: 'green',
  bad: 'red',
  change: 'blue',
  warning: 'orange',
  message: 'brand',
  neutral: 'gray',
};

/** What staff changed on the loan, newest first (SPEC principle 5), each with its time in Manila. */
export function HistoryList(props: { history: BorrowerEventDto[] }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <SectionCard titleId="history-title" title={t('wallet.history.title')} titleMb="md">
      {props.history.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('wallet.history.empty')}
        </Text>
      ) : (
        <Timeline bulletSize={26} lineWidth={2} aria-label={t('wallet.history.title')}>
          {props.history.map((event) => {
            const { text, note } = historyText(event, t, format);
            return (
              <Timeline.Item
                key={event.id}
                bullet={
                  <ThemeIcon
                    size={26}
                    radius="xl"
                    color={toneColors[borrowerEventTones[event.kind]] ?? 'gray'}
                    variant="light"
                  >
                    {kindIcons[event.kind] ?? <IconPointFilled size={14} />}
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
    </SectionCard>
  );
}
