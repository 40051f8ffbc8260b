import { Box, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { noticeSectionIds, type PrivacyNoticeResponse } from '../../domain/schemas/privacy';
import { useNoticeText } from '../lib/privacy';

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
    <Box
      role="region"
      tabIndex={0}
      aria-label={text.title}
      mah={props.maxHeight}
      style={{
        overflowY: 'auto',
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 'var(--mantine-radius-md)',
      }}
    >
      {body}
    </Box>
  );
}
