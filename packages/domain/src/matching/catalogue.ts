/**
 * Loading the lender catalogue: the file's shape is checked by a JSON Schema (one Ajv instance of this
 * folder, compiled once), the rules between values by `semanticViolations`, and then every figure that
 * depends on a product alone is computed once: the rate and comparison rate of each band and variant
 * (and, for home loans with an LMI table, of each of its LVR rows), the headline, the ranking of products
 * by price, and the columns the matching loop reads (`table.ts`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { fail, ok, type FieldViolation, type Result } from '../errors';
import { benchmarkFor, exampleText, warningText } from './benchmarks';
import { catalogueSchema } from './catalogue-schema';
import { semanticViolations, violation } from './catalogue-rules';
import { buildTable } from './table';
import { COST_RATE_CAP_PERCENT, comparisonRate, round2, type LoanTerms } from './finance';
import { headlineOf, headlinePrefixOf } from './headline';
import { compileLmiTable, lmiColumnOf, needsLmi } from './lmi';
import { dollars, percent } from './units';
import {
  BANDS_BEST_FIRST,
  type BandPrice,
  type Catalogue,
  type CatalogueFile,
  type CatalogueProduct,
  type FormType,
  type LenderDefinition,
  type LmiTable,
  type ProductDefinition,
  type ServiceabilityPolicy,
} from './types';
import { deepFreeze } from '../deep-freeze';

/** The catalogue in force, relative to this file (the same in `src` under tsx and jest). */
export const CATALOGUE_PATH = path.resolve(__dirname, '../../catalogue/catalogue.v1.json');

// ---------------------------------------------------------------------------------------------
// Schema validation
// ---------------------------------------------------------------------------------------------

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
    if (typeof custom === 'string') text = custom;
    else if (typeof byKeyword === 'string') text = byKeyword;
    else if (typeof byProperty === 'string') text = byProperty;
    const { owner, field } = locate(json, segments);
    out.push(violation(owner, field, e.keyword, text));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Compilation: what depends on the product alone, computed once
// ---------------------------------------------------------------------------------------------

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function compileProduct(
  definition: ProductDefinition,
  lenderDefinition: LenderDefinition,
  serviceability: ServiceabilityPolicy,
  lmiTables: ReadonlyMap<string, { index: number; table: LmiTable }>,
): CatalogueProduct {
  const lender = { id: lenderDefinition.id, name: lenderDefinition.name };
  const product = { id: definition.id, name: definition.name };
  const benchmark = benchmarkFor(definition);
  const fees = definition.fees;
  const home = definition.loanType === 'home' ? definition.home : undefined;
  const interestOnlyMonths = home?.interestOnly ? home.interestOnly.maxYears * 12 : 0;
  // LMI is priced only where a product lends above its LMI threshold (its table then covers it all).
  const lmi = definition.loanType === 'home' && needsLmi(definition) ? definition.home.lmi : undefined;
  const lmiTable = lmi ? lmiTables.get(lmi.table) : undefined;
  const benchmarkColumn = lmiTable ? lmiColumnOf(lmiTable.table, benchmark.amount) : -1;
  const prices: (Mutable<BandPrice> | null)[] = [];
  for (let variant = 0; variant < (home ? 4 : 1); variant++) {
    const io = (variant & 1) !== 0;
    const investment = (variant & 2) !== 0;
    const occupancy = home?.occupancy[investment ? 'investment' : 'owner_occupied'];
    const exists =
      !home ||
      (occupancy !== undefined && home.repaymentTypes.includes(io ? 'interest_only' : 'principal_and_interest'));
    // The interest-only loading applies during that period only; the occupancy's loading for the whole term.
    const ioLoading = io ? (home?.interestOnly?.rateLoadingPercentPoints ?? 0) : 0;
    const occupancyLoading = occupancy?.rateLoadingPercentPoints ?? 0;
    for (const band of BANDS_BEST_FIRST) {
      const base = definition.rates[band];
      if (!exists || base === 'decline') {
        prices.push(null);
        continue;
      }
      const rate = round2(base + occupancyLoading + ioLoading);
      const revertRate = round2(base + occupancyLoading);
      const loan: LoanTerms = {
        amount: benchmark.amount,
        termMonths: benchmark.termMonths,
        annualRatePercent: rate,
        revertRatePercent: revertRate,
        establishmentFee: fees.establishment,
        monthlyFee: fees.monthly,
        interestOnlyMonths: io ? Math.min(interestOnlyMonths, benchmark.termMonths - 12) : 0,
      };
      const exact = comparisonRate(loan);
      const capped = exact > COST_RATE_CAP_PERCENT;
      const cr = round2(exact);
      const lmiComparisonRates =
        lmi && lmiTable && benchmarkColumn >= 0
          ? lmiTable.table.premiumRate.map((row) =>
              round2(
                comparisonRate({
                  ...loan,
                  lmiPremium: round2(benchmark.amount * row[benchmarkColumn]),
                  lmiCapitalised: lmi.capitalised,
                }),
              ),
            )
          : [];
      const buffered = rate + serviceability.bufferPercentPoints;
      const headlinePrefix = headlinePrefixOf(lender.name, product.name, variant, rate, revertRate);
      prices.push({
        rate,
        revertRate,
        comparisonRate: cr,
        lmiComparisonRates,
        capped,
        headline: headlineOf(headlinePrefix, cr),
        headlinePrefix: lmi ? headlinePrefix : '',
        position: -1, // set once every product is compiled (see `rankOffers`)
        monthlyRate: rate / 1200,
        growthLog: Math.log1p(rate / 1200),
        bufferedMonthlyRate: buffered / 1200,
        bufferedGrowthLog: Math.log1p(buffered / 1200),
        revertMonthlyRate: revertRate / 1200,
        revertGrowthLog: Math.log1p(revertRate / 1200),
      });
    }
  }
  const example = exampleText(definition.loanType, benchmark);
  // With LMI, the example names the premium of each row at the benchmark amount, and how it is paid.
  const paid = lmi?.capitalised ? 'added to the loan' : 'paid at settlement';
  const lmiExamples =
    lmi && lmiTable && benchmarkColumn >= 0
      ? lmiTable.table.premiumRate.map((row) => {
          const premium = round2(benchmark.amount * row[benchmarkColumn]);
          return `${example}, with lenders mortgage insurance of ${dollars(premium)} (${percent(row[benchmarkColumn] * 100)} of the loan, at this LVR) ${paid}`;
        })
      : [];
  return {
    definition,
    lender,
    product,
    lenderUrl: lenderDefinition.url,
    loanType: definition.loanType,
    serviceability,
    prices,
    benchmark,
    comparisonRateExample: example,
    comparisonRateWarning: warningText(definition.loanType, benchmark),
    lmiTable: lmiTable?.index ?? -1,
    lmiExamples,
  };
}

/**
 * Ranks, for each loan type, variant and band, the products that can be offered there: cheapest
 * comparison rate first, then the lower rate (for one application, the lower repayment), then id.
 * Each price records its place, so that matching can put accepted offers in order by their places
 * instead of sorting them.
 */
function rankOffers(productsOfType: readonly CatalogueProduct[]): void {
  const slots = productsOfType[0]?.prices.length ?? 0;
  for (let slot = 0; slot < slots; slot++) {
    const offered: { id: string; price: Mutable<BandPrice> }[] = [];
    for (const p of productsOfType) {
      const price = p.prices[slot] as Mutable<BandPrice> | null;
      if (price !== null && !price.capped) offered.push({ id: p.product.id, price });
    }
    offered.sort(
      (x, y) =>
        x.price.comparisonRate - y.price.comparisonRate ||
        x.price.rate - y.price.rate ||
        (x.id < y.id ? -1 : x.id > y.id ? 1 : 0),
    );
    offered.forEach((o, position) => {
      o.price.position = position;
    });
  }
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
  const lenders = new Map(file.lenders.map((l) => [l.id, l]));
  const lmiTables = Object.entries(file.lmiTables).map(([name, table]) => compileLmiTable(name, table));
  const lmiByName = new Map(lmiTables.map((table, index) => [table.name, { index, table }]));
  const products: CatalogueProduct[] = [];
  if (details.length === 0) {
    for (const definition of file.products) {
      const compiled = compileProduct(
        definition,
        lenders.get(definition.lenderId)!,
        file.serviceabilityPolicies[definition.serviceability],
        lmiByName,
      );
      if (compiled.prices.every((price) => price === null || price.capped))
        details.push(
          violation(
            `product ${definition.id}`,
            'rates',
            'offerableUnderCostRateCap',
            `every priced band has a comparison rate above ${COST_RATE_CAP_PERCENT}%: the product could never be offered`,
          ),
        );
      products.push(compiled);
    }
  }
  if (details.length > 0) return refuse(details);
  const byType = (t: FormType) => products.filter((p) => p.loanType === t);
  const productsByType = { personal: byType('personal'), car: byType('car'), home: byType('home') };
  for (const list of Object.values(productsByType)) rankOffers(list);
  return ok(
    deepFreeze({
      version: file.version,
      effectiveFrom: file.effectiveFrom,
      nearMiss: file.nearMiss,
      lenders: file.lenders,
      lmiTables,
      products,
      productsByType,
      tables: {
        personal: buildTable('personal', productsByType.personal),
        car: buildTable('car', productsByType.car),
        home: buildTable('home', productsByType.home),
      },
    }),
  );
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
