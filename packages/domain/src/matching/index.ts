/**
 * Offer matching: the lender catalogue (data, validated and prepared once by `loadCatalogue`) and the
 * pure function `matchOffers` that turns one application into accepted and near-miss offers.
 */
export { CATALOGUE_PATH, loadCatalogue, loadDefaultCatalogue } from './catalogue';
export { COMPARISON_RATE_BENCHMARKS, COMPARISON_RATE_WARNING } from './benchmarks';
export { matchOffers } from './match';
export { COST_RATE_CAP_PERCENT, annuityFactor, comparisonRate, monthlyRepayment, type LoanTerms } from './finance';
export { SELF_ESTIMATE_BANDS_DOWN, UNKNOWN_ESTIMATE_BAND } from './applicant';
export * from './types';
export * from './match-types';
