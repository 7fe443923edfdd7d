/**
 * Offer matching: the lender catalogue (data, validated and prepared once by `loadCatalogue`) and the
 * pure function `matchOffers` that turns one application into accepted and near-miss offers.
 */
export {
  CATALOGUE_PATH,
  loadCatalogue,
  loadDefaultCatalogue,
  type Catalogue,
  type CatalogueProduct,
} from './catalogue';
export { COMPARISON_RATE_BENCHMARKS, COMPARISON_RATE_WARNING } from './benchmarks';
export { matchOffers } from './match';
export { COST_RATE_CAP_PERCENT, comparisonRate, monthlyRepayment } from './finance';
export * from './catalogue-schema';
export type { ScoreBand } from '../credit/bureau';
export * from './match-types';
