import { Anchor, Button, Stack, Text } from '@mantine/core';
import { IconReceipt } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormat } from '../../../lib/format';
import type { UnappliedPayment } from '../api/unapplied';

/** Why a loan is suggested, in words: "Reference matches", "Amount matches the amount due on Dec 28, 2026". */
export function useSuggestionWhy() {
  const { t } = useTranslation();
  const fmt = useFormat();
  return (suggestion: NonNullable<UnappliedPayment['suggestion']>) =>
    t(`collections.unapplied.suggestion.basis.${suggestion.basis}`, {
      date: suggestion.on ? fmt.calendarDate(suggestion.on) : '',
    });
}

/**
 * The loan an open kept payment likely belongs to (issue #32): its number (a link to the loan page), the
 * borrower, why, and — for finance — "Apply to HL-…", which opens the usual confirmation with it filled in.
 */
export function SuggestionCell({
  item,
  onApply,
}: {
  item: UnappliedPayment;
  /** Null: the reader may not resolve payments. */
  onApply: (() => void) | null;
}) {
  const { t } = useTranslation();
  const why = useSuggestionWhy();
  const { suggestion } = item;
  if (item.status !== 'open') return null;
  if (!suggestion)
    return (
      <Text size="xs" c="dimmed">
        {t('collections.unapplied.suggestion.none')}
      </Text>
    );
  return (
    <Stack gap={2} align="flex-start" miw={120} maw={190}>
      <Anchor
        component={Link}
        to={`/admin/loans/${encodeURIComponent(suggestion.loanId)}`}
        ff="monospace"
        size="xs"
        fw={600}
      >
        {suggestion.loanNumber}
      </Anchor>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {suggestion.fullName}
      </Text>
      <Text size="xs" c="dimmed">
        {why(suggestion)}
      </Text>
      {onApply ? (
        <Button
          size="compact-xs"
          variant="light"
          mt={4}
          leftSection={<IconReceipt size={14} />}
          onClick={onApply}
        >
          {t('collections.unapplied.suggestion.apply', { loanNumber: suggestion.loanNumber })}
        </Button>
      ) : null}
    </Stack>
  );
}
