import { Button, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { MyApplicationDto } from '../../../../domain/schemas/application';

/** The success dialog; its one way out, "Close", goes to /wallet (SPEC §2.4). */
export function SubmittedDialog(props: { application: MyApplicationDto | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={props.application !== null}
      onClose={props.onClose}
      withCloseButton={false}
      closeOnClickOutside={false}
      centered
      radius="lg"
      title={t('application.step2.success.title')}
    >
      <Stack align="center" gap="md" ta="center">
        <ThemeIcon color="green" variant="light" size={64} radius="xl" aria-hidden="true">
          <IconCircleCheck size={40} />
        </ThemeIcon>
        <Text>
          {t('application.step2.success.text', { loanNumber: props.application?.loanNumber ?? '' })}
        </Text>
        <Button fullWidth size="md" onClick={props.onClose} data-autofocus>
          {t('application.step2.success.close')}
        </Button>
      </Stack>
    </Modal>
  );
}
