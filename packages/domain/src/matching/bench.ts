/**
 * Time per match, for the real catalogue and for a generated one of 10,000 products:
 *
 *   pnpm build && node dist/packages/domain/src/matching/bench.js   (compiled, as the server runs it; `pnpm bench` runs it so)
 *   pnpm exec tsx packages/domain/src/matching/bench.ts             (through tsx, which adds a call to every closure it makes)
 *
 * For each of a small set of applications (each loan type, a strong and a weak credit band), the
 * median over 7 rounds of the mean time of one `matchOffers` call, after a warm-up; then their mean
 * and the slowest. Offers counted are accepted plus near-misses.
 */
import { generateCatalogue } from './generate';
import { loadDefaultCatalogue } from './catalogue';
import { matchOffers } from './match';
import type { Catalogue, MatchInput, ScoreBand } from './types';

const REFERENCE_YEAR = 2025;

function applications(): MatchInput[] {
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
      1: { carLoanPurpose: 'used', hasFoundCar: 'yes', estimatedCarPrice: 35000, vehicleYear: 2019, usedCarSaleType: 'dealer' },
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
      3: { loanAmount: 660000, loanTerm: 30, repaymentType: 'principal_and_interest', settlementTimeframe: '30_60_days' },
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
    const result = matchOffers(input, catalogue);
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

function main(): void {
  const real = loadDefaultCatalogue();
  if (!real.ok) throw new Error(real.error.message);
  const loadStart = performance.now();
  const generated = generateCatalogue(10000, 42);
  const loadMs = performance.now() - loadStart;
  console.log(`generated and loaded 10,000 products in ${loadMs.toFixed(0)} ms`);
  for (const [label, catalogue] of [
    [`real catalogue (${real.value.products.length} products)`, real.value],
    [`generated catalogue (${generated.products.length} products)`, generated],
  ] as const) {
    const times = applications().map((input) => ({ input, ...timeOf(catalogue, input) }));
    const mean = times.reduce((sum, t) => sum + t.ms, 0) / times.length;
    const slowest = times.reduce((a, b) => (b.ms > a.ms ? b : a));
    console.log(`${label}: ${(mean * 1000).toFixed(1)} µs per match on average over ${times.length} applications`);
    for (const t of times)
      console.log(`  ${t.input.formType.padEnd(8)} ${String(t.input.credit.band).padEnd(13)} ${(t.ms * 1000).toFixed(1).padStart(8)} µs  (${t.offers} offers)`);
    console.log(`  slowest: ${(slowest.ms * 1000).toFixed(1)} µs`);
  }
}

main();
