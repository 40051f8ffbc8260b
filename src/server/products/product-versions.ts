import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { AppError } from '../../domain/errors';
import type { ProductTerms, ProductVersion } from '../../domain/loan/products';
import { MINOR_PER_MAJOR } from '../../domain/money';
import type { Database, ProductVersionsTable } from '../db/schema';

type Db = Kysely<Database> | Transaction<Database>;
type VersionRow = Selectable<ProductVersionsTable> & { code: string };

const pesos = (minor: number) => minor / MINOR_PER_MAJOR;
const minor = (pesos: number) => pesos * MINOR_PER_MAJOR;

/** A stored version as the domain's `ProductVersion` (amount rules in whole pesos). */
export function toProductVersion(row: VersionRow): ProductVersion {
  return {
    id: row.id,
    productId: row.product_id,
    code: row.code,
    version: row.version,
    status: row.status,
    names: { en: row.name_en, fil: row.name_fil, zh: row.name_zh, km: row.name_km },
    borrowerAmount: {
      min: pesos(row.borrower_min_minor),
      max: pesos(row.borrower_max_minor),
      step: pesos(row.borrower_step_minor),
    },
    staffAmount: {
      min: pesos(row.staff_min_minor),
      max: pesos(row.staff_max_minor),
      step: pesos(row.staff_step_minor),
    },
    termsMonths: [...row.terms_months],
    defaultTermMonths: row.default_term_months,
    monthlyRateBp: row.monthly_rate_bp,
    fees: { flatMinor: row.fee_flat_minor, percentBp: row.fee_percent_bp, collection: row.fee_collection },
    lateChargeMonthlyBp: row.late_charge_monthly_bp,
    graceDays: row.grace_days,
    fourEyesThresholdMinor: row.four_eyes_threshold_minor,
    eligibility: {
      firstLoanMaxAmount: pesos(row.first_loan_max_minor),
      repeat:
        row.repeat_after_loans !== null && row.repeat_max_days_late !== null && row.repeat_max_minor !== null
          ? {
              afterLoans: row.repeat_after_loans,
              maxDaysLate: row.repeat_max_days_late,
              maxAmount: pesos(row.repeat_max_minor),
            }
          : null,
    },
  };
}

/** Inserts version `version` of a product; the caller has checked the terms (`productIssues`). */
export async function insertProductVersion(
  trx: Transaction<Database>,
  productId: string,
  version: number,
  terms: ProductTerms,
  createdBy: string | null,
  reason: string | null = null,
): Promise<string> {
  const repeat = terms.eligibility.repeat;
  const row = await trx
    .insertInto('product_versions')
    .values({
      product_id: productId,
      version,
      status: terms.status,
      name_en: terms.names.en,
      name_fil: terms.names.fil,
      name_zh: terms.names.zh,
      name_km: terms.names.km,
      borrower_min_minor: minor(terms.borrowerAmount.min),
      borrower_max_minor: minor(terms.borrowerAmount.max),
      borrower_step_minor: minor(terms.borrowerAmount.step),
      staff_min_minor: minor(terms.staffAmount.min),
      staff_max_minor: minor(terms.staffAmount.max),
      staff_step_minor: minor(terms.staffAmount.step),
      terms_months: `{${terms.termsMonths.join(',')}}`,
      default_term_months: terms.defaultTermMonths,
      monthly_rate_bp: terms.monthlyRateBp,
      fee_flat_minor: terms.fees.flatMinor,
      fee_percent_bp: terms.fees.percentBp,
      fee_collection: terms.fees.collection,
      late_charge_monthly_bp: terms.lateChargeMonthlyBp,
      grace_days: terms.graceDays,
      four_eyes_threshold_minor: terms.fourEyesThresholdMinor,
      first_loan_max_minor: minor(terms.eligibility.firstLoanMaxAmount),
      repeat_after_loans: repeat?.afterLoans ?? null,
      repeat_max_days_late: repeat?.maxDaysLate ?? null,
      repeat_max_minor: repeat ? minor(repeat.maxAmount) : null,
      created_by: createdBy,
      reason,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

function versions(db: Db) {
  return db
    .selectFrom('product_versions as v')
    .innerJoin('products as p', 'p.id', 'v.product_id')
    .selectAll('v')
    .select('p.code');
}

/** One version by id, or null. */
export async function findProductVersion(db: Db, id: string): Promise<ProductVersion | null> {
  const row = await versions(db).where('v.id', '=', id).executeTakeFirst();
  return row ? toProductVersion(row) : null;
}

/**
 * The newest version of every product (or of one): what each offers now. A version is offered to new
 * applications only while it is its product's newest and active.
 */
export async function currentProductVersions(db: Db, productId?: string): Promise<ProductVersion[]> {
  let query = versions(db).where(
    'v.version',
    '=',
    sql<number>`(select max(n.version) from product_versions n where n.product_id = v.product_id)`,
  );
  if (productId) query = query.where('v.product_id', '=', productId);
  const rows = await query.orderBy('p.created_at').orderBy('p.code').execute();
  return rows.map(toProductVersion);
}

/**
 * The version whose rules govern a loan: the one it was signed under, or — for a loan signed before products
 * existed — the default product's first version (the settings it was offered under, written at start-up).
 */
export async function governingProductVersion(
  db: Db,
  application: { product_version_id: string | null },
): Promise<ProductVersion> {
  if (application.product_version_id) {
    const own = await findProductVersion(db, application.product_version_id);
    if (own) return own;
  }
  const row = await versions(db)
    .where('p.is_default', '=', true)
    .where('v.version', '=', 1)
    .executeTakeFirst();
  // Written at every start (main.ts) and by the test app: without it nothing can be priced.
  if (!row) throw new Error('The default loan product has not been written yet (ensureDefaultProduct).');
  return toProductVersion(row);
}

/**
 * The version a borrower applies under: `versionId` when given, else the one product they are offered. It
 * must be its product's newest version and active; an older version of a product still offered answers
 * PRODUCT_TERMS_UPDATED (the borrower reviews the new terms), anything else PRODUCT_NOT_OFFERED.
 */
export async function versionForApplication(db: Db, versionId: string | undefined): Promise<ProductVersion> {
  const current = await currentProductVersions(db);
  const offered = current.filter((v) => v.status === 'active');
  if (versionId === undefined) {
    if (offered.length === 1) return offered[0]!;
    throw new AppError(offered.length === 0 ? 'PRODUCT_NOT_OFFERED' : 'PRODUCT_CHOICE_REQUIRED', {
      fields: { productVersionId: offered.length === 0 ? 'PRODUCT_NOT_OFFERED' : 'PRODUCT_CHOICE_REQUIRED' },
    });
  }
  const chosen = offered.find((v) => v.id === versionId);
  if (chosen) return chosen;
  const asked = await findProductVersion(db, versionId);
  const stillOffered = asked && offered.some((v) => v.productId === asked.productId);
  const code = stillOffered ? 'PRODUCT_TERMS_UPDATED' : 'PRODUCT_NOT_OFFERED';
  throw new AppError(code, { fields: { productVersionId: code } });
}

/** How many loans were signed under each version. */
export async function loansSignedByVersion(db: Db, versionIds: string[]): Promise<Map<string, number>> {
  if (versionIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('applications')
    .select(['product_version_id'])
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('product_version_id', 'in', versionIds)
    .groupBy('product_version_id')
    .execute();
  return new Map(rows.map((r) => [r.product_version_id!, Number(r.count)]));
}

/**
 * The four-eyes threshold (centavos) of the loan in `applications`, in SQL: its own version's, else the
 * default product's first version's (loans signed before products). For the one-statement approval.
 */
export function fourEyesThresholdSql() {
  return sql<number>`coalesce(
    (select own.four_eyes_threshold_minor from product_versions own
      where own.id = applications.product_version_id),
    (select first.four_eyes_threshold_minor from product_versions first
      join products p on p.id = first.product_id where p.is_default and first.version = 1))`;
}
