import { Alert, Text } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** SPEC principle 3: shown on every borrower page that asks for a one-time code. */
export function SafetyNotice() {
  const { t } = useTranslation();
  return (
    <Alert variant="light" color="brand" p="xs" role="note" icon={<IconShieldLock size={18} />}>
      <Text size="xs" fw={500} c="inherit">
        {t('safety.codeNotice')}
      </Text>
    </Alert>
  );
}
