/**
 * Variant B's access token, kept between calls and renewed before it expires. Calls that need a token
 * at the same moment share one exchange.
 */
import type { AccessTokenGrant } from './responses';

export class AccessTokenCache {
  private current?: { token: string; renewAt: number };
  private pending?: Promise<string>;

  constructor(
    private readonly exchange: () => Promise<AccessTokenGrant>,
    private readonly now: () => number,
    /** How long before expiry a token is renewed (capped at half its lifetime). */
    private readonly renewBeforeMs: number,
  ) {}

  get(): Promise<string> {
    if (this.current && this.now() < this.current.renewAt) return Promise.resolve(this.current.token);
    this.pending ??= this.renew().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** Forgets `token` after the service refused it, unless another call has renewed it already. */
  discard(token: string): void {
    if (this.current?.token === token) this.current = undefined;
  }

  private async renew(): Promise<string> {
    // Counted from before the request: the token's lifetime cannot have started earlier.
    const requestedAt = this.now();
    const grant = await this.exchange();
    const lifetimeMs = grant.expiresIn * 1000;
    this.current = {
      token: grant.accessToken,
      renewAt: requestedAt + lifetimeMs - Math.min(this.renewBeforeMs, lifetimeMs / 2),
    };
    return grant.accessToken;
  }
}
