import { Button, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import {
  type AuditValueWriters,
  auditActions,
  auditChangeLines,
  isAuditAction,
  isAuditTargetType,
} from '../../../../domain/audit-fields';
import type { AuditEventDto } from '../../../../domain/schemas/staff';
import type { Column } from '../../../components/lists/data-table';
import { ListPage } from '../../../components/lists/list-page';
import type { SearchField } from '../../../components/lists/search-bar';
import { buildListUrl, useListParams } from '../../../components/lists/use-list';
import { type Formatters, useFormat } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';
import { backOfficeKeys } from '../../../lib/staff/keys';
import { type ShownStatus, statusLook, statusLooks } from '../../../lib/status';

/** The filters: URL and API parameters alike (GET /api/admin/audit and /api/admin/audit.csv). */
const filterKeys = ['actor', 'action', 'loan', 'from', 'to'] as const;

/**
 * "Amount: ₱140,000.00 → ₱160,000.00", one line per changed field in the reader's language: the field's
 * label and value kind from the shared audit catalogue (src/domain/audit-fields), as the CSV's readable column.
 */
export function changeLines(changes: AuditEventDto['changes'], t: TFunction, fmt: Formatters): string[] {
  const write: AuditValueWriters = {
    money: (minor) => fmt.money(minor),
    date: (isoDate) => fmt.calendarDate(isoDate),
    dateTime: (iso) => fmt.dateTime(iso),
    number: (value) => fmt.number(value),
    status: (status) =>
      Object.hasOwn(statusLooks, status) ? t(statusLook(status as ShownStatus).label) : status,
    role: (role) => t(`auditLabels.roles.${role}`, { defaultValue: role }),
    yes: t('auditLabels.values.yes'),
    no: t('auditLabels.values.no'),
    passwordReset: t('auditLabels.values.passwordReset'),
  };
  return auditChangeLines(
    changes,
    (field) => t(`auditLabels.fields.${field}`, { defaultValue: field }),
    write,
  );
}

/**
 * The CSV export of the rows the filters select (cookie-authenticated GET, so a plain link works), with its
 * headers and readable columns in the reader's language.
 */
export function auditCsvUrl(filters: Record<string, string>, lang: string): string {
  return buildListUrl('/api/admin/audit.csv', { ...filters, lang });
}

/** Audit Log (SPEC §2.7, admin only): who did what, before → after, why, when and from where. */
export function AuditPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  // The same URL state ListPage reads, so the export always matches the rows on screen.
  const { search: filters } = useListParams(filterKeys);

  // Every action the server records has a label (src/domain/audit-fields); an older row's unknown one shows as stored.
  const actionLabel = (action: string) =>
    isAuditAction(action) ? t(`auditLabels.actions.${action}`) : action;
  const f = (key: string) => t(`audit.filters.${key}`);
  const col = (key: string) => t(`audit.columns.${key}`);

  const search: SearchField[] = [
    { key: 'actor', label: f('actor'), placeholder: f('actorPlaceholder'), width: 140 },
    {
      key: 'action',
      label: f('action'),
      placeholder: f('allActions'),
      type: 'select',
      width: 210,
      options: auditActions.map((value) => ({ value, label: actionLabel(value) })),
    },
    { key: 'loan', label: f('loan'), placeholder: f('loanPlaceholder'), width: 140 },
    { key: 'from', label: f('from'), type: 'date', width: 140 },
    { key: 'to', label: f('to'), type: 'date', width: 140 },
  ];

  const targetText = (event: AuditEventDto) => {
    const type = isAuditTargetType(event.targetType)
      ? t(`audit.targets.${event.targetType}`)
      : event.targetType;
    // Loans and applications are known by their loan number; users and payouts by their id.
    const aboutLoan = event.targetType === 'loan' || event.targetType === 'application';
    return aboutLoan && event.loanNumber
      ? { type, id: event.loanNumber, loan: null }
      : { type, id: `${event.targetId.slice(0, 8)}…`, loan: event.loanNumber };
  };

  // Who with the IP, and the action with its target, share a cell: the row stays readable at 1280 px.
  const columns: Column<AuditEventDto>[] = [
    {
      key: 'when',
      header: col('when'),
      nowrap: false,
      cell: (event) => (
        <Text span size="sm" miw={96} display="block">
          {fmt.dateTime(event.at)}
        </Text>
      ),
    },
    {
      key: 'who',
      header: col('who'),
      cell: (event) => (
        <Stack gap={0}>
          <Text span size="sm" fw={500}>
            {fmt.text(event.actorUsername)}
          </Text>
          <Text span size="xs" c="dimmed">
            {t(`roles.${event.actorRole}`, { defaultValue: event.actorRole })}
          </Text>
          <Text span size="xs" c="dimmed" ff="monospace" data-testid="audit-ip">
            {fmt.text(event.ip)}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'action',
      header: col('action'),
      cell: (event) => {
        const target = targetText(event);
        return (
          <Stack gap={0}>
            <Text span size="sm" fw={500} title={event.action} data-testid="audit-action">
              {actionLabel(event.action)}
            </Text>
            <Text span size="xs" c="dimmed" data-testid="audit-target">
              {target.type}{' '}
              <Text span inherit ff="monospace" title={event.targetId}>
                {target.id}
              </Text>
            </Text>
            {target.loan ? (
              <Text span size="xs" c="dimmed" ff="monospace">
                {target.loan}
              </Text>
            ) : null}
          </Stack>
        );
      },
    },
    {
      key: 'changes',
      header: col('changes'),
      nowrap: false,
      cell: (event) => {
        const lines = changeLines(event.changes, t, fmt);
        if (lines.length === 0) return fmt.na;
        return (
          <Stack gap={2} miw={200} maw={380} data-testid="audit-changes">
            {lines.map((line) => (
              <Text key={line} size="xs" style={{ overflowWrap: 'anywhere' }}>
                {line}
              </Text>
            ))}
          </Stack>
        );
      },
    },
    {
      key: 'reason',
      header: col('reason'),
      nowrap: false,
      cell: (event) => (
        <Text size="sm" miw={120} maw={260} style={{ overflowWrap: 'anywhere' }} data-testid="audit-reason">
          {fmt.text(event.reason)}
        </Text>
      ),
    },
  ];

  return (
    <ListPage<AuditEventDto>
      title={t('audit.title')}
      queryKey={backOfficeKeys.list('audit')}
      endpoint="/api/admin/audit"
      search={search}
      columns={columns}
      rowKey={(event) => String(event.id)}
      tableMinWidth={940}
      actions={
        <Button
          component="a"
          href={auditCsvUrl(filters, currentLanguage())}
          download
          variant="default"
          leftSection={<IconDownload size={16} />}
        >
          {t('audit.exportCsv')}
        </Button>
      }
    />
  );
}
