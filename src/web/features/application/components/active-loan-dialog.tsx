import '../../../lib/styles/all';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconWallet } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** SPEC §5: "You already have an active loan. You cannot apply again.", with the way to the wallet. */
export function ActiveLoanDialog(props: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={t('application.activeLoan.title')}
      centered
      radius="lg"
    >
      <Stack gap="md">
        <Text>{t('errors.ACTIVE_LOAN_EXISTS')}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={props.onClose}>
            {t('application.activeLoan.close')}
          </Button>
          <Button component={Link} to="/wallet" leftSection={<IconWallet size={18} />}>
            {t('application.activeLoan.goToWallet')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
