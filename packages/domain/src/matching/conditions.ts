/**
 * The conditions of an indicative offer: for each rule the application could not be assessed on (its
 * data was not given), what the lender will need to see, in the near-miss form (`{field, requirement}`).
 * Together they are enough: an application that meets every condition passes every rule of the product
 * at the offer's amount, term and price.
 */
import type { Candidate, Context } from './candidate';
import { greatestHousingFloor } from './assess';
import type { OfferCondition } from './match-types';
import { EMPLOYMENT_TYPES, LIVING_SITUATIONS, type ProductTable } from './types';
import { dollars, months, perMonth, years } from './units';

/** The conditions of the candidate on row `c.row`, in the order of the steps (vehicle, term, employment, income, living). */
export function offerConditions(c: Candidate, t: ProductTable, x: Context): OfferCondition[] {
  const a = x.a;
  const i = c.row;
  const conditions: OfferCondition[] = [];
  if (!a.vehicleKnown) {
    // loan ≤ maxLvr% × (price − contribution)  ⇔  price ≥ loan × 100 / maxLvr + contribution
    const maxLvr = t.maxVehicleLvr[i];
    const price = Math.ceil((a.loanAmount * 100) / maxLvr + a.vehicleContribution);
    conditions.push({
      field: 'estimatedCarPrice',
      requirement: `at least ${dollars(price)} with the deposit and trade-in given: the loan may be at most ${maxLvr}% of the price less deposit and trade-in, plus any trade-in payout`,
    });
  }
  if (!a.termKnown) {
    const [min, max] = [t.minTermYears[i], t.maxTermYears[i]];
    const range = min === max ? years(min) : `between ${min} and ${years(max)}`;
    conditions.push({ field: 'loanTerm', requirement: `${range}; this offer assumes ${years(c.termMonths / 12)}` });
  }
  if (!a.employmentKnown) {
    const allowed = EMPLOYMENT_TYPES.filter((_, bit) => (t.employmentMask[i] & (1 << bit)) !== 0);
    if (allowed.length < EMPLOYMENT_TYPES.length)
      conditions.push({ field: 'employmentType', requirement: `one of ${allowed.join(', ')}` });
    const minMonths = t.minMonthsInJob[i];
    if (minMonths > 0)
      conditions.push({ field: 'timeInJob', requirement: `at least ${months(minMonths)} in the current job` });
  }

  // Serviceability: the policy's share of assessable income, less housing, living costs and the monthly
  // fee, must carry the buffered repayment (assess.ts). Unknown living costs are stated at the product's
  // greatest housing floor and no dependants, so that the income asked for is enough for them.
  const share = t.netIncomeShare[i];
  const fee = t.monthlyFee[i];
  const living = t.livingBase[i];
  const perDependant = t.livingPerDependant[i];
  const countedOther = a.otherIncome * t.otherIncomeShare[i];
  if (!a.incomeKnown) {
    const housing = x.replacesHousing
      ? 0
      : Math.max(
          a.monthlyRent,
          a.livingKnown ? t.housingFloor[i * LIVING_SITUATIONS.length + a.livingIndex] : greatestHousingFloor(t, i),
        );
    const dependants = a.livingKnown ? a.dependants : 0;
    const outgoings = housing + living + perDependant * dependants + fee;
    const serviced = Math.ceil((outgoings + c.buffered) / share - countedOther);
    const needed = Math.max(Math.ceil(t.minMonthlyIncome[i] - countedOther), serviced);
    const assumed = x.replacesHousing
      ? 'no dependants'
      : `housing costs of at most ${perMonth(housing)} and no dependants`;
    const assuming = a.livingKnown ? '' : ` (with ${assumed})`;
    conditions.push({
      field: 'grossMonthlyIncome',
      requirement: `at least ${perMonth(needed)}${assuming}`,
    });
    if (!a.livingKnown) conditions.push({ field: 'livingSituation', requirement: `${assumed}, at the income above` });
  } else if (!a.livingKnown) {
    // What the known income leaves for housing and dependants once the repayment and living costs are met.
    const room = Math.floor((a.grossMonthlyIncome + countedOther) * share - living - fee - c.buffered);
    const each = perDependant > 0 ? `, less ${perMonth(perDependant)} for each dependant` : '';
    const requirement = x.replacesHousing
      ? `dependants' living costs of at most ${perMonth(room)}`
      : `housing costs of at most ${perMonth(room)}${each}`;
    conditions.push({ field: 'livingSituation', requirement });
  }
  return conditions;
}
