/**
 * Lead ownership: the same applicant is the same e-mail or mobile number, compared as keyed digests under
 * APPLICANT_HASH_SECRET kept beside the sealed details; the database's `record_referral` decides from them.
 */
import type { Json } from '@loanmatch/db';
import { createSecretBox } from './sealing';

/** A lender's ownership window when the catalogue states none. */
export const DEFAULT_OWNERSHIP_DAYS = 90;

export type ApplicantHashes = { emailHash: string | null; mobileHash: string | null };

/** The e-mail address as compared: trimmed and lower-cased; null when it is no address. */
export function normaliseEmail(value: unknown): string | null {
  const email = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return /^[^@\s]+@[^@\s]+$/.test(email) ? email : null;
}

/**
 * The number in E.164: an Australian one written nationally (`0412 345 678`), with its country code
 * (`+61 412 345 678`, `61412345678`, `+61 (0)412 345 678`) or from abroad (`0061…`) is `+61412345678`;
 * another number written with its `+` and country code stays as it is; anything else is null.
 */
export function normaliseMobile(value: unknown): string | null {
  const number = typeof value === 'string' ? value.replace(/[\s().-]/g, '') : '';
  const australian = /^(?:(?:\+|00)?61|0)0?([2-478]\d{8})$/.exec(number);
  if (australian) return `+61${australian[1]}`;
  return /^\+[1-9]\d{6,14}$/.test(number) ? number : null;
}

/** Hashes the `email` and `mobileNumber` of an applicant's details; a value that does not normalise has none. */
export function createApplicantHasher(secret: string | Uint8Array): (details: Json) => ApplicantHashes {
  const box = createSecretBox([secret], 'applicant-hash');
  const hash = (kind: string, value: string | null) => (value === null ? null : box.digest(`${kind}:${value}`));
  return (details) => {
    const fields = (details ?? {}) as Record<string, unknown>;
    return {
      emailHash: hash('email', normaliseEmail(fields.email)),
      mobileHash: hash('mobile', normaliseMobile(fields.mobileNumber)),
    };
  };
}
