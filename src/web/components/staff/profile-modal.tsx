import { Anchor, Divider, Group, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { creditRating } from '../../../domain/loan/credit-rating';
import { storedDisclosureSchema } from '../../../domain/loan/disclosure';
import { bpToDecimalString } from '../../../domain/loan/rates';
import type { ApplicationProfile } from '../../../domain/schemas/staff';
import { type Formatters, useFormat } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { applicationProfileQuery } from '../../lib/staff/queries';
import { DocumentThumb } from '../document-thumb';
import { InlineLoadError, InlineLoading } from '../load-state';
import { StatusBadge } from '../status-badge';

/** One labelled value; blank values read "N/A". */
export function Field(props: { label: string; children: ReactNode; span?: number }) {
  return (
    <Stack gap={2} miw={0} style={props.span ? { gridColumn: `span ${props.span}` } : undefined}>
      <Text size="xs" c="dimmed" fw={500}>
        {props.label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }} component="div">
        {props.children}
      </Text>
    </Stack>
  );
}

function Section(props: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {props.title}
      </Title>
      {props.children}
    </Stack>
  );
}

const grid = { base: 2, md: 3 } as const;

/** "Good (500)"-style rating text for a credit score, or "N/A". */
export function useCreditScoreText() {
  const { t } = useTranslation();
  const fmt = useFormat();
  return (score: number | null | undefined) =>
    typeof score === 'number'
      ? `${fmt.number(score)} · ${t(`backOffice.rating.${creditRating(score)}`)}`
      : fmt.na;
}

function ProfileBody({ profile, fmt }: { profile: ApplicationProfile; fmt: Formatters }) {
  const { t } = useTranslation();
  const scoreText = useCreditScoreText();
  const f = (key: string) => t(`backOffice.profile.fields.${key}`);
  const disclosure = storedDisclosureSchema.safeParse(profile.disclosure);
  const d = disclosure.success ? disclosure.data : null;
  const relation = profile.contactRelation
    ? t(`backOffice.profile.relations.${profile.contactRelation}`, { defaultValue: profile.contactRelation })
    : fmt.na;

  return (
    <Stack gap="lg">
      <Section title={t('backOffice.profile.sections.loan')}>
        <SimpleGrid cols={grid} spacing="md" verticalSpacing="sm">
          <Field label={f('status')}>
            <StatusBadge status={profile.status} />
          </Field>
          <Field label={t('products.profile.label')}>
            {t(profile.product.signedUnder ? 'products.profile.value' : 'products.profile.before', {
              name:
                (profile.product.names as Record<string, string>)[currentLanguage()] ??
                profile.product.names.en,
              n: profile.product.version,
            })}
          </Field>
          <Field label={f('amount')}>{fmt.money(profile.amountMinor)}</Field>
          <Field label={f('approvedAmount')}>{fmt.money(profile.approvedAmountMinor)}</Field>
          <Field label={f('term')}>{t('backOffice.common.months', { count: profile.termMonths })}</Field>
          <Field label={f('monthlyPayment')}>{fmt.money(profile.monthlyPaymentMinor)}</Field>
          <Field label={f('monthlyRate')}>{fmt.percent(bpToDecimalString(profile.monthlyRateBp))}</Field>
          <Field label={f('withdrawn')}>{fmt.money(profile.withdrawnMinor)}</Field>
          <Field label={f('available')}>{fmt.money(profile.availableMinor)}</Field>
          <Field label={f('creditScore')}>{scoreText(profile.creditScore)}</Field>
          <Field label={f('submittedAt')}>{fmt.dateTime(profile.submittedAt)}</Field>
          <Field label={f('decidedAt')}>{fmt.dateTime(profile.decidedAt)}</Field>
          <Field label={f('decidedBy')}>{fmt.text(profile.decidedBy)}</Field>
          <Field label={f('rejectReason')}>{fmt.text(profile.rejectReason)}</Field>
          <Field label={f('statusMessage')}>{fmt.text(profile.statusMessage)}</Field>
        </SimpleGrid>
      </Section>
      <Divider />
      <Section title={t('backOffice.profile.sections.identity')}>
        <SimpleGrid cols={grid} spacing="md" verticalSpacing="sm">
          <Field label={f('fullName')}>{fmt.text(profile.fullName)}</Field>
          <Field label={f('idNumber')}>{fmt.text(profile.idNumber)}</Field>
        </SimpleGrid>
        <SimpleGrid cols={{ base: 2, xs: 3 }} spacing="sm">
          <DocumentThumb fileId={profile.documents.idFront} label={f('idFront')} />
          <DocumentThumb fileId={profile.documents.idBack} label={f('idBack')} />
          <DocumentThumb fileId={profile.documents.selfie} label={f('selfie')} />
        </SimpleGrid>
      </Section>
      <Divider />
      <Section title={t('backOffice.profile.sections.basic')}>
        <SimpleGrid cols={grid} spacing="md" verticalSpacing="sm">
          <Field label={f('companyName')}>{fmt.text(profile.companyName)}</Field>
          <Field label={f('position')}>{fmt.text(profile.position)}</Field>
          <Field label={f('phone')}>{fmt.text(profile.phone)}</Field>
          <Field label={f('income')}>{fmt.money(profile.incomeMinor)}</Field>
          <Field label={f('monthlyExpense')}>{fmt.money(profile.monthlyExpenseMinor)}</Field>
          <Field label={f('email')}>{fmt.text(profile.email)}</Field>
          <Field label={f('address')}>{fmt.text(profile.address)}</Field>
        </SimpleGrid>
      </Section>
      <Divider />
      <Section title={t('backOffice.profile.sections.contact')}>
        <SimpleGrid cols={grid} spacing="md" verticalSpacing="sm">
          <Field label={f('contactName')}>{fmt.text(profile.contactName)}</Field>
          <Field label={f('contactPhone')}>{fmt.text(profile.contactPhone)}</Field>
          <Field label={f('contactRelation')}>{relation}</Field>
          <Field label={f('contactAddress')}>{fmt.text(profile.contactAddress)}</Field>
        </SimpleGrid>
      </Section>
      <Divider />
      <Section title={t('backOffice.profile.sections.bank')}>
        <SimpleGrid cols={grid} spacing="md" verticalSpacing="sm">
          <Field label={f('bankName')}>{fmt.text(profile.bankName)}</Field>
          <Field label={f('accountNumber')}>
            <Text span ff="monospace" size="sm">
              {fmt.text(profile.accountNumber)}
            </Text>
          </Field>
        </SimpleGrid>
      </Section>
      <Divider />
      <Section title={t('backOffice.profile.sections.signature')}>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <DocumentThumb fileId={profile.documents.signature} label={f('signature')} height={90} />
          {/* The signed agreement as the borrower keeps it: signature, signing time, SHA-256 of the terms. */}
          <Anchor
            href={`/api/staff/applications/${encodeURIComponent(profile.id)}/agreement.pdf?lang=${currentLanguage()}`}
            download
            size="sm"
            fw={600}
          >
            {t('backOffice.profile.agreementPdf')}
          </Anchor>
        </SimpleGrid>
      </Section>
      <Divider />
      <Section title={t('backOffice.profile.sections.disclosure')}>
        {d ? (
          <>
            <SimpleGrid cols={grid} spacing="md" verticalSpacing="sm">
              <Field label={f('amount')}>{fmt.money(d.amountMinor)}</Field>
              <Field label={f('term')}>{t('backOffice.common.months', { count: d.termMonths })}</Field>
              <Field label={f('monthlyRate')}>{fmt.percent(d.monthlyRate)}</Field>
              <Field label={f('apr')}>{fmt.percent(d.apr)}</Field>
              <Field label={f('effectiveRate')}>{fmt.percent(d.effectiveAnnualRate)}</Field>
              <Field label={f('monthlyPayment')}>{fmt.money(d.monthlyPaymentMinor)}</Field>
              <Field label={f('totalRepayable')}>{fmt.money(d.totalRepayableMinor)}</Field>
              <Field label={f('totalInterest')}>{fmt.money(d.totalInterestMinor)}</Field>
              <Field label={f('fees')}>{fmt.money(d.fees.totalMinor)}</Field>
              <Field label={f('startDate')}>{fmt.calendarDate(d.startDate)}</Field>
              <Field label={f('instalments')}>{fmt.number(d.schedule.length)}</Field>
              <Field label={f('fingerprint')}>
                <Text span ff="monospace" size="xs" title={profile.disclosureSha256}>
                  {profile.disclosureSha256.slice(0, 16)}…
                </Text>
              </Field>
            </SimpleGrid>
            <Text size="xs" c="dimmed">
              {t('backOffice.profile.disclosureNote')}
            </Text>
          </>
        ) : (
          <Text size="sm">{fmt.na}</Text>
        )}
      </Section>
    </Stack>
  );
}

export interface ProfileModalProps {
  /** The application to show; null while nothing is selected. */
  applicationId: string | null;
  opened: boolean;
  onClose: () => void;
}

/** "View Profile": every application field, the pictures and signature, the signed disclosure. */
export function ProfileModal({ applicationId, opened, onClose }: ProfileModalProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const phone = useMediaQuery('(max-width: 36em)');
  const query = useQuery({
    ...applicationProfileQuery(applicationId ?? ''),
    enabled: opened && Boolean(applicationId),
  });
  const profile = query.data;
  const title = profile ? (
    <Group gap="sm" wrap="wrap">
      <Text fw={700}>{t('backOffice.profile.title')}</Text>
      <Text c="dimmed" ff="monospace" size="sm">
        {profile.loanNumber}
      </Text>
    </Group>
  ) : (
    <Text fw={700}>{t('backOffice.profile.title')}</Text>
  );

  return (
    <Modal opened={opened} onClose={onClose} title={title} size="xl" fullScreen={phone} centered>
      {query.isError ? (
        <InlineLoadError error={query.error} onRetry={() => void query.refetch()} />
      ) : profile ? (
        <ProfileBody profile={profile} fmt={fmt} />
      ) : (
        <InlineLoading />
      )}
    </Modal>
  );
}
