import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StaffDisbursementItem } from '../../../../domain/schemas/wallet';
import { ApiError } from '../../../lib/api';
import { useErrorText } from '../../../lib/error-text';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useCurrentUser } from '../../auth/api/session';
import { refreshAfterApplicationChange } from '../api/applications';
import { backOfficeKeys } from '../api/keys';
import type { Column } from '../components/shared/data-table';
import { type Formatters, useFormat } from '../components/shared/format';
import { ListPage } from '../components/shared/list-page';
import { ReasonModal } from '../components/shared/modals';
import type { SearchField } from '../components/shared/search-bar';
import { ToneBadge } from '../components/shared/status-badge';
import { maskAccount, maskedDestination } from '../servicing/account-mask';
import { DateTimeCell } from '../servicing/date-time-cell';
import { canDecideDisbursements, markDisbursementFailed, markDisbursementPaid } from './disbursements-api';

/** Longest transfer reference the server takes (domain/schemas/wallet.ts). */
const REFERENCE_MAX = 100;

const statusColors = { requested: 'blue.7', paid: 'green.8', failed: 'red.7' } as const;

/** After a payout decision: this list, the servicing balances and the dashboard's "Disbursed Today". */
function refreshAfterPayout(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: backOfficeKeys.list('disbursements') }),
    refreshAfterApplicationChange(queryClient),
  ]);
}

/**
 * Someone else decided this payout meanwhile: say so (red toast), refresh, and let the modal close.
 * Anything else is shown in the modal.
 */
function useDecision() {
  const queryClient = useQueryClient();
  const errorText = useErrorText();
  return async (call: () => Promise<unknown>, success: string) => {
    try {
      await call();
      notifySuccess(success);
      await refreshAfterPayout(queryClient);
    } catch (error) {
      if (
        error instanceof ApiError &&
        (error.code === 'DISBURSEMENT_ALREADY_DECIDED' || error.code === 'NOT_FOUND')
      ) {
        notifyError(errorText(error));
        void refreshAfterPayout(queryClient);
        return;
      }
      throw error;
    }
  };
}

function PayoutLine({ row, fmt }: { row: StaffDisbursementItem; fmt: Formatters }) {
  return (
    <Stack gap={4}>
      <Group gap="xs" wrap="wrap">
        <Text span ff="monospace" size="sm" fw={600}>
          {row.loanNumber}
        </Text>
        <Text span size="sm">
          {row.fullName}
        </Text>
      </Group>
      <Text size="sm">
        <Text span fw={700}>
          {fmt.money(row.amountMinor)}
        </Text>{' '}
        → {maskedDestination(row.bankName, row.accountNumberLast4)}
      </Text>
    </Stack>
  );
}

/** Mark Paid: the transfer reference is required ("A transfer reference is required."). */
function MarkPaidModal(props: { row: StaffDisbursementItem | null; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const errorText = useErrorText();
  const decide = useDecision();
  const [reference, setReference] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (props.opened) {
      setReference('');
      setFieldError(null);
      setError(null);
    }
  }, [props.opened]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const row = props.row;
    if (!row) return;
    if (!reference.trim()) {
      setFieldError(t('errors.REFERENCE_REQUIRED'));
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await decide(
        () => markDisbursementPaid(row.id, reference.trim()),
        t('disbursements.paid.toast', { amount: fmt.money(row.amountMinor), loanNumber: row.loanNumber }),
      );
      props.onClose();
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal opened={props.opened} onClose={props.onClose} title={t('disbursements.paid.title')} centered>
      {props.row ? (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack gap="md">
            <PayoutLine row={props.row} fmt={fmt} />
            <Text size="sm" c="dimmed">
              {t('disbursements.paid.help')}
            </Text>
            <TextInput
              label={t('disbursements.paid.reference')}
              withAsterisk
              autoComplete="off"
              maxLength={REFERENCE_MAX}
              value={reference}
              error={fieldError}
              data-autofocus
              onChange={(event) => {
                setReference(event.currentTarget.value);
                if (fieldError) setFieldError(null);
              }}
            />
            {error ? (
              <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" py="xs">
                {error}
              </Alert>
            ) : null}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={props.onClose} disabled={saving}>
                {t('backOffice.common.cancel')}
              </Button>
              <Button type="submit" color="green.8" loading={saving}>
                {t('disbursements.paid.confirm')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : null}
    </Modal>
  );
}

/** Disbursements (SPEC §2.7): every payout request and what became of it. Records are never deleted. */
export function DisbursementsPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const user = useCurrentUser();
  const canDecide = canDecideDisbursements(user.role);
  const decide = useDecision();
  const [dialog, setDialog] = useState<'paid' | 'failed' | null>(null);
  const [row, setRow] = useState<StaffDisbursementItem | null>(null);
  const open = (kind: 'paid' | 'failed', item: StaffDisbursementItem) => {
    setRow(item);
    setDialog(kind);
  };
  const close = () => setDialog(null);

  const c = (key: string) => t(`backOffice.columns.${key}`);
  const d = (key: string) => t(`disbursements.columns.${key}`);
  const statusLabel = (status: StaffDisbursementItem['status']) => t(`disbursements.status.${status}`);
  const search: SearchField[] = [
    { key: 'name', label: t('backOffice.search.name'), placeholder: t('backOffice.search.namePlaceholder') },
    {
      key: 'phone',
      label: t('backOffice.search.phone'),
      placeholder: t('backOffice.search.phonePlaceholder'),
      type: 'digits',
    },
    {
      key: 'status',
      label: d('status'),
      placeholder: t('disbursements.allStatuses'),
      type: 'select',
      width: 180,
      options: (['requested', 'paid', 'failed'] as const).map((value) => ({
        value,
        label: statusLabel(value),
      })),
    },
  ];

  const outcome = (item: StaffDisbursementItem): ReactNode => {
    if (item.status === 'paid' && item.reference)
      return (
        <Text size="sm" ff="monospace" miw={90} maw={200} style={{ overflowWrap: 'anywhere' }}>
          {item.reference}
        </Text>
      );
    if (item.status === 'failed' && item.failureReason)
      return (
        <Text size="sm" c="red.7" miw={90} maw={200} style={{ overflowWrap: 'anywhere' }}>
          {item.failureReason}
        </Text>
      );
    return fmt.na;
  };

  const columns: Column<StaffDisbursementItem>[] = [
    {
      key: 'loanId',
      header: c('loanId'),
      cell: (item) => (
        <Text span ff="monospace" size="xs">
          {item.loanNumber}
        </Text>
      ),
    },
    {
      key: 'name',
      header: c('name'),
      nowrap: false,
      cell: (item) => (
        <Text size="sm" miw={80}>
          {fmt.text(item.fullName)}
        </Text>
      ),
    },
    { key: 'phone', header: c('phone'), cell: (item) => fmt.text(item.phone) },
    {
      key: 'amount',
      header: c('amount'),
      align: 'right',
      cell: (item) => fmt.money(item.amountMinor, { omitZeroCents: true }),
    },
    {
      key: 'destination',
      header: d('destination'),
      nowrap: false,
      cell: (item) => (
        <Stack gap={0} title={maskedDestination(item.bankName, item.accountNumberLast4)}>
          <Text span size="sm">
            {fmt.text(item.bankName)}
          </Text>
          <Text span size="xs" c="dimmed" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
            {maskAccount(item.accountNumberLast4) || fmt.na}
          </Text>
        </Stack>
      ),
    },
    { key: 'requestedAt', header: c('requestedAt'), cell: (item) => <DateTimeCell iso={item.requestedAt} /> },
    {
      key: 'status',
      header: d('status'),
      cell: (item) => (
        <Stack gap={2} align="flex-start">
          <ToneBadge color={statusColors[item.status]} label={statusLabel(item.status)} />
          {item.decidedAt ? (
            <Text size="xs" c="dimmed" title={fmt.dateTime(item.decidedAt)}>
              {fmt.date(item.decidedAt)}
            </Text>
          ) : item.loanStatus === 'on_hold' ? (
            <Text size="xs" c="red.7">
              {t('disbursements.loanOnHold')}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    { key: 'reference', header: d('reference'), nowrap: false, cell: outcome },
    {
      key: 'decidedBy',
      header: d('decidedBy'),
      cell: (item) =>
        item.decidedBy ? (
          <Stack gap={0}>
            <Text span size="sm" fw={500}>
              {item.decidedBy}
            </Text>
            <DateTimeCell iso={item.decidedAt} />
          </Stack>
        ) : (
          fmt.na
        ),
    },
    ...(canDecide
      ? [
          {
            key: 'action',
            header: c('action'),
            cell: (item: StaffDisbursementItem) =>
              item.status === 'requested' ? (
                <Stack gap={4} align="stretch">
                  <Button size="compact-xs" color="green.8" onClick={() => open('paid', item)}>
                    {t('disbursements.actions.markPaid')}
                  </Button>
                  <Button
                    size="compact-xs"
                    color="red.7"
                    variant="outline"
                    onClick={() => open('failed', item)}
                  >
                    {t('disbursements.actions.markFailed')}
                  </Button>
                </Stack>
              ) : (
                <Text span c="dimmed" size="sm">
                  —
                </Text>
              ),
          } satisfies Column<StaffDisbursementItem>,
        ]
      : []),
  ];

  return (
    <>
      <ListPage<StaffDisbursementItem>
        title={t('disbursements.title')}
        queryKey={backOfficeKeys.list('disbursements')}
        endpoint="/api/staff/disbursements"
        search={search}
        columns={columns}
        rowKey={(item) => item.id}
        tableMinWidth={canDecide ? 1060 : 960}
      />
      {canDecide ? (
        <>
          <MarkPaidModal row={row} opened={dialog === 'paid'} onClose={close} />
          <ReasonModal
            opened={dialog === 'failed'}
            onClose={close}
            title={t('disbursements.failed.title')}
            description={
              row ? (
                <Stack gap="xs">
                  <PayoutLine row={row} fmt={fmt} />
                  <Text size="sm" c="dimmed">
                    {t('disbursements.failed.help')}
                  </Text>
                </Stack>
              ) : undefined
            }
            reasonLabel={t('disbursements.failed.reason')}
            confirmLabel={t('disbursements.failed.confirm')}
            confirmColor="red.7"
            onConfirm={async (reason) => {
              if (!row) return;
              await decide(
                () => markDisbursementFailed(row.id, reason),
                t('disbursements.failed.toast', {
                  amount: fmt.money(row.amountMinor),
                  loanNumber: row.loanNumber,
                }),
              );
            }}
          />
        </>
      ) : null}
    </>
  );
}
