import { Anchor, Button, Paper, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toMinor } from '../../../../domain/money';
import { type Column, DataTable } from '../../../components/lists/data-table';
import { PageHeader, RefreshButton } from '../../../components/lists/list-page';
import { InlineLoadError, InlineLoading } from '../../../components/load-state';
import { StatusBadge } from '../../../components/status-badge';
import { useFormat } from '../../../lib/format';
import { useCan } from '../../../lib/session';
import { type ProductDto, useProducts } from '../api/products';
import { nameIn } from './product-name';

/**
 * Loan Products (issue #31, docs/decisions/034): every product with its current version — what borrowers
 * may ask for, the periods, the price and whether it is offered. Every staff member reads it; admins create
 * and edit.
 */
export function ProductsPage() {
  const { t, i18n } = useTranslation();
  const fmt = useFormat();
  const can = useCan();
  const products = useProducts();
  const pesos = (value: number) => fmt.money(toMinor(value), { omitZeroCents: true });
  const col = (key: string) => t(`products.columns.${key}`);

  const columns: Column<ProductDto>[] = [
    {
      key: 'product',
      header: col('product'),
      nowrap: false,
      width: 200,
      cell: (product) => (
        <Stack gap={0}>
          <Anchor component={Link} to={`/admin/products/${product.id}`} fw={600}>
            {nameIn(product.current.terms.names, i18n.language)}
          </Anchor>
          <Text size="xs" c="dimmed">
            {product.isDefault ? t('products.defaultProduct') : t('products.code', { code: product.code })}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'version',
      header: col('version'),
      align: 'right',
      cell: (product) => fmt.number(product.current.version),
    },
    {
      key: 'rate',
      header: col('rate'),
      align: 'right',
      cell: (product) => fmt.percent(product.current.terms.monthlyRateBp / 10_000),
    },
    {
      key: 'amounts',
      header: col('amounts'),
      cell: (product) =>
        t('products.columns.amountsValue', {
          min: pesos(product.current.terms.borrowerAmount.min),
          max: pesos(product.current.terms.borrowerAmount.max),
        }),
    },
    {
      key: 'terms',
      header: col('terms'),
      nowrap: false,
      cell: (product) =>
        t('products.columns.termsValue', { terms: product.current.terms.termsMonths.join(', ') }),
    },
    {
      key: 'lateCharge',
      header: col('lateCharge'),
      align: 'right',
      cell: (product) => fmt.percent(product.current.terms.lateChargeMonthlyBp / 10_000),
    },
    {
      key: 'loans',
      header: col('loans'),
      align: 'right',
      cell: (product) => fmt.number(product.current.loansSigned),
    },
    {
      key: 'status',
      header: col('status'),
      cell: (product) => <StatusBadge status={product.current.terms.status} />,
    },
  ];

  return (
    <>
      <PageHeader title={t('products.title')}>
        <RefreshButton onClick={() => void products.refetch()} loading={products.isFetching} />
        {can('product.manage') ? (
          <Button component={Link} to="/admin/products/new" leftSection={<IconPlus size={16} />}>
            {t('products.new')}
          </Button>
        ) : null}
      </PageHeader>
      <Text size="sm" c="dimmed" mb="sm">
        {t('products.intro')}
      </Text>
      <Paper withBorder radius="md">
        {products.isPending ? (
          <InlineLoading />
        ) : products.isError ? (
          <InlineLoadError error={products.error} onRetry={() => void products.refetch()} />
        ) : (
          <DataTable
            columns={columns}
            rows={products.data.items}
            rowKey={(product) => product.id}
            label={t('products.title')}
            minWidth={900}
          />
        )}
      </Paper>
    </>
  );
}
