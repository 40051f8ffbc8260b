import { Paper, SimpleGrid, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBuildingBank, IconCalendarRepeat, IconFileCheck, IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

const steps = [
  { key: 'apply', icon: IconFileCheck },
  { key: 'review', icon: IconSearch },
  { key: 'withdraw', icon: IconBuildingBank },
  { key: 'repay', icon: IconCalendarRepeat },
] as const;

/** SPEC §2.4: apply → review → withdraw to your account → repay monthly. */
export function HowItWorks() {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="lg" p="md" component="section" aria-labelledby="how-it-works-title">
      <Title order={3} size="h4" id="how-it-works-title" mb="sm">
        {t('application.howItWorks.title')}
      </Title>
      <SimpleGrid component="ol" cols={{ base: 2, sm: 4 }} spacing="sm" verticalSpacing="md" m={0} p={0}>
        {steps.map(({ key, icon: Icon }, i) => (
          <li key={key} style={{ listStyle: 'none', minWidth: 0 }}>
            <ThemeIcon variant="light" size={36} radius="xl" mb={6} aria-hidden="true">
              <Icon size={20} />
            </ThemeIcon>
            <Text fw={700} size="sm">
              {i + 1}. {t(`application.howItWorks.${key}.title`)}
            </Text>
            <Text size="xs" c="dimmed">
              {t(`application.howItWorks.${key}.text`)}
            </Text>
          </li>
        ))}
      </SimpleGrid>
    </Paper>
  );
}
