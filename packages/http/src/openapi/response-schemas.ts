/**
 * The response schemas of both documents, written here: the domain has no schema of its answers, only
 * TypeScript types; `test/conformance.test.ts` checks them against real answers of both front-ends, so a
 * drift fails a test. The application and its stored steps are built from the step tables, in
 * `stored-steps.ts`.
 */
import { FORM_TYPES, STATUS_ORDER, WEBHOOK_EVENT_TYPES } from '@loanmatch/domain';
import { STATUS_OF } from '../errors';
import { dateTime, nullable, ref, responseObject as object, uuid } from './components';
import type { Schema } from './schema-translation';
import { REFERRAL_LIFECYCLE_PROPERTIES } from './lifecycle-schemas';

const statusSchema: Schema = { type: 'string', enum: [...STATUS_ORDER] };
const reference: Schema = ref('Reference');
const int = (extra: Schema = {}): Schema => ({ type: 'integer', format: 'int32', ...extra });

export const RESPONSE_SCHEMAS: Record<string, Schema> = {
  Error: object(
    {
      success: { const: false },
      error: { type: 'string', enum: Object.keys(STATUS_OF), description: 'The code clients branch on.' },
      message: { type: 'string', description: 'For people; a validation message reads `<field>: <rule text>`.' },
      details: {
        type: 'array',
        items: ref('FieldViolation'),
        description: 'Every violated rule, for `VALIDATION_ERROR`.',
      },
    },
    { optional: ['details'] },
  ),
  FieldViolation: object({ field: { type: 'string' }, rule: { type: 'string' }, message: { type: 'string' } }),
  CreatedApplication: object({
    applicationId: uuid,
    formType: { type: 'string', enum: [...FORM_TYPES] },
    status: statusSchema,
    lastStep: int({ minimum: 1, maximum: 5 }),
  }),
  CreditCheckResult: object(
    {
      applicationId: uuid,
      creditCheckComplete: { type: 'boolean' },
      degraded_mode: { type: 'boolean' },
      sandbox_mode: { type: 'boolean' },
    },
    {
      description: 'The check ran. `degraded_mode` is true when the bureau was unavailable. Scores are never returned.',
    },
  ),
  Reference: object({ id: { type: 'string' }, name: { type: 'string' } }),
  OfferDetails: object(
    {
      interestRate: { type: 'number', description: 'Percent a year.' },
      comparisonRate: {
        type: 'number',
        description: 'Percent a year, on the benchmark loan of `comparisonRateExample`.',
      },
      comparisonRateWarning: {
        type: 'string',
        description:
          'The standard warning; a product not offered at the benchmark adds that its rate is for the nearest loan it offers.',
      },
      comparisonRateExample: {
        type: 'string',
        description:
          'The loan the comparison rate is true for: $30,000 over 5 years (personal, car), $150,000 over 25 years (home), or the nearest the product offers; with LMI, the premium included.',
      },
      loanAmount: { type: 'number' },
      loanTermMonths: int(),
      monthlyRepayment: { type: 'number', description: 'Interest and principal, without the monthly fee.' },
      establishmentFee: { type: 'number' },
      monthlyFee: { type: 'number' },
      balloonAmount: { type: 'number', description: 'Car loans with a balloon: due at the end of the term.' },
      repaymentType: { type: 'string' },
      interestOnlyMonths: int(),
      interestRateAfterInterestOnly: {
        type: 'number',
        description: 'Percent a year after the interest-only period: the interest-only loading applies during it only.',
      },
      repaymentAfterInterestOnly: { type: 'number' },
      lvr: { type: 'number', description: 'Home loans: loan-to-value ratio, percent.' },
      lendersMortgageInsurance: { type: 'boolean' },
      lmiPremium: {
        type: 'number',
        description: "Home loans: the estimated LMI premium from the catalogue's table (0 without LMI).",
      },
      amountFinanced: {
        type: 'number',
        description:
          'Home loans: what is repaid, the loan plus an LMI premium the product capitalises; `monthlyRepayment` is on it.',
      },
    },
    {
      optional: [
        'balloonAmount',
        'repaymentType',
        'interestOnlyMonths',
        'interestRateAfterInterestOnly',
        'repaymentAfterInterestOnly',
        'lvr',
        'lendersMortgageInsurance',
        'lmiPremium',
        'amountFinanced',
      ],
    },
  ),
  Offer: object(
    {
      offerId: uuid,
      lender: reference,
      product: reference,
      headline: { type: 'string' },
      certainty: {
        type: 'string',
        enum: ['pre_qualified', 'indicative'],
        description:
          "`pre_qualified`: every rule of the product was assessed on the application's data and the credit result. `indicative`: some could not be (the data was not given); `conditions` says what the lender will need to see.",
      },
      offerDetails: ref('OfferDetails'),
      conditions: {
        type: 'array',
        items: object({ field: { type: 'string' }, requirement: { type: 'string' } }),
        description:
          'Empty for a pre-qualified offer. For an indicative one, what the lender will need to see, in the near-miss form, e.g. `{field: "grossMonthlyIncome", requirement: "at least $4,924/month"}`; together they are enough to qualify.',
      },
      assumedLoanTermMonths: {
        type: 'integer',
        format: 'int32',
        description:
          "Only when the application gave no `loanTerm`: the term this offer is priced over (the product's comparison-rate benchmark term, within its limits); also `offerDetails.loanTermMonths`.",
      },
      expiresAt: dateTime,
      trackingUrl: {
        type: 'string',
        format: 'uri',
        description: "Send the applicant's browser here: `GET /r/{token}` on Variant A's listener. About two hours.",
      },
    },
    { optional: ['assumedLoanTermMonths'] },
  ),
  NearMissOffer: object({
    lender: reference,
    product: reference,
    headline: { type: 'string' },
    reasons: {
      type: 'array',
      items: object({
        field: { type: 'string' },
        rule: { type: 'string' },
        actual: {
          type: 'string',
          description:
            "The applicant's value with its unit (`$54,000`, `$2,900/month`, `6 years`, `85%`); a credit reason says `not met` and nothing of the credit result.",
        },
      }),
    },
    wouldQualifyIf: { type: 'array', items: object({ field: { type: 'string' }, requirement: { type: 'string' } }) },
  }),
  MatchResult: object(
    {
      applicationId: uuid,
      matchId: uuid,
      generatedAt: dateTime,
      degraded_mode: { type: 'boolean' },
      assessment: object(
        { basis: { type: 'string', enum: ['bureau', 'self_estimate'] }, notice: { type: 'string' } },
        {
          optional: ['notice'],
          description: "`self_estimate` when the bureau was unavailable: matching used the applicant's own estimate.",
        },
      ),
      acceptedOffers: {
        type: 'array',
        items: ref('Offer'),
        description: 'Pre-qualified offers first, then indicative ones; each group ranked by comparison rate.',
      },
      nearMissOffers: { type: 'array', items: ref('NearMissOffer') },
    },
    { description: 'Each call is a fresh run with fresh tracking links.' },
  ),
  Referral: object({
    referralId: uuid,
    applicationId: uuid,
    offerId: uuid,
    lender: reference,
    product: reference,
    referredAt: dateTime,
    ...REFERRAL_LIFECYCLE_PROPERTIES,
  }),
  ReferralList: object({
    referrals: { type: 'array', items: ref('Referral'), description: 'Newest first.' },
    nextCursor: nullable({ type: 'string', description: 'Pass as `cursor` for the next page; null on the last page.' }),
  }),
  Webhook: object({
    webhookId: uuid,
    url: { type: 'string', format: 'uri' },
    events: { type: 'array', items: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] } },
    status: { type: 'string', enum: ['active', 'disabled'] },
    disabledReason: nullable({ type: 'string' }),
    disabledAt: nullable(dateTime),
    failingSince: nullable(dateTime),
    lastSuccessAt: nullable(dateTime),
    previousSecretExpiresAt: nullable(dateTime),
    createdAt: dateTime,
  }),
  RegisteredWebhook: {
    allOf: [
      ref('Webhook'),
      object({ secret: { type: 'string', pattern: '^whsec_', description: 'The signing secret, shown this once.' } }),
    ],
  },
  WebhookList: object({ webhooks: { type: 'array', items: ref('Webhook') } }),
  DeletedWebhook: object({ webhookId: uuid, deleted: { const: true } }),
  RotatedSecret: object(
    { webhookId: uuid, secret: { type: 'string', pattern: '^whsec_' }, previousSecretExpiresAt: dateTime },
    {
      description:
        'The new secret, shown this once; the old one keeps signing beside it until `previousSecretExpiresAt` (24 hours).',
    },
  ),
  QueuedTestEvent: object({
    webhookId: uuid,
    eventId: { type: 'string', pattern: '^evt_' },
    type: { const: 'webhook.test' },
  }),
  DeliveryAttempt: object({
    eventId: { type: 'string' },
    eventType: { type: 'string' },
    attempt: int({ minimum: 1 }),
    attemptedAt: dateTime,
    status: { type: 'string', enum: ['succeeded', 'failed'] },
    responseStatus: nullable(int()),
    durationMs: { type: 'number' },
    error: nullable({
      type: 'string',
      description: 'A fixed code: `timeout`, `http_500`, `network_error`, `refused_address`, …',
    }),
    nextRetryAt: nullable(dateTime),
  }),
  DeliveryList: object({
    webhookId: uuid,
    pending: int({ minimum: 0 }),
    deliveries: { type: 'array', items: ref('DeliveryAttempt'), description: 'Newest first.' },
  }),
  AccessToken: object({
    accessToken: { type: 'string', description: 'A JWT (HS256).' },
    tokenType: { const: 'Bearer' },
    expiresIn: int({ description: 'Seconds (900).' }),
  }),
  UpdatedApplicationB: object(
    {
      applicationId: uuid,
      status: statusSchema,
      lastStep: int({ minimum: 1, maximum: 5 }),
      creditCheckComplete: { type: 'boolean' },
      missingFields: {
        type: 'array',
        items: { type: 'string' },
        description:
          'Required fields of steps 2-4 not given yet (`loanTerm`, `employmentType`, `grossMonthlyIncome`, `livingSituation`): until none is missing, offers are `indicative`.',
      },
    },
    { description: 'Where the application stands after the change.' },
  ),
  CreatedApplicationB: object({
    applicationId: uuid,
    securityToken: {
      type: 'string',
      pattern: '^st_',
      description: 'Shown this once: keep it. Credit check and match bodies carry it.',
    },
  }),
  Health: object({ status: { type: 'string', enum: ['ok', 'ready'] } }),
  StatusChangedEvent: object({
    type: { const: 'application.status_changed' },
    timestamp: dateTime,
    data: object({
      applicationId: uuid,
      status: statusSchema,
      previousStatus: {
        ...statusSchema,
        type: ['string', 'null'],
        enum: [...STATUS_ORDER, null],
        description: 'null for the event of a new application.',
      },
      lastStep: int({ minimum: 1, maximum: 5 }),
    }),
  }),
  TestEvent: object({ type: { const: 'webhook.test' }, timestamp: dateTime, data: object({ webhookId: uuid }) }),
};
