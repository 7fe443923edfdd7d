/**
 * Synthetic catalogues for benchmarks and volume tests: `n` products spread evenly over the three loan
 * types, drawn from plausible ranges by a seeded generator (the same `n` and `seed` give the same
 * catalogue), and loaded through `loadCatalogue` like the real file, so every one is valid.
 */
import {
  EMPLOYMENT_TYPES,
  HOME_LOAN_PURPOSES as HOME_PURPOSES,
  PERSONAL_LOAN_PURPOSES as PERSONAL_PURPOSES,
  matching,
} from '@loanmatch/domain';

type BandRate = matching.BandRate;
type Catalogue = matching.Catalogue;
type CatalogueFile = matching.CatalogueFile;
type EmploymentType = (typeof EMPLOYMENT_TYPES)[number];
type LenderDefinition = matching.LenderDefinition;
type LmiTableDefinition = matching.LmiTableDefinition;
type ProductDefinition = matching.ProductDefinition;
type ScoreBand = matching.ScoreBand;
type ServiceabilityPolicy = matching.ServiceabilityPolicy;
const { BANDS_BEST_FIRST, CAR_PURPOSES, COMPARISON_RATE_BENCHMARKS, loadCatalogue } = matching;

/** mulberry32: a small, fast, seeded generator of numbers in [0, 1). */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GENERATED_POLICIES: Record<string, ServiceabilityPolicy> = {
  standard: {
    bufferPercentPoints: 3,
    netIncomePercent: 75,
    otherIncomePercent: 80,
    livingCosts: { base: 1500, perDependant: 450 },
    housingCostFloor: {
      renting: 800,
      own_outright: 0,
      own_mortgage: 1200,
      living_with_parents: 0,
      boarding: 500,
      other: 500,
    },
  },
  lenient: {
    bufferPercentPoints: 2,
    netIncomePercent: 78,
    otherIncomePercent: 100,
    livingCosts: { base: 1300, perDependant: 400 },
    housingCostFloor: {
      renting: 600,
      own_outright: 0,
      own_mortgage: 1000,
      living_with_parents: 0,
      boarding: 400,
      other: 400,
    },
  },
};

/** The LMI table of generated catalogues: LVRs above 80% up to 95%, loans up to $5,000,000 (every generated home product). */
export const GENERATED_LMI_TABLE: LmiTableDefinition = {
  loanAmountUpTo: [300000, 600000, 1000000, 5000000],
  rows: [
    { lvrAbovePercent: 80, lvrUpToPercent: 85, premiumPercent: [0.5, 0.7, 0.85, 1] },
    { lvrAbovePercent: 85, lvrUpToPercent: 90, premiumPercent: [1, 1.35, 1.65, 1.9] },
    { lvrAbovePercent: 90, lvrUpToPercent: 95, premiumPercent: [2, 2.7, 3.25, 3.6] },
  ],
};

/** The near-miss policy of generated catalogues: the margins of the repository's catalogue. */
export const STANDARD_NEAR_MISS: CatalogueFile['nearMiss'] = {
  maxMissedRules: 2,
  maxResults: 10,
  margins: {
    loanAmountPercent: 10,
    loanTermYears: 1,
    creditBands: 1,
    incomePercent: 10,
    timeInJobMonths: 3,
    serviceabilityPercent: 15,
    lvrPercentPoints: 5,
    vehicleAgeYears: 2,
    balloonPercentPoints: 10,
    balloonTermYears: 2,
  },
};

export function generateCatalogue(n: number, seed: number): Catalogue {
  const random = seeded(seed);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
  const between = (min: number, max: number, step = 1): number =>
    min + Math.floor(random() * (Math.floor((max - min) / step) + 1)) * step;
  const subset = <T>(values: readonly T[], always: readonly T[], chance: number): T[] =>
    values.filter((v) => always.includes(v) || random() < chance);
  const r2 = (x: number) => Math.round(x * 100) / 100;

  const lenders: LenderDefinition[] = Array.from({ length: Math.max(12, Math.ceil(n / 25)) }, (_, i) => ({
    id: `gen-lender-${i + 1}`,
    name: `Generated Lender ${i + 1}`,
    url: `https://gen-lender-${i + 1}.example/apply`,
  }));

  /** Base rate for `excellent`, a step per band, priced down to the minimum band. */
  const rates = (minimumBand: ScoreBand, base: number, step: number): Record<ScoreBand, BandRate> => {
    const minRank = BANDS_BEST_FIRST.indexOf(minimumBand);
    return Object.fromEntries(
      BANDS_BEST_FIRST.map((band, rank) => [band, rank <= minRank ? r2(base + step * rank) : 'decline']),
    ) as Record<ScoreBand, BandRate>;
  };

  const products: ProductDefinition[] = [];
  for (let k = 0; k < n; k++) {
    const common = {
      id: `gen-product-${k + 1}`,
      lenderId: pick(lenders).id,
      name: `Product ${k + 1}`,
      minimumBand: pick(BANDS_BEST_FIRST.slice(1)),
      employment: {
        types: subset<EmploymentType>(EMPLOYMENT_TYPES, ['full_time'], 0.5),
        minimumMonthsInJob: between(0, 12, 3),
      },
      serviceability: pick(Object.keys(GENERATED_POLICIES)),
      fees: { establishment: between(0, 600, 50), monthly: between(0, 15, 5) },
    };
    const type = k % 3;
    if (type === 0) {
      products.push({
        ...common,
        loanType: 'personal',
        purposes: subset(PERSONAL_PURPOSES, ['debt_consolidation', 'other'], 0.7),
        loanAmount: { min: pick([2000, 3000, 5000, 10000]), max: pick([30000, 50000, 75000, 100000]) },
        loanTermYears: { min: between(1, 2), max: between(5, 7) },
        minimumMonthlyIncome: between(2000, 5000, 250),
        rates: rates(common.minimumBand, 6 + random() * 4, 1.5 + random() * 2.5),
      });
    } else if (type === 1) {
      const termMin = between(1, 2);
      products.push({
        ...common,
        loanType: 'car',
        purposes: subset(CAR_PURPOSES, ['new'], 0.7),
        loanAmount: { min: pick([5000, 8000, 10000]), max: pick([50000, 100000, 150000, 200000]) },
        loanTermYears: { min: termMin, max: between(5, 7) },
        minimumMonthlyIncome: between(2000, 4500, 250),
        car: {
          saleTypes: subset(['dealer', 'private'] as const, ['dealer'], 0.6),
          maxVehicleAgeYears: between(8, 20),
          balloon: { maxPercent: pick([0, 20, 30, 35]), maxTermYears: between(Math.max(termMin, 3), 5) },
          // From the index, not the generator, so that the products drawn stay those of earlier catalogues.
          maxLvrPercent: [100, 110, 120, 130, 150][k % 5],
        },
        rates: rates(common.minimumBand, 5 + random() * 3, 1 + random() * 2),
      });
    } else {
      const interestOnly = random() < 0.5;
      products.push({
        ...common,
        loanType: 'home',
        purposes: subset(HOME_PURPOSES, ['new_property'], 0.6),
        loanAmount: { min: pick([50000, 100000, 150000]), max: pick([1000000, 2000000, 5000000]) },
        loanTermYears: { min: between(5, 10), max: between(25, 30) },
        minimumMonthlyIncome: between(3000, 7000, 250),
        home: {
          occupancy: {
            owner_occupied: { maxLvrPercent: pick([80, 85, 90, 95]) },
            ...(random() < 0.6
              ? {
                  investment: { maxLvrPercent: pick([80, 85, 90]), rateLoadingPercentPoints: r2(0.2 + random() * 0.4) },
                }
              : {}),
          },
          lmiAboveLvrPercent: 80,
          lmi: { table: 'generated', capitalised: k % 4 !== 2 },
          firstHomeBuyerOnly: random() < 0.1,
          repaymentTypes: interestOnly ? ['principal_and_interest', 'interest_only'] : ['principal_and_interest'],
          ...(interestOnly
            ? { interestOnly: { maxYears: between(1, 5), rateLoadingPercentPoints: r2(0.2 + random() * 0.4) } }
            : {}),
        },
        rates: rates(common.minimumBand, 5.5 + random() * 1.5, 0.3 + random() * 0.7),
      });
    }
  }

  const file: CatalogueFile = {
    version: 1,
    effectiveFrom: '2025-07-01',
    nearMiss: STANDARD_NEAR_MISS,
    comparisonRateBenchmarks: COMPARISON_RATE_BENCHMARKS,
    serviceabilityPolicies: GENERATED_POLICIES,
    lmiTables: { generated: GENERATED_LMI_TABLE },
    lenders,
    products,
  };
  const loaded = loadCatalogue(file);
  if (!loaded.ok)
    throw new Error(`generateCatalogue made an invalid catalogue (a bug in the generator): ${loaded.error.message}`);
  return loaded.value;
}
