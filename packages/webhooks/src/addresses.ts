/**
 * Which IP addresses a webhook may be sent to. Only global unicast addresses are public; everything
 * else (private, loopback, link-local, unique-local, multicast, unspecified, carrier-grade NAT,
 * documentation, benchmarking, 6to4, Teredo, NAT64, reserved, …) is refused, except loopback, which
 * the sandbox accepts so partners can test on their own machine. An IPv4-mapped IPv6 address
 * (`::ffff:10.0.0.1`) is judged as the IPv4 address it carries.
 *
 * ipaddr.js keeps the IANA special-purpose registries as tables; an allow-list of its `unicast` range
 * refuses any range it knows of, including ones added later.
 */
import ipaddr from 'ipaddr.js';

export type AddressClass = 'public' | 'loopback' | 'refused';

/** The address without IPv6 brackets (`[::1]` → `::1`), as URL.hostname writes it. */
export const bareHost = (hostname: string): string =>
  hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;

/** Whether `host` is an IP address written out (then no name is looked up). */
export function isIpLiteral(host: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(host) || ipaddr.IPv6.isValid(host);
}

export function classifyAddress(address: string): { class: AddressClass; range: string } {
  if (!isIpLiteral(address)) return { class: 'refused', range: 'invalid' };
  let parsed: ipaddr.IPv4 | ipaddr.IPv6 = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  if (range === 'unicast') return { class: 'public', range };
  if (range === 'loopback') return { class: 'loopback', range };
  return { class: 'refused', range };
}
