/** The per-application `securityToken` of Variant B: shown once at create, kept as its digest. */
import { findSecurityTokenHash, replaceSecurityTokenHash } from '@loanmatch/db';
import type { ApplicationRef } from '../applications/view';
import type { DomainContext } from '../context';
import { fail, ok, type Result } from '../errors';
import { canonicalUuid } from '../ids';
import { digest, digestsEqual, randomSecret } from '../keys';
import { validateSecurityTokenRequest } from '../validation';

export function newSecurityToken(): { securityToken: string; hash: string } {
  const securityToken = `st_${randomSecret()}`;
  return { securityToken, hash: digest(securityToken) };
}

/** The `securityToken` of a body, in the contract's order: 404, then 400, then 403. */
export async function verifySecurityToken(ctx: DomainContext, options: ApplicationRef & { body: unknown }) {
  const applicationId = canonicalUuid(options.applicationId);
  const stored = applicationId ? await findSecurityTokenHash(ctx.db, applicationId, options.partnerId) : undefined;
  if (stored === undefined) return fail('NOT_FOUND', 'Application not found');
  return checkSecurityToken(stored, options.body);
}

/** `stored` null: an application made through Variant A, which has none. */
export function checkSecurityToken(stored: string | null, body: unknown): Result<void> {
  const request = validateSecurityTokenRequest(body);
  if (!request.ok) return request;
  if (stored === null || !digestsEqual(stored, digest(request.value.securityToken))) {
    return fail('INVALID_SECURITY_TOKEN', 'securityToken: is not the security token of this application');
  }
  return ok(undefined);
}

/**
 * `POST /v1/applications/{id}/security-token`: a new security token for any application of the partner,
 * one made through Variant A included; the previous one stops working.
 */
export async function issueSecurityToken(ctx: DomainContext, options: ApplicationRef) {
  const applicationId = canonicalUuid(options.applicationId);
  const token = newSecurityToken();
  const replaced =
    applicationId && (await replaceSecurityTokenHash(ctx.db, applicationId, options.partnerId, token.hash));
  return replaced ? ok({ securityToken: token.securityToken }) : fail('NOT_FOUND', 'Application not found');
}
