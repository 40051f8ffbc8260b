import { Anchor } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../../components/lists/list-page';
import { InlineLoadError, InlineLoading } from '../../../components/load-state';
import { notifySuccess } from '../../../lib/notify';
import { useCreateProduct, useProduct, useSaveProductVersion } from '../api/products';
import { emptyProductForm, formValuesOf } from '../model/product-form';
import { ProductForm, VersionNote } from './product-form';
import { nameIn } from './product-name';

function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <Anchor
      component={Link}
      to={to}
      size="sm"
      display="inline-flex"
      mb="xs"
      style={{ gap: 4, alignItems: 'center' }}
    >
      <IconArrowLeft size={16} aria-hidden="true" />
      {label}
    </Anchor>
  );
}

/** /admin/products/new — a new product, offered once created (version 1). Admins only. */
export function NewProductPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateProduct();
  return (
    <>
      <BackLink to="/admin/products" label={t('products.detail.back')} />
      <PageHeader title={t('products.form.newTitle')} />
      <ProductForm
        initial={emptyProductForm}
        mode="create"
        submitLabel={t('products.form.create')}
        onCancel={() => navigate('/admin/products')}
        onSubmit={async ({ code, terms }) => {
          const saved = await create.run({ code, terms });
          if (!saved) return;
          notifySuccess(
            t('products.form.created', { name: nameIn(saved.current.terms.names, i18n.language) }),
          );
          navigate(`/admin/products/${saved.id}`);
        }}
      />
    </>
  );
}

/** /admin/products/:id/edit — the current terms to change; saving makes the next version. Admins only. */
export function EditProductPage() {
  const { id = '' } = useParams();
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const product = useProduct(id);
  const save = useSaveProductVersion();
  const back = `/admin/products/${id}`;
  if (product.isPending) return <InlineLoading />;
  if (product.isError)
    return <InlineLoadError error={product.error} onRetry={() => void product.refetch()} />;
  const { current } = product.data;
  const name = nameIn(current.terms.names, i18n.language);
  return (
    <>
      <BackLink to={back} label={name} />
      <PageHeader title={t('products.form.editTitle', { name })} />
      <ProductForm
        // A newer version saved meanwhile starts the form again from it.
        key={current.version}
        initial={formValuesOf(product.data.code, current.terms)}
        mode="edit"
        note={<VersionNote next={current.version + 1} />}
        submitLabel={t('products.form.save')}
        onCancel={() => navigate(back)}
        onSubmit={async ({ terms, reason }) => {
          const saved = await save.run({
            id,
            basedOnVersion: current.version,
            terms,
            ...(reason ? { reason } : {}),
          });
          if (!saved) return;
          notifySuccess(
            t('products.form.saved', {
              name: nameIn(saved.current.terms.names, i18n.language),
              n: saved.current.version,
            }),
          );
          navigate(back);
        }}
      />
    </>
  );
}
