/**
 * Where webhooks may go, checked at registration and again before every attempt (no DNS rebinding):
 * live takes `https` to public addresses only; the sandbox also takes loopback addresses, over `http` or
 * `https`, on the ports the operator allows. A URL with a user name or password is refused (it would be
 * shown in clear). An attempt connects to the address checked, and no other.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  WEBHOOK_SECRET_PURPOSE,
  createSecretBox,
  type DestinationCheck,
  type Environment,
  type WebhookServices,
} from '@loanmatch/domain';
import { systemCode } from '../errors';
import { bareHost, classifyAddress, isIpLiteral } from './addresses';

/** Every address of a host name (like `dns.lookup` with `all: true`). */
export type LookupAll = (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;

export type Resolution =
  | { ok: true; url: URL; address: string; family: 4 | 6 }
  /** `rule` and `text` make `url: <text>` at registration; `code` is the attempt's error at delivery. */
  | { ok: false; rule: string; text: string; code: string };

export interface DestinationPolicy {
  /** The address to connect to, or why not. */
  resolve(url: string): Promise<Resolution>;
  /** For registration: the URL as it will be stored, or the rule it breaks. */
  check(url: string): Promise<DestinationCheck>;
}

/** The sandbox's loopback ports: any (a sandbox on the partner's own machine), or a list, maybe empty. */
export type LoopbackPorts = 'any' | readonly number[];

const systemLookup: LookupAll = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

export function createDestinationPolicy(options: {
  env: Environment;
  lookup?: LookupAll;
  lookupTimeoutMs?: number;
  sandboxLoopbackPorts?: LoopbackPorts;
  /** This service's own ports (its listeners'), never a webhook's, whatever the sandbox allows. */
  ownPorts?: () => readonly number[];
}): DestinationPolicy {
  const { env, lookup = systemLookup, lookupTimeoutMs = 5000, sandboxLoopbackPorts: ports = 'any' } = options;
  const httpsRule =
    env === 'live' ? 'must use https' : 'must use https (the sandbox accepts http for loopback addresses only)';
  const portRule =
    ports === 'any' || ports.length > 0
      ? `must use a loopback port this sandbox allows (${ports === 'any' ? 'any' : ports.join(', ')})`
      : 'must resolve to public addresses only (this sandbox accepts no loopback address)';
  const addressRule =
    env === 'live'
      ? 'must resolve to public addresses only (not private, loopback or link-local)'
      : 'must resolve to public or loopback addresses only (not private or link-local)';
  const refuse = (rule: string, text: string, code: string): Resolution => ({ ok: false, rule, text, code });
  const notAUrl = () => refuse('format', 'must be an absolute http or https URL', 'invalid_url');

  /** The host's addresses, or the error code of a lookup that failed or took longer than its limit. */
  async function addressesOf(host: string): Promise<Array<{ address: string; family: 4 | 6 }> | string> {
    if (isIpLiteral(host)) return [{ address: host, family: host.includes(':') ? 6 : 4 }];
    try {
      const found = await Promise.race([lookup(host), sleep(lookupTimeoutMs, 'ETIMEOUT', { ref: false })]);
      return typeof found === 'string' || found.length > 0 ? found : 'ENOTFOUND';
    } catch (err) {
      return systemCode(err) ?? 'ERROR';
    }
  }

  async function resolve(raw: string): Promise<Resolution> {
    const url = URL.parse(raw);
    if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) return notAUrl();
    if (url.protocol === 'http:' && env === 'live') return refuse('https', httpsRule, 'refused_scheme');
    if (url.username || url.password)
      return refuse('credentials', 'must not contain a user name or password', 'invalid_url');
    const host = bareHost(url.hostname);
    if (!host) return notAUrl();

    const found = await addressesOf(host);
    if (typeof found === 'string') return refuse('resolvable', 'the host name does not resolve', `dns_error:${found}`);
    const classes = found.map((a) => classifyAddress(a.address).class);
    if (!classes.every((c) => c === 'public' || (c === 'loopback' && env === 'sandbox')))
      return refuse('address', addressRule, 'refused_address');
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    if (classes.includes('loopback') && options.ownPorts?.().includes(port))
      return refuse('address', "must not reach this service's own listeners", 'refused_address');
    if (classes.includes('loopback') && ports !== 'any' && !ports.includes(port))
      return refuse('address', portRule, 'refused_address');
    if (url.protocol === 'http:' && !classes.every((c) => c === 'loopback'))
      return refuse('https', httpsRule, 'refused_scheme');
    return { ok: true, url, address: found[0].address, family: found[0].family };
  }

  return {
    resolve,
    async check(raw) {
      const resolved = await resolve(raw);
      return resolved.ok
        ? { ok: true, url: resolved.url.toString() }
        : { ok: false, rule: resolved.rule, text: resolved.text };
    },
  };
}

/** What the domain's webhook use cases need: sealing, the destination rules, and a nudge for the dispatcher. */
export function createWebhookServices(options: {
  env: Environment;
  /** Secrets the sealing key derives from, newest first; older ones still open what they sealed. */
  sealingSecrets: readonly string[];
  lookup?: LookupAll;
  sandboxLoopbackPorts?: LoopbackPorts;
  ownPorts?: () => readonly number[];
  /** Called when an event was written: wake this process's dispatcher. */
  notify?: () => void;
}): WebhookServices & { destinations: DestinationPolicy } {
  const destinations = createDestinationPolicy(options);
  return {
    secrets: createSecretBox(options.sealingSecrets, WEBHOOK_SECRET_PURPOSE),
    destinations,
    checkDestination: (url) => destinations.check(url),
    notify: () => options.notify?.(),
  };
}
