/**
 * What the service answers, as JSON Schemas (TypeBox): the components of the OpenAPI documents, and the
 * types of the answers (`Static<>`). The front-ends' conformance tests check real answers against them.
 * Applications and their stored steps are built from the step tables by the documents themselves.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { CONSENT_FIELDS, CONSENT_KINDS, CONSENT_TEXT_VERSIONS } from '../consent-texts';
import { ERROR_CODES } from '../error-codes';
import { OUTCOME_TYPES } from '../outcomes/lifecycle';
import { deepFreeze } from '../deep-freeze';
import { STATUS_ORDER } from '../status';
import { CLIENT_TAGS_MAX_ENTRIES, WEBHOOK_EVENT_TYPES } from './requests';
import { FORM_TYPES, oneOf, opt } from './schemas';

/** A reference to another component, typed as that component. */
export const ref = <T extends TSchema>(name: string, _of?: T) =>
  Type.Unsafe<Static<T>>({ $ref: `#/components/schemas/${name}` });
export const nullable = <T extends TSchema>(schema: T) =>
  Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, 'null'] });
const constant = <T extends string | boolean>(value: T) => Type.Unsafe<T>({ const: value });
const text = (description?: string) => Type.String(description ? { description } : {});
const number = (description?: string) => Type.Number(description ? { description } : {});
const int32 = (options = {}) => Type.Integer({ format: 'int32', ...options });
const bool = Type.Boolean();
/** Ids are UUIDs, 36 characters written out; a longer or malformed one names nothing (404). */
export const uuid = Type.String({ format: 'uuid', maxLength: 36 });
export const dateTime = Type.String({ format: 'date-time' });
const status = oneOf(STATUS_ORDER);
const lastStep = int32({ minimum: 1, maximum: 5 });
const securityToken = Type.String({
  pattern: '^st_',
  description: 'Shown this once: keep it. Credit check and match bodies carry it.',
});
const list = <T extends TSchema>(items: T, description?: string) =>
  Type.Array(items, description ? { description } : {});

const FieldViolation = Type.Object({ field: text(), rule: text(), message: text() });
const ErrorAnswer = Type.Object({
  success: constant(false),
  error: oneOf(Object.keys(ERROR_CODES), { description: 'The code clients branch on.' }),
  message: text('For people; a validation message reads `<field>: <rule text>`.'),
  details: opt(list(ref('FieldViolation', FieldViolation), 'Every violated rule, for `VALIDATION_ERROR`.')),
});
const CreatedApplication = Type.Object({
  applicationId: uuid,
  formType: oneOf(FORM_TYPES),
  status,
  lastStep,
});
const CreditCheckResult = Type.Object(
  { applicationId: uuid, creditCheckComplete: bool, degraded_mode: bool, sandbox_mode: bool },
  { description: 'The check ran. `degraded_mode` is true when the bureau was unavailable. Scores are never returned.' },
);
const Reference = Type.Object({ id: text(), name: text() });
const reference = ref('Reference', Reference);
const OfferDetails = Type.Object({
  interestRate: number('Percent a year.'),
  comparisonRate: number('Percent a year, on the benchmark loan of `comparisonRateExample`.'),
  comparisonRateWarning: text(
    'The standard warning; a product not offered at the benchmark adds that its rate is for the nearest loan it offers.',
  ),
  comparisonRateExample: text(
    'The loan the comparison rate is true for: $30,000 over 5 years (personal, car), $150,000 over 25 years (home), or the nearest the product offers; with LMI, the premium included.',
  ),
  loanAmount: number(),
  loanTermMonths: int32(),
  monthlyRepayment: number('Interest and principal, without the monthly fee.'),
  establishmentFee: number(),
  monthlyFee: number(),
  balloonAmount: opt(number('Car loans with a balloon: due at the end of the term.')),
  repaymentType: opt(text()),
  interestOnlyMonths: opt(int32()),
  interestRateAfterInterestOnly: opt(
    number('Percent a year after the interest-only period: the interest-only loading applies during it only.'),
  ),
  repaymentAfterInterestOnly: opt(number()),
  lvr: opt(number('Home loans: loan-to-value ratio, percent.')),
  lendersMortgageInsurance: opt(bool),
  lmiPremium: opt(number("Home loans: the estimated LMI premium from the catalogue's table (0 without LMI).")),
  amountFinanced: opt(
    number(
      'Home loans: what is repaid, the loan plus an LMI premium the product capitalises; `monthlyRepayment` is on it.',
    ),
  ),
});
const requirement = Type.Object({ field: text(), requirement: text() });
const Offer = Type.Object({
  offerId: uuid,
  lender: reference,
  product: reference,
  headline: text(),
  certainty: oneOf(['pre_qualified', 'indicative'] as const, {
    description:
      "`pre_qualified`: every rule of the product was assessed on the application's data and the credit result. `indicative`: some could not be (the data was not given); `conditions` says what the lender will need to see.",
  }),
  offerDetails: ref('OfferDetails', OfferDetails),
  conditions: list(
    requirement,
    'Empty for a pre-qualified offer. For an indicative one, what the lender will need to see, in the near-miss form, e.g. `{field: "grossMonthlyIncome", requirement: "at least $4,924/month"}`; together they are enough to qualify.',
  ),
  assumedLoanTermMonths: opt(
    int32({
      description:
        "Only when the application gave no `loanTerm`: the term this offer is priced over (the product's comparison-rate benchmark term, within its limits); also `offerDetails.loanTermMonths`.",
    }),
  ),
  expiresAt: dateTime,
  trackingUrl: Type.String({
    format: 'uri',
    description: "Send the applicant's browser here: `GET /r/{token}` on Variant A's listener. About two hours.",
  }),
});
const NearMissOffer = Type.Object({
  lender: reference,
  product: reference,
  headline: text(),
  reasons: list(
    Type.Object({
      field: text(),
      rule: text(),
      actual: text(
        "The applicant's value with its unit (`$54,000`, `$2,900/month`, `6 years`, `85%`); a credit reason says `not met` and nothing of the credit result.",
      ),
    }),
  ),
  wouldQualifyIf: list(requirement),
});
const MatchResult = Type.Object(
  {
    applicationId: uuid,
    matchId: uuid,
    generatedAt: dateTime,
    degraded_mode: bool,
    assessment: Type.Object(
      { basis: oneOf(['bureau', 'self_estimate'] as const), notice: opt(text()) },
      { description: "`self_estimate` when the bureau was unavailable: matching used the applicant's own estimate." },
    ),
    acceptedOffers: list(
      ref('Offer', Offer),
      'Pre-qualified offers first, then indicative ones; each group ranked by comparison rate.',
    ),
    nearMissOffers: list(ref('NearMissOffer', NearMissOffer)),
  },
  { description: 'Each call is a fresh run with fresh tracking links.' },
);

const outcomeStatus = oneOf(OUTCOME_TYPES);
const count = int32({ minimum: 0 });
const amount = (description: string) => Type.Number({ minimum: 0, description });
const clientTags = Type.Unsafe<Record<string, string>>({
  type: 'object',
  additionalProperties: { type: 'string' },
  maxProperties: CLIENT_TAGS_MAX_ENTRIES,
  description: 'Your `clientTags` of the application; `{}` when none.',
});
const Referral = Type.Object({
  referralId: uuid,
  applicationId: uuid,
  offerId: uuid,
  lender: reference,
  product: reference,
  referredAt: dateTime,
  clientTags,
  outcome: nullable(
    Type.Object(
      {
        status: outcomeStatus,
        updatedAt: Type.String({ format: 'date-time', description: 'When the event that set the status occurred.' }),
        fundedAmount: nullable(amount('AUD, to the cent; null until funded.')),
      },
      { description: 'What the lender reported: the latest status by when it occurred. Null until it reports.' },
    ),
  ),
  commission: nullable(
    Type.Object(
      { amount: amount('AUD, to the cent; 0 once clawed back.'), currency: constant('AUD') },
      {
        description:
          'What the funded loan earns you, by the terms of the offer followed. Null until funded, and for a duplicate; 0 once a cancellation within the clawback period reversed it.',
      },
    ),
  ),
  attribution: oneOf(['owner', 'duplicate'] as const, {
    description:
      '`duplicate` when another partner referred the same applicant to this lender first, within its ownership window: it earns no commission.',
  }),
});
const ReferralList = Type.Object({
  referrals: list(ref('Referral', Referral), 'Newest first.'),
  nextCursor: nullable(text('Pass as `cursor` for the next page; null on the last page.')),
});

const Webhook = Type.Object({
  webhookId: uuid,
  url: Type.String({ format: 'uri' }),
  events: list(oneOf([...WEBHOOK_EVENT_TYPES, 'lead.created'] as const), "A lender's endpoint: `lead.created`."),
  status: oneOf(['active', 'disabled'] as const),
  disabledReason: nullable(text()),
  disabledAt: nullable(dateTime),
  failingSince: nullable(dateTime),
  lastSuccessAt: nullable(dateTime),
  previousSecretExpiresAt: nullable(dateTime),
  createdAt: dateTime,
});
const secret = (description?: string) => Type.String({ pattern: '^whsec_', ...(description ? { description } : {}) });
const RegisteredWebhook = Type.Intersect([
  ref('Webhook', Webhook),
  Type.Object({ secret: secret('The signing secret, shown this once.') }),
]);
const DeliveryAttempt = Type.Object({
  eventId: text(),
  eventType: text(),
  attempt: int32({ minimum: 1 }),
  attemptedAt: dateTime,
  status: oneOf(['succeeded', 'failed'] as const),
  responseStatus: nullable(int32()),
  durationMs: number(),
  error: nullable(text('A fixed code: `timeout`, `http_500`, `network_error`, `refused_address`, …')),
  nextRetryAt: nullable(dateTime),
});
const webhookEvent = <T extends TSchema>(type: string, data: T) =>
  Type.Object({ type: constant(type), timestamp: dateTime, data });
/** The status before an event's, or null. */
const previous = <T extends readonly string[]>(values: T, description: string) =>
  Type.Unsafe<T[number] | null>({ type: ['string', 'null'], enum: [...values, null], description });

const ConsentTexts = Type.Object({
  currentVersion: oneOf(CONSENT_TEXT_VERSIONS, { description: 'The wording to show applicants now.' }),
  versions: list(
    Type.Object({
      version: oneOf(CONSENT_TEXT_VERSIONS),
      effectiveFrom: dateTime,
      current: bool,
      consents: list(
        Type.Object(
          {
            consent: oneOf(CONSENT_KINDS),
            fields: list(
              oneOf(Object.values(CONSENT_FIELDS).flat()),
              'The step-5 fields that give this consent (aliases of one another).',
            ),
            text: text('The words to show the applicant, unchanged.'),
          },
          { description: 'One consent and its wording.' },
        ),
      ),
    }),
    'Every version still accepted in `consentTextVersion`, newest first.',
  ),
});

const ReferralReportRow = Type.Object(
  {
    group: nullable(
      text('The day (`YYYY-MM-DD`, UTC), lender id, product id or tag value; null for referrals without the tag.'),
    ),
    referrals: count,
    started: int32({ minimum: 0, description: 'The lender reported the application (any event).' }),
    approved: int32({ minimum: 0, description: 'Approved at some point (approved or funded).' }),
    declined: int32({ minimum: 0, description: 'Declined now.' }),
    funded: int32({ minimum: 0, description: 'Funded loans that stand (not cancelled within the clawback period).' }),
    fundedAmount: amount('The sum of those loans, AUD.'),
    commission: amount('What they earn you, AUD.'),
    duplicates: int32({ minimum: 0, description: 'Referrals another partner owned first (no commission).' }),
  },
  { description: 'Referrals made in the window, in this group, and what became of them.' },
);

const LeadSummary = Type.Object({
  reference: uuid,
  referralId: uuid,
  referredAt: dateTime,
  attribution: oneOf(['owner', 'duplicate'] as const, {
    description:
      '`duplicate` when another partner referred the same applicant to you earlier, within your ownership window.',
  }),
  duplicateOf: nullable(Type.String({ format: 'uuid', description: 'The reference of that earlier lead.' })),
  product: reference,
});
const leadText = opt(text());
const LeadApplicant = Type.Object(
  {
    firstName: leadText,
    lastName: leadText,
    email: leadText,
    mobileNumber: leadText,
    dateOfBirth: opt(Type.String({ format: 'date' })),
    address: leadText,
    homeAddress: leadText,
    unitNumber: leadText,
    streetNumber: leadText,
    streetName: leadText,
    streetType: leadText,
    suburb: leadText,
    state: leadText,
    postcode: leadText,
  },
  { description: 'The fields the applicant gave.' },
);
/** The applicant's fields a lead carries: who they are and where they live, never a consent flag or a score. */
export const LEAD_APPLICANT_FIELDS = Object.keys(LeadApplicant.properties);
const LeadOffer = Type.Object(
  {
    interestRate: number('Percent a year.'),
    comparisonRate: number('Percent a year.'),
    loanAmount: number(),
    loanTermMonths: int32(),
    monthlyRepayment: number(),
    establishmentFee: number(),
    monthlyFee: number(),
    certainty: oneOf(['pre_qualified', 'indicative'] as const),
    conditions: list(requirement, 'What you will need to see, for an indicative offer.'),
  },
  { description: 'The offer as it was matched.' },
);
/** The offer's fields a lead carries, in the schema's order: its terms, certainty and conditions. */
export const LEAD_OFFER_FIELDS = Object.keys(LeadOffer.properties) as Array<keyof typeof LeadOffer.properties>;
const Lead = Type.Intersect([
  ref('LeadSummary', LeadSummary),
  Type.Object({
    offer: LeadOffer,
    application: Type.Object({
      applicationId: uuid,
      formType: oneOf(FORM_TYPES),
      steps: Type.Record(Type.String({ pattern: '^[1-4]$' }), Type.Object({}, { additionalProperties: true }), {
        description: 'Steps 1-4 as the applicant gave them.',
      }),
    }),
    applicant: LeadApplicant,
    consent: nullable(
      Type.Object({
        consentVersion: text('The version of the consent wording shown.'),
        givenAt: dateTime,
        consentMarketing: bool,
      }),
    ),
  }),
]);

/** Every answer schema, by its component name, in the order the documents list them. */
export const RESPONSE_SCHEMAS = deepFreeze({
  Error: ErrorAnswer,
  FieldViolation,
  CreatedApplication,
  CreditCheckResult,
  Reference,
  OfferDetails,
  Offer,
  NearMissOffer,
  MatchResult,
  Referral,
  ReferralList,
  Webhook,
  RegisteredWebhook,
  WebhookList: Type.Object({ webhooks: list(ref('Webhook', Webhook)) }),
  DeletedWebhook: Type.Object({ webhookId: uuid, deleted: constant(true) }),
  RotatedSecret: Type.Object(
    { webhookId: uuid, secret: secret(), previousSecretExpiresAt: dateTime },
    {
      description:
        'The new secret, shown this once; the old one keeps signing beside it until `previousSecretExpiresAt` (24 hours).',
    },
  ),
  QueuedTestEvent: Type.Object({
    webhookId: uuid,
    eventId: Type.String({ pattern: '^evt_' }),
    type: constant('webhook.test'),
  }),
  DeliveryAttempt,
  DeliveryList: Type.Object({
    webhookId: uuid,
    pending: count,
    deliveries: list(ref('DeliveryAttempt', DeliveryAttempt), 'Newest first.'),
  }),
  AccessToken: Type.Object({
    accessToken: text('A JWT (HS256).'),
    tokenType: constant('Bearer'),
    expiresIn: int32({ description: 'Seconds (900).' }),
  }),
  UpdatedApplicationB: Type.Object(
    {
      applicationId: uuid,
      status,
      lastStep,
      creditCheckComplete: bool,
      missingFields: list(
        Type.String(),
        'Required fields of steps 2-4 not given yet (`loanTerm`, `employmentType`, `grossMonthlyIncome`, `livingSituation`): until none is missing, offers are `indicative`.',
      ),
    },
    { description: 'Where the application stands after the change.' },
  ),
  CreatedApplicationB: Type.Object({ applicationId: uuid, securityToken }),
  IssuedSecurityToken: Type.Object({ securityToken }),
  Health: Type.Object({ status: oneOf(['ok', 'ready'] as const) }),
  StatusChangedEvent: webhookEvent(
    'application.status_changed',
    Type.Object({
      applicationId: uuid,
      status,
      previousStatus: previous(STATUS_ORDER, 'null for the event of a new application.'),
      lastStep,
    }),
  ),
  TestEvent: webhookEvent('webhook.test', Type.Object({ webhookId: uuid })),
  ConsentTexts,
  OutcomeRecorded: Type.Object({
    outcomeId: uuid,
    referralId: uuid,
    status: oneOf(OUTCOME_TYPES, {
      description: "The referral's outcome with this event counted: the latest by `occurredAt`.",
    }),
  }),
  ReferralReportRow,
  ReferralReport: Type.Object({ rows: list(ref('ReferralReportRow', ReferralReportRow)) }),
  ReferralOutcomeChangedEvent: webhookEvent(
    'referral.outcome_changed',
    Type.Object({
      referralId: uuid,
      applicationId: uuid,
      lenderId: text(),
      status: outcomeStatus,
      previousStatus: previous(OUTCOME_TYPES, 'null for the first.'),
      clientTags,
    }),
  ),
  LeadSummary,
  Lead,
  LeadList: Type.Object({
    leads: list(ref('LeadSummary', LeadSummary), 'Newest first.'),
    nextCursor: nullable(text('Pass as `cursor` for the next page; null on the last page.')),
  }),
  LeadCreatedEvent: webhookEvent('lead.created', ref('Lead', Lead)),
});

/** The answers' types, read from their schemas. */
export type Answer<Name extends keyof typeof RESPONSE_SCHEMAS> = Static<(typeof RESPONSE_SCHEMAS)[Name]>;
