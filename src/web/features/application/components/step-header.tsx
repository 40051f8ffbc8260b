import { Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** "Step 1 of 2" above the step's title (SPEC §2.4). */
export function StepHeader(props: { step: 1 | 2; title: string; subtitle: string }) {
  const { t } = useTranslation();
  return (
    <header>
      <Text size="sm" fw={700} c="brand" tt="uppercase" style={{ letterSpacing: '0.04em' }}>
        {t('application.stepOf', { step: props.step, total: 2 })}
      </Text>
      <Title order={2} size="h3" mt={2}>
        {props.title}
      </Title>
      <Text size="sm" c="dimmed" mt={4}>
        {props.subtitle}
      </Text>
    </header>
  );
}
