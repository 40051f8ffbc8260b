import type { Transaction } from 'kysely';
import { AppError } from '../../../domain/errors';
import { productFacts, sameProductTerms } from '../../../domain/loan/product-changes';
import { type ProductStatus, type ProductTerms, productIssues } from '../../../domain/loan/products';
import type { ProductTermsInput } from '../../../domain/schemas/products';
import { recordAudit } from '../../audit/audit';
import type { StaffContext } from '../../auth/staff-context';
import type { Database } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { isUniqueViolation } from '../../lib/db-errors';
import { currentProductVersions, insertProductVersion } from '../../products/product-versions';

/** Refuses terms that are not a product Hiram may lend under, naming each field and why. */
function checkedTerms(input: ProductTermsInput, status: ProductStatus): ProductTerms {
  const terms: ProductTerms = { ...input, status };
  const issues = productIssues(terms);
  if (Object.keys(issues).length > 0) throw new AppError('PRODUCT_INVALID', { fields: issues });
  return terms;
}

/** A new product, offered at once: version 1 of `terms`. Audited with every term. */
export async function createProduct(
  deps: AppDeps,
  ctx: StaffContext,
  input: { code: string; terms: ProductTermsInput },
): Promise<string> {
  const terms = checkedTerms(input.terms, 'active');
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const product = await trx
        .insertInto('products')
        .values({ code: input.code, created_by: ctx.staff.id })
        .returning('id')
        .executeTakeFirstOrThrow();
      await insertProductVersion(trx, product.id, 1, terms, ctx.staff.id);
      await recordAudit(trx, ctx.actor, {
        action: 'product.create',
        targetType: 'product',
        targetId: product.id,
        after: { productCode: input.code, productVersion: 1, ...productFacts(terms) },
      });
      return product.id;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'products_code_key')) {
      throw new AppError('PRODUCT_CODE_TAKEN', { fields: { code: 'PRODUCT_CODE_TAKEN' } });
    }
    throw error;
  }
}

/**
 * The product's newest version, locked against a concurrent save: every writer of a product's versions locks
 * its row first, so two edits queue and the second finds it was based on an older version.
 */
async function lockCurrent(trx: Transaction<Database>, productId: string, basedOnVersion: number) {
  const locked = await trx
    .selectFrom('products')
    .select('id')
    .where('id', '=', productId)
    .forUpdate()
    .executeTakeFirst();
  if (!locked) throw new AppError('PRODUCT_NOT_FOUND');
  const [current] = await currentProductVersions(trx, productId);
  if (!current) throw new AppError('PRODUCT_NOT_FOUND');
  if (current.version !== basedOnVersion) throw new AppError('PRODUCT_VERSION_OUTDATED');
  return current;
}

/**
 * An edit (issue #31): the whole new terms become the next version; nothing already signed changes (a loan
 * keeps its version and its terms snapshot). A save that changes nothing makes no version. Audited with what
 * changed, before and after.
 */
export async function addProductVersion(
  deps: AppDeps,
  ctx: StaffContext,
  productId: string,
  input: { basedOnVersion: number; terms: ProductTermsInput; reason?: string | undefined },
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const current = await lockCurrent(trx, productId, input.basedOnVersion);
    const terms = checkedTerms(input.terms, current.status);
    if (sameProductTerms(current, terms)) throw new AppError('PRODUCT_UNCHANGED');
    await saveVersion(trx, ctx, current, terms, 'product.new_version', input.reason?.trim() || null);
  });
}

/**
 * Retiring stops new applications under the product (a borrower who chose it is told so); reactivating
 * offers it again. Each is a new version with the same terms and the other status, audited with a reason.
 */
export async function changeProductStatus(
  deps: AppDeps,
  ctx: StaffContext,
  productId: string,
  status: ProductStatus,
  input: { basedOnVersion: number; reason: string },
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const current = await lockCurrent(trx, productId, input.basedOnVersion);
    if (current.status === status) {
      throw new AppError(status === 'retired' ? 'PRODUCT_ALREADY_RETIRED' : 'PRODUCT_ALREADY_ACTIVE');
    }
    const { id: _id, productId: _product, code: _code, version: _version, ...terms } = current;
    await saveVersion(
      trx,
      ctx,
      current,
      { ...terms, status },
      status === 'retired' ? 'product.retire' : 'product.reactivate',
      input.reason,
    );
  });
}

async function saveVersion(
  trx: Transaction<Database>,
  ctx: StaffContext,
  current: Awaited<ReturnType<typeof lockCurrent>>,
  terms: ProductTerms,
  action: 'product.new_version' | 'product.retire' | 'product.reactivate',
  reason: string | null,
) {
  const version = current.version + 1;
  await insertProductVersion(trx, current.productId, version, terms, ctx.staff.id, reason);
  await recordAudit(trx, ctx.actor, {
    action,
    targetType: 'product',
    targetId: current.productId,
    before: { productCode: current.code, productVersion: current.version, ...productFacts(current) },
    after: { productCode: current.code, productVersion: version, ...productFacts(terms) },
    reason,
  });
}
