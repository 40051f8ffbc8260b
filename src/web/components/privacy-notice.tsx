import { Alert, Anchor, Box, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { noticeSectionIds } from '../../domain/privacy-notice-parts';
import type { PrivacyNoticeResponse } from '../../domain/schemas/privacy';
import { useNoticeText } from '../lib/privacy';
import { InlineLoading } from './load-state';

/**
 * The privacy notice (RA 10173): who processes what, why, with whom, how long, the borrower's rights and the
 * data protection officer's contact, in the reader's language. `maxHeight` makes it a scrolling box (sign-up).
 */
export function PrivacyNoticeText(props: {
  notice: PrivacyNoticeResponse;
  maxHeight?: number;
  headingOrder?: 2 | 3;
  id?: string;
}) {
  const { t } = useTranslation();
  const text = useNoticeText(props.notice);
  if (!text) return null;
  const order = props.headingOrder ?? 2;
  const body = (
    <Stack gap="sm" p={props.maxHeight ? 'sm' : 0}>
      <Box>
        <Title order={order} size="h5" id={props.id}>
          {text.title}
        </Title>
        <Text size="xs" c="dimmed">
          {t('privacy.notice.version', { version: props.notice.version })}
        </Text>
      </Box>
      {noticeSectionIds.map((id) => (
        <Box key={id}>
          <Title order={(order + 1) as 3 | 4} size="h6">
            {text.sections[id].heading}
          </Title>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {text.sections[id].body}
          </Text>
        </Box>
      ))}
    </Stack>
  );
  if (!props.maxHeight) return body;
  // A plain scrolling box: focusable and named, so keyboard users can scroll it (axe scrollable-region).
  return (
    <Box role="region" tabIndex={0} aria-label={text.title} style={noticeBox(props.maxHeight)}>
      {body}
    </Box>
  );
}

/**
 * The scrolling box's frame, of a fixed height: the same while the notice loads, so what lies below it (the
 * box to tick, the button) does not move when the text arrives (CLS 0.15–0.17 on sign-up and the consent
 * card when the box grew from a spinner's height; issue #35).
 */
const noticeBox = (height: number) =>
  ({
    height,
    overflowY: 'auto',
    border: '1px solid var(--mantine-color-default-border)',
    borderRadius: 'var(--mantine-radius-md)',
  }) as const;

/** The notice as fetched: the text once it is in, a way to try again when the fetch failed, a spinner meanwhile. */
export function LoadedPrivacyNotice(props: {
  notice: UseQueryResult<PrivacyNoticeResponse>;
  maxHeight: number;
}) {
  const { t } = useTranslation();
  const { notice } = props;
  if (notice.data)
    return <PrivacyNoticeText notice={notice.data} maxHeight={props.maxHeight} headingOrder={2} />;
  if (notice.isError)
    return (
      <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />}>
        <Text size="sm">{t('privacy.notice.loadFailed')}</Text>
        <Anchor component="button" type="button" size="sm" onClick={() => void notice.refetch()}>
          {t('privacy.notice.retry')}
        </Anchor>
      </Alert>
    );
  return (
    <Box style={{ ...noticeBox(props.maxHeight), display: 'grid', placeItems: 'center' }}>
      <InlineLoading py={0} />
    </Box>
  );
}
