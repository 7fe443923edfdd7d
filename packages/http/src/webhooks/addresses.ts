/**
 * Which IP addresses a webhook may be sent to: global unicast only (ipaddr.js's `unicast` range, which
 * excludes every special-purpose range it knows), and loopback, which the sandbox accepts. An IPv6 address
 * carrying an IPv4 one (mapped, compatible, translated, NAT64, 6to4, Teredo) is judged as that IPv4 address;
 * only the mapped form reaches this machine's loopback (docs/adr/0152).
 */
import ipaddr from 'ipaddr.js';

export type AddressClass = 'public' | 'loopback' | 'refused';

/** The host without the IPv6 brackets URL.hostname writes (`[::1]` → `::1`). */
export const bareHost = (hostname: string): string =>
  hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;

export const isIpLiteral = (host: string): boolean =>
  ipaddr.IPv4.isValidFourPartDecimal(host) || ipaddr.IPv6.isValid(host);

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
