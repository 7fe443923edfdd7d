/**
 * Where webhooks may go (issue "Safety"), checked when an endpoint is registered and again before every
 * attempt, so a name that resolved to a public address at registration cannot later be pointed at an
 * internal one (DNS rebinding):
 *
 * - live: `https` only, and every address the host resolves to must be public (see addresses.ts);
 * - sandbox: the same, and also loopback addresses, over `http` or `https`, so partners can test locally,
 *   on the ports the operator allows (WEBHOOK_SANDBOX_LOOPBACK_PORTS): on a hosted sandbox any loopback
 *   port would let a key holder probe the server's own services.
 *
 * A URL with a user name or password is refused (it would be stored and shown in clear). Before an
 * attempt, `resolve` answers the address that was checked; the request connects to that address and no
 * other (its `lookup` is pinned), while TLS still verifies the certificate for the host name.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { DestinationCheck, Environment } from '@loanmatch/domain';
import { bareHost, classifyAddress, isIpLiteral } from './addresses';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address of a host name (like `dns.lookup` with `all: true`). */
export type LookupAll = (hostname: string) => Promise<ResolvedAddress[]>;

export type Resolution =
  | { ok: true; url: URL; address: string; family: 4 | 6 }
  /** `rule` and `text` make `url: <text>` at registration; `code` is the attempt's error code at delivery. */
  | { ok: false; rule: string; text: string; code: string };

export interface DestinationPolicy {
  readonly env: Environment;
  /** Checks a URL and resolves its host: the address to connect to, or why not. */
  resolve(url: string): Promise<Resolution>;
  /** For registration: the URL as it will be stored, or the rule it breaks. */
  check(url: string): Promise<DestinationCheck>;
}

export interface DestinationPolicyOptions {
  env: Environment;
  /** Name resolution; `dns.lookup` (all addresses, as the system resolves them) by default. Tests inject one. */
  lookup?: LookupAll;
  /** How long a lookup may take. Default 5000 ms. */
  lookupTimeoutMs?: number;
  /**
   * The sandbox's loopback ports: `'any'` (the default, for a sandbox on the partner's own machine) or a
   * list, which may be empty (no loopback at all). The server passes what its configuration says.
   */
  sandboxLoopbackPorts?: LoopbackPorts;
}

export type LoopbackPorts = 'any' | readonly number[];

const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

export const DEFAULT_LOOKUP_TIMEOUT_MS = 5000;

const systemLookup: LookupAll = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

function refuse(rule: string, text: string, code: string): Resolution {
  return { ok: false, rule, text, code };
}

export function createDestinationPolicy(options: DestinationPolicyOptions): DestinationPolicy {
  const { env } = options;
  const lookup = options.lookup ?? systemLookup;
  const lookupTimeoutMs = options.lookupTimeoutMs ?? DEFAULT_LOOKUP_TIMEOUT_MS;
  const loopbackPorts = options.sandboxLoopbackPorts ?? 'any';
  const loopbackPortAllowed = (url: URL) =>
    loopbackPorts === 'any' || loopbackPorts.includes(Number(url.port || DEFAULT_PORTS[url.protocol]));
  const portRule =
    loopbackPorts === 'any' || loopbackPorts.length > 0
      ? `must use a loopback port this sandbox allows (${loopbackPorts === 'any' ? 'any' : loopbackPorts.join(', ')})`
      : 'must resolve to public addresses only (this sandbox accepts no loopback address)';
  const httpsRule =
    env === 'live' ? 'must use https' : 'must use https (the sandbox accepts http for loopback addresses only)';

  async function addressesOf(host: string): Promise<ResolvedAddress[] | { code: string }> {
    if (isIpLiteral(host)) return [{ address: host, family: host.includes(':') ? 6 : 4 }];
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(Object.assign(new Error('lookup timed out'), { code: 'ETIMEOUT' })),
          lookupTimeoutMs,
        );
        timer.unref();
      });
      const found = await Promise.race([lookup(host), timeout]);
      return found.length > 0 ? found : { code: 'ENOTFOUND' };
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      return { code: typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,39}$/.test(code) ? code : 'ERROR' };
    } finally {
      clearTimeout(timer);
    }
  }

  async function resolve(raw: string): Promise<Resolution> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return refuse('format', 'must be an absolute http or https URL', 'invalid_url');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      return refuse('format', 'must be an absolute http or https URL', 'invalid_url');
    if (url.protocol === 'http:' && env === 'live') return refuse('https', httpsRule, 'refused_scheme');
    if (url.username || url.password)
      return refuse('credentials', 'must not contain a user name or password', 'invalid_url');
    const host = bareHost(url.hostname);
    if (!host) return refuse('format', 'must be an absolute http or https URL', 'invalid_url');

    const found = await addressesOf(host);
    if (!Array.isArray(found)) return refuse('resolvable', 'the host name does not resolve', `dns_error:${found.code}`);
    const classes = found.map((a) => classifyAddress(a.address).class);
    const allowed = (c: string) => c === 'public' || (c === 'loopback' && env === 'sandbox');
    if (!classes.every(allowed)) {
      const text =
        env === 'live'
          ? 'must resolve to public addresses only (not private, loopback or link-local)'
          : 'must resolve to public or loopback addresses only (not private or link-local)';
      return refuse('address', text, 'refused_address');
    }
    if (classes.includes('loopback') && !loopbackPortAllowed(url))
      return refuse('address', portRule, 'refused_address');
    if (url.protocol === 'http:' && !classes.every((c) => c === 'loopback'))
      return refuse('https', httpsRule, 'refused_scheme');
    return { ok: true, url, address: found[0].address, family: found[0].family };
  }

  return {
    env,
    resolve,
    async check(raw) {
      const resolved = await resolve(raw);
      return resolved.ok
        ? { ok: true, url: resolved.url.toString() }
        : { ok: false, rule: resolved.rule, text: resolved.text };
    },
  };
}
