/**
 * Where webhooks may go, checked at registration and again before every attempt (no DNS rebinding):
 * live takes `https` to public addresses only; the sandbox also takes loopback addresses, over `http` or
 * `https`, on the ports the operator allows. A URL with a user name or password is refused (it would be
 * shown in clear). An attempt connects to the address checked, and no other.
 *
 * An address is public when it is global unicast (ipaddr.js's `unicast` range, which excludes every
 * special-purpose range it knows). An IPv6 address carrying an IPv4 one (mapped, compatible, translated,
 * NAT64, 6to4, Teredo) is judged as that IPv4 address; only the mapped form reaches this machine's loopback
 * (docs/adr/0152).
 */
import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import ipaddr from 'ipaddr.js';
import {
  WEBHOOK_SECRET_PURPOSE,
  createSecretBox,
  type DestinationCheck,
  type Environment,
  type WebhookServices,
} from '@loanmatch/domain';
import { systemCode } from '../errors';

/** Every address of a host name (like `dns.lookup` with `all: true`). */
export type LookupAll = (hostname: string) => Promise<LookupAddress[]>;

export type Resolution =
  | { ok: true; url: URL; address: string; family: number }
  /** `rule` and `text` make `url: <text>` at registration; `code` is the attempt's error at delivery. */
  | { ok: false; rule: string; text: string; code: string };

export type DestinationPolicy = ReturnType<typeof createDestinationPolicy>;

const systemLookup: LookupAll = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export function createDestinationPolicy(options: {
  env: Environment;
  lookup?: LookupAll;
  lookupTimeoutMs?: number;
  /** The sandbox's loopback ports: any (a sandbox on the partner's own machine), or a list, maybe empty. */
  sandboxLoopbackPorts?: 'any' | readonly number[];
  /** This service's own ports (its listeners'), never a webhook's, whatever the sandbox allows. */
  ownPorts?: () => readonly number[];
}) {
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
  async function addressesOf(host: string): Promise<LookupAddress[] | string> {
    if (isIpLiteral(host)) return [{ address: host, family: host.includes(':') ? 6 : 4 }];
    try {
      const found = await Promise.race([lookup(host), sleep(lookupTimeoutMs, 'ETIMEOUT', { ref: false })]);
      return typeof found === 'string' || found.length > 0 ? found : 'ENOTFOUND';
    } catch (err) {
      return systemCode(err) ?? 'ERROR';
    }
  }

  /** The address to connect to, or why not. */
  async function resolve(raw: string): Promise<Resolution> {
    const url = URL.parse(raw);
    if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) return notAUrl();
    if (url.protocol === 'http:' && env === 'live') return refuse('https', httpsRule, 'refused_scheme');
    if (url.username || url.password)
      return refuse('credentials', 'must not contain a user name or password', 'invalid_url');
    const found = await addressesOf(bareHost(url.hostname));
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
    /** For registration: the URL as it will be stored, or the rule it breaks. */
    async check(raw: string): Promise<DestinationCheck> {
      const resolved = await resolve(raw);
      return resolved.ok
        ? { ok: true, url: resolved.url.toString() }
        : { ok: false, rule: resolved.rule, text: resolved.text };
    },
  };
}

/** What the domain's webhook use cases need: sealing, the destination rules, and a nudge for the dispatcher. */
export function createWebhookServices(
  options: Parameters<typeof createDestinationPolicy>[0] & {
    /** Secrets the sealing key derives from, newest first; older ones still open what they sealed. */
    sealingSecrets: readonly string[];
    /** Called when an event was written: wake this process's dispatcher. */
    notify?: () => void;
  },
): WebhookServices & { destinations: DestinationPolicy } {
  const destinations = createDestinationPolicy(options);
  return {
    secrets: createSecretBox(options.sealingSecrets, WEBHOOK_SECRET_PURPOSE),
    destinations,
    checkDestination: (url) => destinations.check(url),
    notify: () => options.notify?.(),
  };
}

type AddressClass = 'public' | 'loopback' | 'refused';

/** The host without the IPv6 brackets URL.hostname writes (`[::1]` → `::1`). */
export const bareHost = (hostname: string): string =>
  hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;

const isIpLiteral = (host: string): boolean => ipaddr.IPv4.isValidFourPartDecimal(host) || ipaddr.IPv6.isValid(host);

export function classifyAddress(address: string): { class: AddressClass; range: string } {
  if (!isIpLiteral(address)) return { class: 'refused', range: 'invalid' };
  // ipaddr.js reads `::a.b.c.d` as IPv4-mapped (`::ffff:a.b.c.d`); written out in full it reads it as it is.
  const parsed = ipaddr.parse(address.replace(/^::(?=\d+\.\d+\.\d+\.\d+$)/, '0:0:0:0:0:0:'));
  if (parsed.kind() === 'ipv4') return byRange(parsed.range());
  const v6 = parsed as ipaddr.IPv6;
  const carried = carriedIPv4(v6);
  if (carried === undefined) return byRange(v6.range());
  const judged = carried.addresses.map((a) => byRange(a.range()));
  const refused = judged.find((j) => j.class === 'refused');
  if (refused) return { class: 'refused', range: `${carried.form}:${refused.range}` };
  if (judged.some((j) => j.class === 'loopback'))
    return carried.form === 'ipv4Mapped'
      ? { class: 'loopback', range: 'ipv4Mapped:loopback' }
      : { class: 'refused', range: `${carried.form}:loopback` };
  return { class: 'public', range: `${carried.form}:unicast` };
}

function byRange(range: string): { class: AddressClass; range: string } {
  return { class: range === 'unicast' ? 'public' : range === 'loopback' ? 'loopback' : 'refused', range };
}

const v4 = (high: number, low: number): ipaddr.IPv4 => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

/** `::/96` but not `::` or `::1`: the deprecated IPv4-compatible form (RFC 4291 2.5.5.1). */
const isIPv4Compatible = (parts: number[]): boolean =>
  parts.slice(0, 6).every((p) => p === 0) && (parts[6] !== 0 || parts[7] > 1);

/**
 * The IPv4 addresses an IPv6 address carries, by the form that carries them; undefined for plain IPv6.
 * Local-use NAT64 (`64:ff9b:1::/48`) says nothing of where its IPv4 address sits: 0.0.0.0, refused.
 */
function carriedIPv4(address: ipaddr.IPv6): { form: string; addresses: ipaddr.IPv4[] } | undefined {
  const { parts } = address;
  const last = v4(parts[6], parts[7]);
  if (isIPv4Compatible(parts)) return { form: 'ipv4Compatible', addresses: [last] };
  switch (address.range()) {
    case 'ipv4Mapped':
      return { form: 'ipv4Mapped', addresses: [last] };
    case 'rfc6145':
      return { form: 'ipv4Translated', addresses: [last] };
    case 'rfc6052':
      return parts.slice(2, 6).every((p) => p === 0)
        ? { form: 'nat64', addresses: [last] }
        : { form: 'nat64LocalUse', addresses: [new ipaddr.IPv4([0, 0, 0, 0])] };
    case '6to4':
      return { form: '6to4', addresses: [v4(parts[1], parts[2])] };
    case 'teredo':
      // 2001:0:<server>:<flags>:<port>:<client, each bit inverted>.
      return { form: 'teredo', addresses: [v4(parts[2], parts[3]), v4(~parts[6] & 0xffff, ~parts[7] & 0xffff)] };
    default:
      return undefined;
  }
}
