import '../../../lib/styles/all';
import { Accordion, Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import {
  IconDatabaseExport,
  IconFileDescription,
  IconHelpCircle,
  IconHistory,
  IconLock,
  IconMail,
  IconMessageReport,
  IconMessages,
  IconPhoto,
  IconUserCircle,
  IconUserOff,
  IconUsers,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccountResponse } from '../../../../domain/schemas/wallet';
import { AvatarPicker, UserAvatar } from '../../../components/avatars';
import { ChangePasswordForm } from '../../../components/change-password-form';
import { LoadError, PageLoading } from '../../../components/load-state';
import { SafetyNotice } from '../../../components/safety-notice';
import { readDraft } from '../../../lib/draft-store';
import { useErrorText } from '../../../lib/error-text';
import { useFormat } from '../../../lib/format';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useCurrentUser, useSetAvatar } from '../../../lib/session';
import { useAccount } from '../api/account-api';
import classes from './account.module.css';
import { ComplaintsSection, complaintDraftKey } from './complaints-section';
import { CreditRing } from './credit-ring';
import { InfoList, type InfoRow } from './info-list';
import { CloseAccount, MyConsents, MyData, MyDocuments } from './privacy-sections';
import { SmsPreferences } from './sms-preferences';

const statusKeys = {
  pending: 'pending',
  approved: 'approved',
  rejected: 'rejected',
  on_hold: 'onHold',
  closed: 'closed',
} as const;

/** Every application and loan, newest first (issue #31: a borrower may borrow again once a loan is repaid). */
function MyLoans({ loans }: { loans: AccountResponse['loans'] }) {
  const { t, i18n } = useTranslation();
  const format = useFormat();
  if (loans.length === 0) return <Text size="sm">{t('account.loans.none')}</Text>;
  return (
    <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
      {loans.map((loan) => {
        const product = loan.productNames
          ? ((loan.productNames as Record<string, string>)[i18n.language] ?? loan.productNames.en)
          : null;
        return (
          <Paper component="li" key={loan.loanNumber} withBorder radius="md" p="sm">
            <Group justify="space-between" gap="xs" wrap="wrap">
              <Text size="sm" fw={700}>
                {product ? `${loan.loanNumber} · ${product}` : loan.loanNumber}
              </Text>
              <Text size="sm" fw={600}>
                {t(`wallet.status.${statusKeys[loan.status]}.title`)}
              </Text>
            </Group>
            <Text size="sm">
              {t('account.loans.figures', {
                amount: format.money(loan.approvedAmountMinor ?? loan.amountMinor),
                term: t('wallet.card.termMonths', { n: loan.termMonths }),
              })}
            </Text>
            <Text size="sm" c="dimmed">
              {loan.closedAt
                ? t('account.loans.appliedAndRepaid', {
                    applied: format.date(loan.submittedAt),
                    closed: format.date(loan.closedAt),
                  })
                : t('account.loans.applied', { applied: format.date(loan.submittedAt) })}
            </Text>
          </Paper>
        );
      })}
    </Stack>
  );
}

function AvatarSection(props: { name: string | null }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const setAvatar = useSetAvatar();
  const errorText = useErrorText();
  // Show the choice at once; the session cache follows when the server answers.
  const avatar = setAvatar.isPending && setAvatar.variables !== undefined ? setAvatar.variables : user.avatar;

  return (
    <Paper withBorder radius="lg" p="md" component="section" aria-labelledby="avatar-title">
      <Group gap="md" wrap="nowrap" mb="md">
        <UserAvatar avatar={avatar} size={64} alt="" />
        <Stack gap={0} miw={0}>
          <Text fw={700} size="lg" truncate="end">
            {props.name ?? user.phone ?? '-'}
          </Text>
          {props.name && user.phone ? (
            <Text size="sm" c="dimmed">
              {user.phone}
            </Text>
          ) : null}
        </Stack>
      </Group>
      <Title order={2} size="h5" id="avatar-title" mb="xs">
        {t('avatars.choose')}
      </Title>
      <AvatarPicker
        value={avatar}
        size={44}
        onChange={(next) =>
          setAvatar.mutate(next, {
            onSuccess: () => notifySuccess(t('account.avatar.saved')),
            onError: (error) => notifyError(errorText(error, 'NETWORK')),
          })
        }
      />
    </Paper>
  );
}

function Sections(props: { account: AccountResponse }) {
  const { t } = useTranslation();
  const format = useFormat();
  const user = useCurrentUser();
  const { profile, loan, supportEmail } = props.account;
  const money = (minor: number | null | undefined) =>
    minor === null || minor === undefined ? null : format.money(minor);
  const masked = (last4: string | undefined) => (last4 ? `•••• ${last4}` : null);

  const profileRows: InfoRow[] = [
    [t('account.profile.fullName'), profile?.fullName],
    [t('account.profile.idNumber'), profile?.idNumber],
    [t('account.profile.phone'), profile?.phone ?? user.phone],
    [t('account.profile.email'), profile?.email],
    [t('account.profile.address'), profile?.address],
  ];
  const otherRows: InfoRow[] = [
    [t('account.other.companyName'), profile?.companyName],
    [t('account.other.position'), profile?.position],
    [t('account.other.income'), money(profile?.incomeMinor)],
    [t('account.other.monthlyExpense'), money(profile?.monthlyExpenseMinor)],
    [t('account.other.contactName'), profile?.contactName],
    [t('account.other.contactPhone'), profile?.contactPhone],
    [
      t('account.other.contactRelation'),
      profile?.contactRelation
        ? t(`account.relations.${profile.contactRelation}`, { defaultValue: profile.contactRelation })
        : null,
    ],
    [t('account.other.bankName'), profile?.bankName],
    [t('account.other.accountNumber'), masked(profile?.accountNumberLast4)],
  ];
  const loanRows: InfoRow[] = [
    [t('account.loan.loanNumber'), loan?.loanNumber],
    [t('account.loan.status'), loan ? t(`wallet.status.${statusKeys[loan.status]}.title`) : null],
    [t('account.loan.amount'), money(loan?.amountMinor)],
    [t('account.loan.approvedAmount'), money(loan?.approvedAmountMinor)],
    [t('account.loan.term'), loan ? t('wallet.card.termMonths', { n: loan.termMonths }) : null],
    [t('account.loan.monthlyPayment'), money(loan?.monthlyPaymentMinor)],
    [t('account.loan.submittedAt'), loan ? format.dateTime(loan.submittedAt) : null],
    [t('account.loan.decidedAt'), loan?.decidedAt ? format.dateTime(loan.decidedAt) : null],
  ];

  const item = (value: string, icon: ReactNode, title: string, body: ReactNode) => (
    <Accordion.Item value={value}>
      <Accordion.Control icon={icon}>
        <span className={classes.accordionLabel}>{title}</span>
      </Accordion.Control>
      <Accordion.Panel>{body}</Accordion.Panel>
    </Accordion.Item>
  );

  return (
    <Accordion
      variant="separated"
      radius="lg"
      multiple
      // A link to /account#complaints (from the wallet) opens the complaints section, and so does a complaint
      // being written when the page opens (back after signing in again: issue #32).
      defaultValue={
        window.location.hash === '#complaints' || readDraft(user.id, complaintDraftKey)
          ? ['profile', 'complaints']
          : ['profile']
      }
    >
      {item(
        'profile',
        <IconUserCircle size={20} />,
        t('account.profile.title'),
        <InfoList rows={profileRows} />,
      )}
      {item('other', <IconUsers size={20} />, t('account.other.title'), <InfoList rows={otherRows} />)}
      {item('loan', <IconFileDescription size={20} />, t('account.loan.title'), <InfoList rows={loanRows} />)}
      {item(
        'loans',
        <IconHistory size={20} />,
        t('account.loans.title'),
        <MyLoans loans={props.account.loans} />,
      )}
      {item('documents', <IconPhoto size={20} />, t('privacy.account.documents.title'), <MyDocuments />)}
      {item('data', <IconDatabaseExport size={20} />, t('privacy.account.data.title'), <MyData />)}
      {item('consents', <IconLock size={20} />, t('privacy.account.consents.title'), <MyConsents />)}
      {item('sms', <IconMessages size={20} />, t('account.sms.title'), <SmsPreferences />)}
      {item(
        'support',
        <IconHelpCircle size={20} />,
        t('account.support.title'),
        <Stack gap="md">
          <Stack gap={4}>
            <Text size="sm">{t('account.support.contact')}</Text>
            <Group gap={6} wrap="nowrap">
              <IconMail size={16} aria-hidden="true" />
              <Anchor href={`mailto:${supportEmail}`} size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                {supportEmail}
              </Anchor>
            </Group>
          </Stack>
          <SafetyNotice />
          <Stack gap={4}>
            <Title order={3} size="h6">
              {t('account.support.passwordTitle')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('account.support.passwordHow')}
            </Text>
          </Stack>
          <ChangePasswordForm aria-label={t('account.support.passwordForm')} />
        </Stack>,
      )}
      {item('close', <IconUserOff size={20} />, t('privacy.account.close.title'), <CloseAccount />)}
      {item(
        'complaints',
        <IconMessageReport size={20} />,
        t('complaints.borrower.title'),
        <ComplaintsSection />,
      )}
    </Accordion>
  );
}

/** /account — My Account (SPEC §2.6). */
export function AccountPage() {
  const { t } = useTranslation();
  const account = useAccount();

  if (account.isPending) return <PageLoading />;
  if (account.isError) return <LoadError error={account.error} onRetry={() => void account.refetch()} />;

  return (
    <Stack gap="md">
      <AvatarSection name={account.data.profile?.fullName ?? null} />
      <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby="rating-title">
        <Title order={2} size="h4" id="rating-title" ta="center" mb="sm">
          {t('account.rating.title')}
        </Title>
        <CreditRing score={account.data.creditScore} />
      </Paper>
      <Sections account={account.data} />
    </Stack>
  );
}
