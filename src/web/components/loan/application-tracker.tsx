import { Text, ThemeIcon, Timeline } from '@mantine/core';
import { IconCheck, IconClockHour4, IconGavel } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { MyApplicationDto } from '../../../domain/schemas/application';
import { useFormat } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { useSettings } from '../../lib/settings';
import { SectionCard } from '../section-card';

/** "24 hours", "2 days" in the reader's language (whole days when the hours make whole days). */
function reviewTime(hours: number, language: string): string {
  const days = hours % 24 === 0;
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit: days ? 'day' : 'hour',
    unitDisplay: 'long',
  }).format(days ? hours / 24 : hours);
}

/**
 * Where an application waiting for a decision stands (issue #32): submitted, under review, decision; the
 * lender's stated review time (APPLICATION_REVIEW_HOURS) and the time a decision should come by; and what
 * happens next. Past that time it says so plainly instead of asking for patience.
 */
export function ApplicationTracker(props: { application: MyApplicationDto; now?: Date }) {
  const { t } = useTranslation();
  const format = useFormat();
  const hours = useSettings().data?.applicationReviewHours;
  const { application } = props;
  const submitted = new Date(application.submittedAt);
  const expected = hours === undefined ? null : new Date(submitted.getTime() + hours * 3_600_000);
  const late = expected !== null && (props.now ?? new Date()).getTime() > expected.getTime();
  const k = (key: string, options?: Record<string, unknown>) => t(`wallet.tracker.${key}`, options);
  return (
    <SectionCard titleId="tracker-title" title={k('title')} titleMb="sm" testId="tracker">
      <Timeline active={1} bulletSize={26} lineWidth={2}>
        <Timeline.Item
          bullet={
            <ThemeIcon size={26} radius="xl" color="green">
              <IconCheck size={15} aria-hidden />
            </ThemeIcon>
          }
          title={<Text fw={600}>{k('submitted')}</Text>}
        >
          <Text size="sm" c="dimmed">
            {format.dateTime(application.submittedAt)}
          </Text>
        </Timeline.Item>
        <Timeline.Item
          bullet={
            <ThemeIcon size={26} radius="xl" color={late ? 'orange' : 'brand'}>
              <IconClockHour4 size={15} aria-hidden />
            </ThemeIcon>
          }
          title={
            <Text fw={600} aria-current="step">
              {k('review')}
            </Text>
          }
        >
          {hours !== undefined && expected ? (
            <Text size="sm">
              {late
                ? k('late', { time: reviewTime(hours, currentLanguage()) })
                : k('expected', {
                    time: reviewTime(hours, currentLanguage()),
                    date: format.dateTime(expected.toISOString()),
                  })}
            </Text>
          ) : null}
        </Timeline.Item>
        <Timeline.Item
          bullet={
            <ThemeIcon size={26} radius="xl" color="gray" variant="light">
              <IconGavel size={15} aria-hidden />
            </ThemeIcon>
          }
          title={<Text fw={600}>{k('decision')}</Text>}
        >
          <Text size="sm" c="dimmed">
            {k('next', { bank: application.bankName, last4: application.accountNumberLast4 })}
          </Text>
        </Timeline.Item>
      </Timeline>
    </SectionCard>
  );
}
