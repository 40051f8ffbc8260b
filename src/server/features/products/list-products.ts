import { sql } from 'kysely';
import { AppError } from '../../../domain/errors';
import type { ProductDetailDto, ProductDto } from '../../../domain/schemas/products';
import type { AppDeps } from '../../deps';
import { loansSignedByVersion, toProductVersion } from '../../products/product-versions';
import { toProductVersionDto } from './product-dto';

function versionRows(deps: Pick<AppDeps, 'db'>) {
  return deps.db
    .selectFrom('product_versions as v')
    .innerJoin('products as p', 'p.id', 'v.product_id')
    .leftJoin('users as author', 'author.id', 'v.created_by')
    .selectAll('v')
    .select(['p.code', 'p.is_default', 'p.created_at as product_created_at'])
    .select(sql<string | null>`coalesce(author.username, author.phone)`.as('author'));
}

type Row = Awaited<ReturnType<ReturnType<typeof versionRows>['execute']>>[number];

const asDto = (row: Row, loans: Map<string, number>) =>
  toProductVersionDto(
    { ...toProductVersion(row), createdAt: row.created_at, createdBy: row.author, reason: row.reason },
    loans.get(row.id) ?? 0,
  );

/** Every product with its current (newest) version, oldest product first: the default one leads. */
export async function listProducts(deps: Pick<AppDeps, 'db'>): Promise<{ items: ProductDto[] }> {
  const rows = await versionRows(deps)
    .where(
      'v.version',
      '=',
      sql<number>`(select max(n.version) from product_versions n where n.product_id = v.product_id)`,
    )
    .orderBy('p.created_at')
    .orderBy('p.code')
    .execute();
  const loans = await loansSignedByVersion(
    deps.db,
    rows.map((r) => r.id),
  );
  return {
    items: rows.map((row) => ({
      id: row.product_id,
      code: row.code,
      isDefault: row.is_default,
      createdAt: row.product_created_at.toISOString(),
      current: asDto(row, loans),
    })),
  };
}

/** One product with every version, newest first (its history). */
export async function getProduct(deps: Pick<AppDeps, 'db'>, productId: string): Promise<ProductDetailDto> {
  const rows = await versionRows(deps)
    .where('v.product_id', '=', productId)
    .orderBy('v.version', 'desc')
    .execute();
  const newest = rows[0];
  if (!newest) throw new AppError('PRODUCT_NOT_FOUND');
  const loans = await loansSignedByVersion(
    deps.db,
    rows.map((r) => r.id),
  );
  const versions = rows.map((row) => asDto(row, loans));
  return {
    id: newest.product_id,
    code: newest.code,
    isDefault: newest.is_default,
    createdAt: newest.product_created_at.toISOString(),
    current: versions[0]!,
    versions,
  };
}
