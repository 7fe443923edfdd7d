/**
 * Time per match of the matching engine: for each application, the median over 7 rounds of the mean
 * time of one `matchOffers` call, after a warm-up; then their mean and the slowest. Offers counted are
 * accepted plus near-misses.
 *
 *   pnpm exec tsx tools/bench/src/engine.ts    the repository's catalogue, then a generated one of 1,000 products
 */
import { matching } from '@loanmatch/domain';
import { generateCatalogue } from '@loanmatch/catalogue-generator';

type Catalogue = matching.Catalogue;
type MatchInput = matching.MatchInput;
type ScoreBand = matching.ScoreBand;

const REFERENCE_YEAR = 2025;
/** The seed of generated catalogues, so that runs compare the same products. */
const SEED = 42;

/** Each loan type at a strong and a weak credit band. */
export function sampleApplications(): MatchInput[] {
  const credit = (band: ScoreBand) => ({ band, degradedMode: false });
  const personal = {
    formType: 'personal' as const,
    referenceYear: REFERENCE_YEAR,
    steps: {
      1: { loanAmount: 20000 },
      2: { loanPurpose: 'debt_consolidation', loanTerm: 5 },
      3: { employmentType: 'full_time', grossMonthlyIncome: 7000, employmentYears: 3 },
      4: { livingSituation: 'renting', monthlyRent: 1800, dependents: 1 },
    },
  };
  const car = {
    formType: 'car' as const,
    referenceYear: REFERENCE_YEAR,
    steps: {
      1: {
        carLoanPurpose: 'used',
        hasFoundCar: 'yes',
        estimatedCarPrice: 35000,
        vehicleYear: 2019,
        usedCarSaleType: 'dealer',
      },
      2: { loanAmount: 32000, loanTerm: 5, balloonPaymentPercent: 20 },
      3: { employmentType: 'full_time', grossMonthlyIncome: 7500, employmentYears: 2 },
      4: { livingSituation: 'own_mortgage', monthlyRent: 2100 },
    },
  };
  const home = {
    formType: 'home' as const,
    referenceYear: REFERENCE_YEAR,
    steps: {
      1: { occupancyType: 'owner_occupied', loanPurpose: 'new_property', isFirstHomeBuyer: 'yes' },
      2: { propertyValue: 800000, propertyAddress: '1 Example St', propertyType: 'house' },
      3: {
        loanAmount: 660000,
        loanTerm: 30,
        repaymentType: 'principal_and_interest',
        settlementTimeframe: '30_60_days',
      },
      4: { employmentType: 'full_time', livingSituation: 'renting', grossMonthlyIncome: 16000, employmentYears: 5 },
    },
  };
  return [personal, car, home].flatMap((app) => [
    { ...app, credit: credit('very_good') },
    { ...app, credit: credit('below_average') },
  ]);
}

/** Median time of one match of `input`, in ms: a warm-up, then rounds of at least 50 ms each. */
function timeOf(catalogue: Catalogue, input: MatchInput): { ms: number; offers: number } {
  let offers = 0;
  const run = () => {
    const result = matching.matchOffers(input, catalogue);
    offers = result.acceptedOffers.length + result.nearMissOffers.length;
  };
  const warmUpEnd = performance.now() + 200;
  while (performance.now() < warmUpEnd) run();
  const rounds: number[] = [];
  for (let round = 0; round < 7; round++) {
    let count = 0;
    const start = performance.now();
    while (performance.now() - start < 50) {
      run();
      count++;
    }
    rounds.push((performance.now() - start) / count);
  }
  rounds.sort((x, y) => x - y);
  return { ms: rounds[3], offers };
}

export interface EngineTiming {
  /** Products of the catalogue matched against. */
  products: number;
  /** Mean over the applications of each one's time per match, µs. */
  averageUs: number;
  slowestUs: number;
  perApplication: { input: MatchInput; us: number; offers: number }[];
}

/**
 * Times the engine on the repository's catalogue (`products: 'default'`) or on a generated one of that
 * many products, for each application (default: `sampleApplications()`).
 */
export function benchMatchingEngine(options: {
  products: 'default' | number;
  applications?: readonly MatchInput[];
}): EngineTiming {
  return timeCatalogue(catalogueOf(options.products), options.applications ?? sampleApplications());
}

function catalogueOf(products: 'default' | number): Catalogue {
  if (products !== 'default') return generateCatalogue(products, SEED);
  const loaded = matching.loadDefaultCatalogue();
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
}

function timeCatalogue(catalogue: Catalogue, applications: readonly MatchInput[]): EngineTiming {
  const perApplication = applications.map((input) => {
    const { ms, offers } = timeOf(catalogue, input);
    return { input, us: ms * 1000, offers };
  });
  return {
    products: catalogue.products.length,
    averageUs: perApplication.reduce((sum, t) => sum + t.us, 0) / perApplication.length,
    slowestUs: Math.max(...perApplication.map((t) => t.us)),
    perApplication,
  };
}

function main(): void {
  const real = catalogueOf('default');
  const loadStart = performance.now();
  const generated = catalogueOf(1000);
  const loadMs = performance.now() - loadStart;
  console.log(`generated and loaded 1,000 products in ${loadMs.toFixed(0)} ms`);
  for (const [label, catalogue] of [
    [`real catalogue (${real.products.length} products)`, real],
    [`generated catalogue (${generated.products.length} products)`, generated],
  ] as const) {
    const timing = timeCatalogue(catalogue, sampleApplications());
    console.log(
      `${label}: ${timing.averageUs.toFixed(1)} µs per match on average over ${timing.perApplication.length} applications`,
    );
    for (const t of timing.perApplication)
      console.log(
        `  ${t.input.formType.padEnd(8)} ${String(t.input.credit.band).padEnd(13)} ${t.us.toFixed(1).padStart(8)} µs  (${t.offers} offers)`,
      );
    console.log(`  slowest: ${timing.slowestUs.toFixed(1)} µs`);
  }
}

if (require.main === module) main();
