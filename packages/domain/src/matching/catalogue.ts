/**
 * Loading the lender catalogue: its JSON Schema, then the rules between values, then what depends on a
 * product alone, computed once: the rate, comparison rate and headline of each band and variant.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { fail, ok, type FieldViolation, type Result } from '../errors';
import { benchmarkFor, exampleText, warningText } from './benchmarks';
import {
  BANDS_BEST_FIRST,
  catalogueSchema,
  type CatalogueFile,
  type LenderDefinition,
  type NearMissPolicy,
  type ProductDefinition,
  type ServiceabilityPolicy,
} from './catalogue-schema';
import { semanticViolations, violation } from './catalogue-rules';
import { COST_RATE_CAP_PERCENT, comparisonRate, dollars, percent, round2, type LoanTerms } from './finance';
import { compileLmiTable, lmiColumnOf, needsLmi, type LmiTable } from './lmi';
import type { FormType } from '../validation/schemas';
import { deepFreeze } from '../deep-freeze';
import { commissionTerms } from '../outcomes/commission';

export type CatalogueProduct = Readonly<ReturnType<typeof compileProduct>>;

export type Catalogue = Readonly<{
  nearMiss: NearMissPolicy;
  lenders: readonly LenderDefinition[];
  products: readonly CatalogueProduct[];
  productsByType: Readonly<Record<FormType, readonly CatalogueProduct[]>>;
}>;

/** The catalogue in force, relative to this file (the same in `src` under tsx and jest). */
export const CATALOGUE_PATH = path.resolve(__dirname, '../../catalogue/catalogue.v1.json');

const ajv = new Ajv({ allErrors: true, strict: true, discriminator: true, verbose: true });
addFormats(ajv, ['date', 'uri']);
/** Annotation only: replaces ajv's rule text for errors raised by the schema object it sits on. */
ajv.addKeyword({ keyword: 'x-message', schemaType: ['string', 'object'] });
const validateFile = ajv.compile<CatalogueFile>(catalogueSchema);

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Who a path belongs to (`product car-one`, `lender harbour-bank`), and the rest of the path as `a.b.c`. */
function locate(json: unknown, segments: string[]): { owner: string; field: string } {
  const [collection, key, ...rest] = segments;
  const entries = isRecord(json) ? json[collection] : undefined;
  if ((collection === 'products' || collection === 'lenders') && key !== undefined) {
    const entry = Array.isArray(entries) ? entries[Number(key)] : undefined;
    const entryId = isRecord(entry) && typeof entry.id === 'string' ? entry.id : `#${key}`;
    return { owner: `${collection === 'products' ? 'product' : 'lender'} ${entryId}`, field: rest.join('.') };
  }
  if (collection === 'serviceabilityPolicies' && key !== undefined)
    return { owner: `serviceability policy ${key}`, field: rest.join('.') };
  if (collection === 'lmiTables' && key !== undefined) return { owner: `LMI table ${key}`, field: rest.join('.') };
  return { owner: 'catalogue', field: segments.join('.') };
}

function schemaViolations(json: unknown, errors: readonly ErrorObject[]): FieldViolation[] {
  // An anyOf reports its branches' errors too; where it failed, its own message says it all.
  const anyOfPaths = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  const out: FieldViolation[] = [];
  for (const e of errors) {
    if (e.keyword !== 'anyOf' && anyOfPaths.has(e.instancePath)) continue;
    const segments = e.instancePath.split('/').slice(1);
    let text = e.message ?? 'is invalid';
    if (e.keyword === 'required') {
      segments.push(String(e.params.missingProperty));
      text = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      segments.push(String(e.params.additionalProperty));
      text = 'is not a field of the catalogue format';
    } else if (e.keyword === 'discriminator') {
      segments.push('loanType');
      text = 'must be personal, car or home';
    } else if (e.keyword === 'enum') {
      text = `must be one of ${(e.params.allowedValues as unknown[]).join(', ')}`;
    }
    // `x-message`: one text, one per keyword, or (for `required`) one per missing property.
    const custom = (e.parentSchema as Json | undefined)?.['x-message'];
    const byKeyword = isRecord(custom) ? custom[e.keyword] : undefined;
    const byProperty = isRecord(byKeyword) ? byKeyword[String(e.params.missingProperty)] : undefined;
    const own = [custom, byKeyword, byProperty].find((t): t is string => typeof t === 'string');
    const { owner, field } = locate(json, segments);
    out.push(violation(owner, field, e.keyword, own ?? text));
  }
  return out;
}

export const headlineOf = (prefix: string, comparisonRate: number): string =>
  `${prefix} (comparison ${comparisonRate.toFixed(2)}% p.a.)`;

/** Labels of the price variants of home loans (see `CatalogueProduct.prices`). */
const VARIANTS = ['', ' (interest only)', ' (investment)', ' (investment, interest only)'];

/** A product with what depends on it alone: its price and comparison rates at each band and variant. */
function compileProduct(
  d: ProductDefinition,
  lender: LenderDefinition,
  serviceability: ServiceabilityPolicy,
  lmiTables: ReadonlyMap<string, LmiTable>,
) {
  const benchmark = benchmarkFor(d);
  const home = d.loanType === 'home' ? d.home : undefined;
  // LMI is priced only where a product lends above its LMI threshold (its table then covers it all).
  const lmi = d.loanType === 'home' && needsLmi(d) ? d.home.lmi : undefined;
  const lmiTable = lmi && lmiTables.get(lmi.table);
  const column = lmiTable ? lmiColumnOf(lmiTable, benchmark.amount) : -1;
  const premiums = lmiTable ? lmiTable.premiumRate.map((row) => round2(benchmark.amount * row[column])) : [];
  const prices = VARIANTS.slice(0, home ? 4 : 1).flatMap((label, variant) => {
    const io = (variant & 1) !== 0;
    const occupancy = home?.occupancy[(variant & 2) !== 0 ? 'investment' : 'owner_occupied'];
    const repayment = io ? 'interest_only' : 'principal_and_interest';
    const exists = !home || (occupancy !== undefined && home.repaymentTypes.includes(repayment));
    // The interest-only loading applies during that period only; the occupancy's loading for the whole term.
    const ioLoading = io ? (home?.interestOnly?.rateLoadingPercentPoints ?? 0) : 0;
    const occupancyLoading = occupancy?.rateLoadingPercentPoints ?? 0;
    // The price at each band, with its figures on the benchmark loan (null: declined).
    return BANDS_BEST_FIRST.map((band) => {
      const base = d.rates[band];
      if (!exists || base === 'decline') return null;
      const rate = round2(base + occupancyLoading + ioLoading);
      const revertRate = round2(base + occupancyLoading);
      const loan: LoanTerms = {
        amount: benchmark.amount,
        termMonths: benchmark.termMonths,
        annualRatePercent: rate,
        revertRatePercent: revertRate,
        establishmentFee: d.fees.establishment,
        monthlyFee: d.fees.monthly,
        interestOnlyMonths: io ? Math.min((home?.interestOnly?.maxYears ?? 0) * 12, benchmark.termMonths - 12) : 0,
      };
      const exact = comparisonRate(loan);
      // "Harbour Bank Home Loan (interest only): 6.50% p.a. interest only, then 5.89% p.a."
      const rates = io
        ? `${rate.toFixed(2)}% p.a. interest only, then ${revertRate.toFixed(2)}% p.a.`
        : `${rate.toFixed(2)}% p.a.`;
      const headlinePrefix = `${lender.name} ${d.name}${label}: ${rates}`;
      return {
        /** Percent per year (interest only: during that period); `revertRate` after the period (otherwise the same). */
        rate,
        revertRate,
        comparisonRate: round2(exact),
        /** With an LMI table: the comparison rate with the premium of each of its rows, at the benchmark amount. */
        lmiComparisonRates: premiums.map((lmiPremium) =>
          round2(comparisonRate({ ...loan, lmiPremium, lmiCapitalised: lmi?.capitalised })),
        ),
        /** Comparison rate above the cost-rate cap: never offered, not even as a near-miss. */
        capped: exact > COST_RATE_CAP_PERCENT,
        /** The headline, and what comes before its comparison rate. */
        headline: headlineOf(headlinePrefix, round2(exact)),
        headlinePrefix,
      };
    });
  });
  const example = exampleText(d.loanType, benchmark);
  const paid = lmi?.capitalised ? 'added to the loan' : 'paid at settlement';
  return {
    definition: d,
    lender: { id: lender.id, name: lender.name },
    product: { id: d.id, name: d.name },
    lenderUrl: lender.url,
    commission: d.commission ? commissionTerms(d.commission) : null,
    serviceability,
    /** `prices[variant * 6 + band rank]` (null: declined). Home variants: 1 interest only, 2 investment, 3 both. */
    prices,
    /** The loan the comparison rates are quoted on: the regulation's, within the product's limits. */
    benchmark,
    /** The benchmark in words, e.g. "a $30,000 unsecured loan over 5 years". */
    comparisonRateExample: example,
    comparisonRateWarning: warningText(d.loanType, benchmark),
    /** Home loans lending above their LMI threshold: the premiums' table, and the example with each row's premium. */
    lmiTable,
    lmiExamples: premiums.map(
      (premium, row) =>
        `${example}, with lenders mortgage insurance of ${dollars(premium)} (${percent(lmiTable!.premiumRate[row][column] * 100)} of the loan, at this LVR) ${paid}`,
    ),
  };
}

/**
 * Validates a parsed catalogue file and prepares it for matching. A broken catalogue is refused with
 * `VALIDATION_ERROR`; each violation names the product (or lender) and the rule.
 */
export function loadCatalogue(json: unknown): Result<Catalogue> {
  const refuse = (details: FieldViolation[]) =>
    fail('VALIDATION_ERROR', `catalogue is invalid: ${details.map((d) => d.message).join('; ')}`, details);
  if (!validateFile(json)) return refuse(schemaViolations(json, validateFile.errors ?? []));
  const file = deepFreeze(structuredClone(json) as CatalogueFile);
  const details = semanticViolations(file);
  if (details.length > 0) return refuse(details);
  const lenderById = new Map(file.lenders.map((l) => [l.id, l]));
  const lmiTables = new Map(Object.entries(file.lmiTables).map(([name, t]) => [name, compileLmiTable(name, t)]));
  const products = file.products.map((d) =>
    compileProduct(d, lenderById.get(d.lenderId)!, file.serviceabilityPolicies[d.serviceability], lmiTables),
  );
  const text = `every priced band has a comparison rate above ${COST_RATE_CAP_PERCENT}%: the product could never be offered`;
  for (const p of products)
    if (p.prices.every((price) => price === null || price.capped))
      details.push(violation(`product ${p.product.id}`, 'rates', 'offerableUnderCostRateCap', text));
  if (details.length > 0) return refuse(details);
  const byType = (t: FormType) => products.filter((p) => p.definition.loanType === t);
  const productsByType = { personal: byType('personal'), car: byType('car'), home: byType('home') };
  return ok(deepFreeze({ nearMiss: file.nearMiss, lenders: file.lenders, products, productsByType }));
}

/** Reads and loads the catalogue in force (`CATALOGUE_PATH`). */
export function loadDefaultCatalogue(file: string = CATALOGUE_PATH): Result<Catalogue> {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return fail('VALIDATION_ERROR', `catalogue ${file} could not be read: ${(error as Error).message}`);
  }
  return loadCatalogue(json);
}
