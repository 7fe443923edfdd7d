/**
 * The consent wording partners show applicants, versioned (`consent/consent-texts.json`): the last version
 * is current; earlier ones stay known for consents captured under them. Checked at load.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { deepFreeze } from './deep-freeze';

export const CONSENT_TEXTS_PATH = path.resolve(__dirname, '../consent/consent-texts.json');

export const CONSENT_KINDS = ['creditCheck', 'privacy', 'marketing', 'terms'] as const;
export type ConsentKind = (typeof CONSENT_KINDS)[number];

/** The step-5 fields that give each consent, aliases included. */
export const CONSENT_FIELDS: Readonly<Record<ConsentKind, readonly string[]>> = {
  creditCheck: ['consentCreditCheck', 'creditCheckConsent'],
  privacy: ['privacyConsent'],
  marketing: ['consentMarketing', 'marketingConsent'],
  terms: ['consentTerms', 'termsConsent'],
};

export interface ConsentTextVersion {
  readonly version: string;
  readonly effectiveFrom: string;
  readonly texts: Readonly<Record<ConsentKind, string>>;
}

const VERSION = /^[A-Za-z0-9._-]{1,40}$/;

/** The versions, oldest first, or a TypeError naming the rule broken. */
export function parseConsentTexts(document: unknown): ConsentTextVersion[] {
  const versions = (document as { versions?: unknown } | null)?.versions;
  if (!Array.isArray(versions) || versions.length === 0)
    throw new TypeError('consent texts: versions must be a non-empty list');
  const parsed: ConsentTextVersion[] = [];
  for (const [i, entry] of versions.entries()) {
    const at = `consent texts: versions[${i}]`;
    const { version, effectiveFrom, texts, ...rest } = (entry ?? {}) as Record<string, unknown>;
    if (Object.keys(rest).length > 0) throw new TypeError(`${at} has unknown fields: ${Object.keys(rest).join(', ')}`);
    if (typeof version !== 'string' || !VERSION.test(version))
      throw new TypeError(`${at}.version must be 1-40 characters of letters, digits, '.', '_' or '-'`);
    if (parsed.some((v) => v.version === version)) throw new TypeError(`${at}.version ${version} is listed twice`);
    const time = typeof effectiveFrom === 'string' ? Date.parse(effectiveFrom) : Number.NaN;
    if (Number.isNaN(time) || new Date(time).toISOString() !== effectiveFrom)
      throw new TypeError(`${at}.effectiveFrom must be an ISO 8601 time in UTC (2026-11-23T00:00:00.000Z)`);
    if (parsed.length > 0 && time <= Date.parse(parsed[parsed.length - 1].effectiveFrom))
      throw new TypeError(`${at}.effectiveFrom must be later than the version before it`);
    const given = (texts ?? {}) as Record<string, unknown>;
    const extra = Object.keys(given).filter((k) => !(CONSENT_KINDS as readonly string[]).includes(k));
    if (typeof texts !== 'object' || texts === null || extra.length > 0)
      throw new TypeError(`${at}.texts must hold exactly ${CONSENT_KINDS.join(', ')}`);
    for (const kind of CONSENT_KINDS)
      if (typeof given[kind] !== 'string' || (given[kind] as string).trim() === '')
        throw new TypeError(`${at}.texts.${kind} must be a non-empty text`);
    parsed.push({ version, effectiveFrom, texts: given as Record<ConsentKind, string> });
  }
  return parsed;
}

export const CONSENT_TEXTS: readonly ConsentTextVersion[] = deepFreeze(
  parseConsentTexts(JSON.parse(readFileSync(CONSENT_TEXTS_PATH, 'utf8'))),
);

export const CONSENT_TEXT_VERSIONS: readonly string[] = Object.freeze(CONSENT_TEXTS.map((v) => v.version));

export const CURRENT_CONSENT_TEXTS: ConsentTextVersion = CONSENT_TEXTS[CONSENT_TEXTS.length - 1];
