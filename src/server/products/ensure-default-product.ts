import { sql } from 'kysely';
import { productFacts } from '../../domain/loan/product-changes';
import { type ProductNames, productIssues, productTermsFromSettings } from '../../domain/loan/products';
import { recordAudit, systemActor } from '../audit/audit';
import type { AppDeps } from '../deps';
import { insertProductVersion } from './product-versions';

/** The default product's code and its name in every language. */
export const DEFAULT_PRODUCT_CODE = 'personal-loan';
export const DEFAULT_PRODUCT_NAMES: ProductNames = {
  en: 'Personal loan',
  fil: 'Personal na pautang',
  zh: '个人贷款',
  km: 'ប្រាក់កម្ចីផ្ទាល់ខ្លួន',
};

/**
 * On a database with no product yet, the settings an existing set-up ran on (LOAN_*, REPAYMENT_GRACE_DAYS,
 * LATE_CHARGE_MONTHLY_BP, FOUR_EYES_THRESHOLD) become version 1 of the default product (SPEC §9,
 * docs/decisions/034), recorded in the audit log as the system's. After that the settings are never read
 * for a loan. Several instances starting together queue on an advisory lock and exactly one writes it.
 * Returns whether it wrote the product.
 */
export async function ensureDefaultProduct(deps: Pick<AppDeps, 'db' | 'config'>): Promise<boolean> {
  const { config } = deps;
  const terms = productTermsFromSettings(
    config.loanProduct,
    config.repaymentRules,
    config.fourEyesThresholdMinor,
    DEFAULT_PRODUCT_NAMES,
  );
  const issues = productIssues(terms);
  if (Object.keys(issues).length > 0) {
    throw new Error(`The loan settings cannot become the default product: ${JSON.stringify(issues)}`);
  }
  return deps.db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('hiram:default-product'))`.execute(trx);
    const any = await trx.selectFrom('products').select('id').limit(1).executeTakeFirst();
    if (any) return false;
    const product = await trx
      .insertInto('products')
      .values({ code: DEFAULT_PRODUCT_CODE, is_default: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    await insertProductVersion(trx, product.id, 1, terms, null);
    await recordAudit(trx, systemActor('settings', null), {
      action: 'product.create',
      targetType: 'product',
      targetId: product.id,
      after: { productCode: DEFAULT_PRODUCT_CODE, productVersion: 1, ...productFacts(terms) },
    });
    return true;
  });
}
