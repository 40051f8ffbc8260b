import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { DraftValues, FormDraft } from '../lib/form-draft';

/**
 * "We kept what you typed." above a form whose draft was put back (lib/form-draft.ts, issue #32), with
 * "Start over", which forgets the draft and empties the form (`onStartOver`). Nothing when nothing was
 * kept; it goes once the form is sent (the draft is cleared). `note` adds what could not be kept (a
 * picture).
 */
export function DraftNotice<T extends DraftValues>(props: {
  draft: FormDraft<T>;
  onStartOver: () => void;
  note?: string;
}) {
  const { t } = useTranslation();
  if (!props.draft.restored) return null;
  return (
    <Alert
      color="blue"
      variant="light"
      role="status"
      icon={<IconDeviceFloppy size={18} aria-hidden="true" />}
      py="xs"
    >
      <Stack gap={6} align="flex-start">
        <Text size="sm" fw={600}>
          {t('session.draftKept')}
        </Text>
        {props.note ? <Text size="xs">{props.note}</Text> : null}
        <Button
          variant="default"
          size="xs"
          onClick={() => {
            props.draft.clear();
            props.onStartOver();
          }}
        >
          {t('session.draftStartOver')}
        </Button>
      </Stack>
    </Alert>
  );
}
