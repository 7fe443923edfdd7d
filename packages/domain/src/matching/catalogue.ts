/**
 * Loading the lender catalogue: the file's shape is checked by a JSON Schema (one Ajv instance of this
 * folder, compiled once), the rules between values by `semanticViolations`, and then every figure that
 * depends on a product alone is computed once: the rate and comparison rate of each band and variant,
 * the headline, the ranking of products by price, and the columns the matching loop reads (`table.ts`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { fail, ok, type FieldViolation, type Result } from '../errors';
import { catalogueSchema } from './catalogue-schema';
import { buildTable } from './table';
import { COST_RATE_CAP_PERCENT, comparisonRate, formatAmount, round2 } from './finance';
import {
  BANDS_BEST_FIRST,
  type BandPrice,
  type Catalogue,
  type CatalogueFile,
  type CatalogueProduct,
  type FormType,
  type LenderDefinition,
  type ProductDefinition,
  type ServiceabilityPolicy,
} from './types';
import { deepFreeze } from '../deep-freeze';
import { commissionViolations } from '../outcomes/commission';

/** The catalogue in force, relative to this file (the same in `src` under tsx and jest). */
export const CATALOGUE_PATH = path.resolve(__dirname, '../../catalogue/catalogue.v1.json');

// ---------------------------------------------------------------------------------------------
// Comparison rate benchmarks (National Credit Code): the loan a comparison rate is quoted on
// ---------------------------------------------------------------------------------------------

export const COMPARISON_RATE_BENCHMARKS: Readonly<
  Record<FormType, { readonly amount: number; readonly termMonths: number; readonly secured: boolean }>
> = Object.freeze({
  personal: { amount: 30000, termMonths: 60, secured: false },
  car: { amount: 150000, termMonths: 300, secured: true },
  home: { amount: 150000, termMonths: 300, secured: true },
});

export const COMPARISON_RATE_WARNING =
  'WARNING: This comparison rate is true only for the examples given and may not include all fees and charges. ' +
  'Different terms, fees or other loan amounts might result in a different comparison rate.';

/** The benchmark within the product's limits: a product that cannot be written at the benchmark is quoted at its nearest amount and term. */
function benchmarkFor(definition: ProductDefinition): { amount: number; termMonths: number } {
  const b = COMPARISON_RATE_BENCHMARKS[definition.loanType];
  const clamp = (x: number, min: number, max: number) => Math.min(Math.max(x, min), max);
  return {
    amount: clamp(b.amount, definition.loanAmount.min, definition.loanAmount.max),
    termMonths: clamp(b.termMonths, definition.loanTermYears.min * 12, definition.loanTermYears.max * 12),
  };
}

function exampleText(loanType: FormType, { amount, termMonths }: { amount: number; termMonths: number }): string {
  const term =
    termMonths % 12 === 0 ? `${termMonths / 12} year${termMonths === 12 ? '' : 's'}` : `${termMonths} months`;
  return `a $${formatAmount(amount)} ${COMPARISON_RATE_BENCHMARKS[loanType].secured ? 'secured' : 'unsecured'} loan over ${term}`;
}

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
  return { owner: 'catalogue', field: segments.join('.') };
}

/** `owner` reads `product <id>`, `lender <id>`, `serviceability policy <id>` or `catalogue`. */
function violation(owner: string, field: string, rule: string, text: string): FieldViolation {
  const where = field === '' ? owner : `${owner}: ${field}`;
  const cut = owner.lastIndexOf(' ');
  const root = cut < 0 ? '' : `${owner.slice(0, cut).replace(' ', '_')}[${owner.slice(cut + 1)}]`;
  return { field: [root, field].filter((s) => s !== '').join('.') || 'catalogue', rule, message: `${where}: ${text}` };
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
    const custom = (e.parentSchema as Json | undefined)?.['x-message'];
    if (typeof custom === 'string') text = custom;
    else if (isRecord(custom) && typeof custom[e.keyword] === 'string') text = custom[e.keyword] as string;
    const { owner, field } = locate(json, segments);
    out.push(violation(owner, field, e.keyword, text));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Rules between values
// ---------------------------------------------------------------------------------------------

function semanticViolations(file: CatalogueFile): FieldViolation[] {
  const out: FieldViolation[] = [];
  const lenderIds = new Set<string>();
  for (const lender of file.lenders) {
    if (lenderIds.has(lender.id)) out.push(violation(`lender ${lender.id}`, 'id', 'unique', 'appears more than once'));
    lenderIds.add(lender.id);
  }
  const productIds = new Set<string>();
  for (const p of file.products) {
    const owner = `product ${p.id}`;
    const add = (field: string, rule: string, text: string) => out.push(violation(owner, field, rule, text));
    if (productIds.has(p.id)) add('id', 'unique', 'appears more than once');
    productIds.add(p.id);
    if (!lenderIds.has(p.lenderId)) add('lenderId', 'lenderExists', `no lender ${p.lenderId} in the catalogue`);
    if (!Object.hasOwn(file.serviceabilityPolicies, p.serviceability))
      add('serviceability', 'policyExists', `no serviceability policy ${p.serviceability} in the catalogue`);
    for (const name of ['loanAmount', 'loanTermYears'] as const) {
      const { min, max } = p[name];
      if (min > max) add(name, 'minNotAboveMax', `min (${min}) must not exceed max (${max})`);
    }
    // Every band at or above the minimum band is priced, every band below it declined, and a worse band is never cheaper.
    const minRank = BANDS_BEST_FIRST.indexOf(p.minimumBand);
    let previous: { band: string; rate: number } | undefined;
    BANDS_BEST_FIRST.forEach((band, rank) => {
      const rate = p.rates[band];
      if (rank <= minRank && rate === 'decline')
        add(
          `rates.${band}`,
          'pricedAtOrAboveMinimumBand',
          `must be priced: ${band} is at or above minimumBand ${p.minimumBand}`,
        );
      if (rank > minRank && rate !== 'decline')
        add(
          `rates.${band}`,
          'declinedBelowMinimumBand',
          `must be "decline": ${band} is below minimumBand ${p.minimumBand}`,
        );
      if (typeof rate === 'number') {
        if (previous !== undefined && rate < previous.rate)
          add(
            `rates.${band}`,
            'worseBandNotCheaper',
            `${rate} must not be below rates.${previous.band} (${previous.rate}): a worse band is never cheaper`,
          );
        previous = { band, rate };
      }
    });
    if (p.loanType === 'home') {
      const hasIo = p.home.repaymentTypes.includes('interest_only');
      if (hasIo && p.home.interestOnly === undefined)
        add('home.interestOnly', 'interestOnlyTerms', 'is required when repaymentTypes has interest_only');
      if (!hasIo && p.home.interestOnly !== undefined)
        add('home.interestOnly', 'interestOnlyTerms', 'is set but repaymentTypes has no interest_only');
      if (hasIo && p.home.interestOnly !== undefined && p.home.interestOnly.maxYears >= p.loanTermYears.max)
        add(
          'home.interestOnly.maxYears',
          'interestOnlyShorterThanTerm',
          `(${p.home.interestOnly.maxYears}) must be less than loanTermYears.max (${p.loanTermYears.max})`,
        );
    }
    if (p.commission) commissionViolations(p.commission, add);
    if (p.loanType === 'car' && p.car.balloon.maxPercent > 0 && p.car.balloon.maxTermYears < p.loanTermYears.min)
      add(
        'car.balloon.maxTermYears',
        'balloonTermReachable',
        `(${p.car.balloon.maxTermYears}) allows a balloon on no term of the product (loanTermYears.min ${p.loanTermYears.min})`,
      );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Compilation: what depends on the product alone, computed once
// ---------------------------------------------------------------------------------------------

/** Headline labels of the price variants of home loans: bit 0 interest only, bit 1 investment (see `CatalogueProduct.prices`). */
const VARIANT_LABELS = ['', ' (interest only)', ' (investment)', ' (investment, interest only)'];

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function compileProduct(
  definition: ProductDefinition,
  lenderDefinition: LenderDefinition,
  serviceability: ServiceabilityPolicy,
): CatalogueProduct {
  const lender = { id: lenderDefinition.id, name: lenderDefinition.name };
  const product = { id: definition.id, name: definition.name };
  const benchmark = benchmarkFor(definition);
  const fees = definition.fees;
  const home = definition.loanType === 'home' ? definition.home : undefined;
  const interestOnlyMonths = home?.interestOnly ? home.interestOnly.maxYears * 12 : 0;
  const prices: (Mutable<BandPrice> | null)[] = [];
  for (let variant = 0; variant < (home ? 4 : 1); variant++) {
    const io = (variant & 1) !== 0;
    const investment = (variant & 2) !== 0;
    const occupancy = home?.occupancy[investment ? 'investment' : 'owner_occupied'];
    const exists =
      !home ||
      (occupancy !== undefined && home.repaymentTypes.includes(io ? 'interest_only' : 'principal_and_interest'));
    const loading =
      (io ? (home?.interestOnly?.rateLoadingPercentPoints ?? 0) : 0) + (occupancy?.rateLoadingPercentPoints ?? 0);
    for (const band of BANDS_BEST_FIRST) {
      const base = definition.rates[band];
      if (!exists || base === 'decline') {
        prices.push(null);
        continue;
      }
      const rate = round2(base + loading);
      const exact = comparisonRate({
        amount: benchmark.amount,
        termMonths: benchmark.termMonths,
        annualRatePercent: rate,
        establishmentFee: fees.establishment,
        monthlyFee: fees.monthly,
        interestOnlyMonths: io ? Math.min(interestOnlyMonths, benchmark.termMonths - 12) : 0,
      });
      const capped = exact > COST_RATE_CAP_PERCENT;
      const cr = round2(exact);
      const buffered = rate + serviceability.bufferPercentPoints;
      prices.push({
        rate,
        comparisonRate: cr,
        capped,
        headline: `${lender.name} ${product.name}${VARIANT_LABELS[variant]}: ${rate.toFixed(2)}% p.a. (comparison ${cr.toFixed(2)}% p.a.)`,
        position: -1, // set once every product is compiled (see `rankOffers`)
        monthlyRate: rate / 1200,
        growthLog: Math.log1p(rate / 1200),
        bufferedMonthlyRate: buffered / 1200,
        bufferedGrowthLog: Math.log1p(buffered / 1200),
      });
    }
  }
  return {
    definition,
    lender,
    product,
    lenderUrl: lenderDefinition.url,
    loanType: definition.loanType,
    serviceability,
    prices,
    benchmark,
    comparisonRateExample: exampleText(definition.loanType, benchmark),
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
  const products: CatalogueProduct[] = [];
  if (details.length === 0) {
    for (const definition of file.products) {
      const compiled = compileProduct(
        definition,
        lenders.get(definition.lenderId)!,
        file.serviceabilityPolicies[definition.serviceability],
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
