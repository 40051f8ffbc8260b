import { Alert, Anchor, Badge, Button, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArchive, IconArrowLeft, IconPencil, IconPlayerPlay } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { type AuditValueWriters, auditChangeLines } from '../../../../domain/audit-fields';
import { productChanges } from '../../../../domain/loan/product-changes';
import type { ProductTerms } from '../../../../domain/loan/products';
import type { ProductVersionDto } from '../../../../domain/schemas/products';
import { PageHeader, RefreshButton } from '../../../components/lists/list-page';
import { InlineLoadError, InlineLoading } from '../../../components/load-state';
import { ReasonModal } from '../../../components/reason-modal';
import { StatusBadge } from '../../../components/status-badge';
import { type Formatters, useFormat } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useCan } from '../../../lib/session';
import { statusLook } from '../../../lib/status';
import { tintedBackground } from '../../../lib/styles/tint';
import { type ProductDetailDto, useChangeProductStatus, useProduct } from '../api/products';
import { nameIn } from './product-name';
import { ProductTermsList } from './product-terms';

/** /admin/products/:id — the current terms, what each version changed and who saved it; edit, retire. */
export function ProductPage() {
  const { id = '' } = useParams();
  const { t, i18n } = useTranslation();
  const product = useProduct(id);
  const name = product.data ? nameIn(product.data.current.terms.names, i18n.language) : t('products.title');
  return (
    <>
      <Anchor
        component={Link}
        to="/admin/products"
        size="sm"
        display="inline-flex"
        mb="xs"
        style={{ gap: 4, alignItems: 'center' }}
      >
        <IconArrowLeft size={16} aria-hidden="true" />
        {t('products.detail.back')}
      </Anchor>
      <PageHeader title={name}>
        <RefreshButton onClick={() => void product.refetch()} loading={product.isFetching} />
      </PageHeader>
      {product.isPending ? (
        <InlineLoading />
      ) : product.isError ? (
        <InlineLoadError error={product.error} onRetry={() => void product.refetch()} />
      ) : (
        <ProductDetail product={product.data} name={name} />
      )}
    </>
  );
}

function ProductDetail({ product, name }: { product: ProductDetailDto; name: string }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const can = useCan();
  const changeStatus = useChangeProductStatus();
  const [dialog, setDialog] = useState<'retire' | 'reactivate' | null>(null);
  const { current } = product;
  const retired = current.terms.status === 'retired';
  const action = retired ? 'reactivate' : 'retire';

  return (
    <Grid gutter="md">
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Paper withBorder radius="md" p="md" component="section" aria-labelledby="product-current">
          <Group justify="space-between" gap="xs" mb="sm" wrap="nowrap" align="flex-start">
            <Title order={2} size="h4" id="product-current">
              {t('products.detail.current', { n: current.version })}
            </Title>
            <StatusBadge status={current.terms.status} />
          </Group>
          <Text size="sm" c="dimmed" mb="sm">
            {product.isDefault ? t('products.defaultProduct') : t('products.code', { code: product.code })}
            {' · '}
            {t('products.detail.loansSignedAll', {
              n: fmt.number(product.versions.reduce((sum, v) => sum + v.loansSigned, 0)),
            })}
          </Text>
          {retired ? (
            <Alert color="gray" variant="light" mb="sm">
              {t('products.detail.retiredNote')}
            </Alert>
          ) : null}
          <ProductTermsList terms={current.terms} />
          {can('product.manage') ? (
            <Group gap="sm" mt="md">
              <Button
                component={Link}
                to={`/admin/products/${product.id}/edit`}
                leftSection={<IconPencil size={16} />}
              >
                {t('products.detail.edit')}
              </Button>
              <Button
                variant="default"
                leftSection={retired ? <IconPlayerPlay size={16} /> : <IconArchive size={16} />}
                onClick={() => setDialog(action)}
              >
                {t(`products.detail.${action}`)}
              </Button>
            </Group>
          ) : null}
        </Paper>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 7 }}>
        <Paper withBorder radius="md" p="md" component="section" aria-labelledby="product-history">
          <Title order={2} size="h4" id="product-history" mb="sm">
            {t('products.detail.history')}
          </Title>
          <Stack gap="sm" component="ol" p={0} m={0} style={{ listStyle: 'none' }}>
            {product.versions.map((version, index) => (
              <VersionEntry
                key={version.id}
                version={version}
                previous={product.versions[index + 1] ?? null}
              />
            ))}
          </Stack>
        </Paper>
      </Grid.Col>
      <ReasonModal
        opened={dialog !== null}
        onClose={() => setDialog(null)}
        title={t(`products.detail.${action}Title`, { name })}
        description={<Text size="sm">{t(`products.detail.${action}Text`)}</Text>}
        confirmLabel={t(`products.detail.${action}`)}
        confirmColor={retired ? undefined : 'red'}
        onConfirm={async (reason) => {
          const saved = await changeStatus.run({
            id: product.id,
            action,
            basedOnVersion: current.version,
            reason,
          });
          if (saved) notifySuccess(t(`products.detail.${retired ? 'reactivated' : 'retired'}`, { name }));
        }}
      />
    </Grid>
  );
}

/** One version: when, by whom, what changed from the one before (or "created"), loans signed under it. */
function VersionEntry({
  version,
  previous,
}: {
  version: ProductVersionDto;
  previous: ProductVersionDto | null;
}) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const lines = previous ? changeLines(previous.terms, version.terms, t, fmt) : [];
  return (
    <li>
      <Paper withBorder radius="sm" p="sm" bg={tintedBackground}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text size="sm" fw={700}>
            {t('products.detail.versionBy', {
              n: version.version,
              when: fmt.dateTime(version.createdAt),
              who: version.createdBy ?? t('products.detail.system'),
            })}
          </Text>
          <Badge variant="light" color="gray">
            {t('products.detail.loansSigned', { n: fmt.number(version.loansSigned) })}
          </Badge>
        </Group>
        {version.reason ? (
          <Text size="sm" mt={6} style={{ overflowWrap: 'anywhere' }}>
            {t('products.detail.reason', { reason: version.reason })}
          </Text>
        ) : null}
        {previous ? (
          <Stack component="ul" gap={2} mt={6} pl="md" mb={0}>
            {lines.map((line) => (
              <Text component="li" size="sm" key={line}>
                {line}
              </Text>
            ))}
          </Stack>
        ) : (
          <Text size="sm" mt={6}>
            {t('products.detail.created')}
          </Text>
        )}
      </Paper>
    </li>
  );
}

/** "Late charge a month: 0% → 3%", one line per changed term, as the audit log writes them. */
function changeLines(
  before: ProductTerms | ProductVersionDto['terms'],
  after: ProductTerms | ProductVersionDto['terms'],
  t: ReturnType<typeof useTranslation>['t'],
  fmt: Formatters,
): string[] {
  const write: AuditValueWriters = {
    money: (minor) => fmt.money(minor),
    date: (isoDate) => fmt.calendarDate(isoDate),
    dateTime: (iso) => fmt.dateTime(iso),
    number: (value) => fmt.number(value),
    status: (status) => (status === 'active' || status === 'retired' ? t(statusLook(status).label) : status),
    role: (role) => t(`auditLabels.roles.${role}`, { defaultValue: role }),
    yes: t('auditLabels.values.yes'),
    no: t('auditLabels.values.no'),
    passwordReset: t('auditLabels.values.passwordReset'),
  };
  const changes = Object.fromEntries(
    productChanges(before, after).map(({ field, before: b, after: a }) => [field, { before: b, after: a }]),
  );
  return auditChangeLines(changes, (field) => t(`auditLabels.fields.${field}`), write);
}
