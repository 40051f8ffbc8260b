import { Alert, Button, Group, Text } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DraftValues, FormDraft } from '../lib/form-draft';

/**
 * "We kept what you typed." above a form whose draft was put back (lib/form-draft.ts, issue #32), with
 * "Start over", which forgets the draft and empties the form (`onStartOver`). Nothing when nothing was
 * kept. `note` adds what could not be kept (a picture).
 */
export function DraftNotice<T extends DraftValues>(props: {
  draft: FormDraft<T>;
  onStartOver: () => void;
  note?: string;
}) {
  const { t } = useTranslation();
  const [closed, setClosed] = useState(false);
  if (!props.draft.restored || closed) return null;
  return (
    <Alert
      color="blue"
      variant="light"
      role="status"
      icon={<IconDeviceFloppy size={18} aria-hidden="true" />}
      withCloseButton
      closeButtonLabel={t('common.close')}
      onClose={() => setClosed(true)}
      py="xs"
    >
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm">{t('session.draftKept')}</Text>
        <Button
          variant="subtle"
          size="compact-sm"
          onClick={() => {
            props.draft.clear();
            props.onStartOver();
          }}
        >
          {t('session.draftStartOver')}
        </Button>
      </Group>
      {props.note ? (
        <Text size="xs" mt={4}>
          {props.note}
        </Text>
      ) : null}
    </Alert>
  );
}
