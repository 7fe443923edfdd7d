import { findOwnApplication, type ApplicationRef } from '../applications/view';
import type { DomainContext } from '../context';
import { matchFound } from '../offers';
import { checkSecurityToken } from './security-token';

/** `POST /v1/applications/{id}/match`: the security token first, then Variant A's match. */
export async function matchApplicationB(ctx: DomainContext, options: ApplicationRef & { body: unknown }) {
  const found = await findOwnApplication(ctx, options);
  if (!found.ok) return found;
  const token = checkSecurityToken(found.value.securityTokenHash, options.body);
  return token.ok ? matchFound(ctx, found.value) : token;
}
