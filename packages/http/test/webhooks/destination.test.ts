import { classifyAddress, createDestinationPolicy, type LookupAll } from '../../src';

/** A resolver that answers from a table, like a DNS server the test controls; no query leaves the machine. */
function fakeDns(table: Record<string, string[]>): LookupAll & { table: Record<string, string[]> } {
  const lookup = (async (host: string) => {
    const found = lookup.table[host];
    if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  }) as LookupAll & { table: Record<string, string[]> };
  lookup.table = table;
  return lookup;
}

const PUBLIC_V4 = '93.184.215.14';
const PUBLIC_V6 = '2606:2800:21f:cb07:6820:80da:af6b:8b2c';

describe('addresses', () => {
  it.each([
    ['8.8.8.8', 'public'],
    [PUBLIC_V6, 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.10.20.30', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.1.2.3', 'refused'],
    ['172.16.0.1', 'refused'],
    ['192.168.1.1', 'refused'],
    ['169.254.169.254', 'refused'],
    ['100.64.0.1', 'refused'],
    ['0.0.0.0', 'refused'],
    ['255.255.255.255', 'refused'],
    ['224.0.0.1', 'refused'],
    ['192.0.2.10', 'refused'],
    ['::', 'refused'],
    ['fe80::1', 'refused'],
    ['fc00::1', 'refused'],
    ['fd12:3456::1', 'refused'],
    ['ff02::1', 'refused'],
    ['::ffff:10.0.0.1', 'refused'],
    ['::ffff:a00:1', 'refused'],
    ['::ffff:169.254.169.254', 'refused'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::a00:1', 'refused'],
    ['2002:a00:1::', 'refused'],
    ['2001:db8::1', 'refused'],
    ['not an address', 'refused'],
  ])('when the address is %s, then it is %s', (address, expected) => {
    expect(classifyAddress(address).class).toBe(expected);
  });

  // Each IPv6 form that carries an IPv4 address, with a public, a private, a metadata and a loopback
  // address inside: judged as the IPv4 address, and loopback only where the form reaches loopback.
  const carriers: Array<[string, (v4: string) => string, string]> = [
    ['IPv4-compatible', (a) => `::${a}`, 'refused'],
    ['IPv4-mapped', (a) => `::ffff:${a}`, 'loopback'],
    ['IPv4-translated', (a) => `::ffff:0:${a}`, 'refused'],
    ['NAT64', (a) => `64:ff9b::${a}`, 'refused'],
    ['6to4', (a) => `2002:${hex(a)}::1`, 'refused'],
    ['Teredo (client)', (a) => `2001:0:${hex('8.8.4.4')}:0:f000:${hex(a, true)}`, 'refused'],
    ['Teredo (server)', (a) => `2001:0:${hex(a)}:0:f000:${hex('8.8.4.4', true)}`, 'refused'],
  ];
  /** An IPv4 address as two IPv6 groups, inverted as Teredo writes its client. */
  function hex(address: string, inverted = false): string {
    const n = address.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);
    const value = inverted ? ~n >>> 0 : n;
    return `${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  it.each(carriers)(
    'when the %s form carries an IPv4 address, then it is judged as that address',
    (_form, write, loopback) => {
      expect(classifyAddress(write('8.8.8.8')).class).toBe('public');
      expect(classifyAddress(write('10.0.0.1')).class).toBe('refused');
      expect(classifyAddress(write('169.254.169.254')).class).toBe('refused');
      expect(classifyAddress(write('100.64.0.1')).class).toBe('refused');
      expect(classifyAddress(write('127.0.0.1')).class).toBe(loopback);
    },
  );

  it.each(['::127.0.0.1', '::10.0.0.1', '::169.254.169.254'])(
    'when the penetration test’s IPv4-compatible address %s is given, then it is refused, not public',
    (address) => {
      expect(classifyAddress(address)).toMatchObject({
        class: 'refused',
        range: expect.stringMatching(/^ipv4Compatible:/),
      });
    },
  );

  it('when NAT64’s local-use prefix is given, then it is refused: where its IPv4 address sits is not known', () => {
    expect(classifyAddress('64:ff9b:1::808:808').class).toBe('refused');
  });
});

describe('destination rules', () => {
  const dns = fakeDns({
    'hooks.partner.example': [PUBLIC_V4, PUBLIC_V6],
    'internal.partner.example': ['10.0.0.7'],
    'mixed.partner.example': [PUBLIC_V4, '192.168.0.2'],
    'metadata.partner.example': ['169.254.169.254'],
    'mapped.partner.example': ['::ffff:127.0.0.1'],
    localhost: ['127.0.0.1', '::1'],
  });
  const live = createDestinationPolicy({ env: 'live', lookup: dns });
  const sandbox = createDestinationPolicy({ env: 'sandbox', lookup: dns });

  it('when live gets an https URL whose every address is public, then it is accepted and the address to connect to is the one checked', async () => {
    expect(await live.check('https://hooks.partner.example/loanmatch?x=1')).toEqual({
      ok: true,
      url: 'https://hooks.partner.example/loanmatch?x=1',
    });
    expect(await live.resolve('https://hooks.partner.example/')).toMatchObject({
      ok: true,
      address: PUBLIC_V4,
      family: 4,
    });
    expect(await live.check(`https://[${PUBLIC_V6}]:8443/h`)).toMatchObject({ ok: true });
  });

  it.each([
    ['http://hooks.partner.example/', 'https', 'must use https'],
    [
      'https://internal.partner.example/',
      'address',
      'must resolve to public addresses only (not private, loopback or link-local)',
    ],
    [
      'https://mixed.partner.example/',
      'address',
      'must resolve to public addresses only (not private, loopback or link-local)',
    ],
    [
      'https://metadata.partner.example/',
      'address',
      'must resolve to public addresses only (not private, loopback or link-local)',
    ],
    ['https://localhost/', 'address', 'must resolve to public addresses only (not private, loopback or link-local)'],
    [
      'https://mapped.partner.example/',
      'address',
      'must resolve to public addresses only (not private, loopback or link-local)',
    ],
    ['https://127.0.0.1/', 'address', 'must resolve to public addresses only (not private, loopback or link-local)'],
    ['https://[::1]/', 'address', 'must resolve to public addresses only (not private, loopback or link-local)'],
    ['https://0x7f.1/', 'address', 'must resolve to public addresses only (not private, loopback or link-local)'],
    ['https://10.0.0.1/', 'address', 'must resolve to public addresses only (not private, loopback or link-local)'],
    ['https://unknown.partner.example/', 'resolvable', 'the host name does not resolve'],
    ['https://user:pw@hooks.partner.example/', 'credentials', 'must not contain a user name or password'],
    ['ftp://hooks.partner.example/', 'format', 'must be an absolute http or https URL'],
    ['hooks.partner.example/webhooks', 'format', 'must be an absolute http or https URL'],
    ['not a url', 'format', 'must be an absolute http or https URL'],
  ])('when live gets %s, then it is refused (%s)', async (url, rule, text) => {
    expect(await live.check(url)).toEqual({ ok: false, rule, text });
  });

  it('when the sandbox gets loopback http, then it is accepted; other plain http or private addresses are not', async () => {
    expect(await sandbox.check('http://127.0.0.1:4000/hook')).toMatchObject({ ok: true });
    expect(await sandbox.check('http://localhost:4000/hook')).toMatchObject({ ok: true });
    expect(await sandbox.check('http://[::1]:4000/hook')).toMatchObject({ ok: true });
    expect(await sandbox.check('https://hooks.partner.example/')).toMatchObject({ ok: true });
    expect(await sandbox.check('http://hooks.partner.example/')).toEqual({
      ok: false,
      rule: 'https',
      text: 'must use https (the sandbox accepts http for loopback addresses only)',
    });
    expect(await sandbox.check('http://internal.partner.example/')).toMatchObject({ ok: false, rule: 'address' });
    expect(await sandbox.check('http://192.168.1.10/')).toMatchObject({ ok: false, rule: 'address' });
  });

  it.each(['https://[::127.0.0.1]:4400/x', 'https://[::10.0.0.1]/x', 'https://[::169.254.169.254]/x'])(
    'when live gets the IPv4-compatible address of %s, then it is refused as the address it carries',
    async (url) => {
      expect(await live.check(url)).toEqual({
        ok: false,
        rule: 'address',
        text: 'must resolve to public addresses only (not private, loopback or link-local)',
      });
    },
  );

  it('when the sandbox lists its loopback ports, then loopback is accepted on those ports only', async () => {
    const listed = createDestinationPolicy({ env: 'sandbox', lookup: dns, sandboxLoopbackPorts: [4400, 8443] });
    for (const url of [
      'http://127.0.0.1:4400/hook',
      'http://localhost:4400/',
      'http://[::1]:4400/',
      'https://127.0.0.1:8443/',
    ])
      expect([url, await listed.check(url)]).toEqual([url, { ok: true, url: expect.any(String) }]);
    const refused = { ok: false, rule: 'address', text: 'must use a loopback port this sandbox allows (4400, 8443)' };
    for (const url of [
      'http://127.0.0.1:4401/hook',
      'http://localhost/',
      'https://[::1]/',
      'http://[::ffff:127.0.0.1]:22/',
    ])
      expect([url, await listed.check(url)]).toEqual([url, refused]);
    expect(await listed.resolve('http://127.0.0.1:5432/')).toMatchObject({ ok: false, code: 'refused_address' });
    expect(await listed.check('https://hooks.partner.example/')).toMatchObject({ ok: true }); // public: any port
  });

  it("when any loopback port is allowed, then the service's own ports are still refused, by name or address", async () => {
    const own = [3000, 3002];
    const policy = createDestinationPolicy({ env: 'sandbox', lookup: dns, ownPorts: () => own });
    for (const url of ['http://127.0.0.1:3002/admin/v1/partners', 'http://localhost:3000/hook', 'http://[::1]:3000/'])
      expect(await policy.resolve(url)).toMatchObject({
        ok: false,
        rule: 'address',
        text: "must not reach this service's own listeners",
      });
    expect(await policy.resolve('http://127.0.0.1:4400/hook')).toMatchObject({ ok: true });
    // Ports bound after the policy was made (a listener on port 0) count once they are known.
    own.push(4400);
    expect(await policy.resolve('http://127.0.0.1:4400/hook')).toMatchObject({ ok: false, rule: 'address' });
  });

  it('when the sandbox allows no loopback port, then loopback is refused and public addresses still pass', async () => {
    const none = createDestinationPolicy({ env: 'sandbox', lookup: dns, sandboxLoopbackPorts: [] });
    expect(await none.check('http://127.0.0.1:4000/hook')).toEqual({
      ok: false,
      rule: 'address',
      text: 'must resolve to public addresses only (this sandbox accepts no loopback address)',
    });
    expect(await none.check('https://hooks.partner.example:8443/')).toMatchObject({ ok: true });
  });

  it('when a name that was public resolves to an internal address at delivery, then the attempt is refused (no DNS rebinding)', async () => {
    const rebinding = fakeDns({ 'rebind.partner.example': [PUBLIC_V4] });
    const policy = createDestinationPolicy({ env: 'live', lookup: rebinding });
    expect(await policy.resolve('https://rebind.partner.example/')).toMatchObject({ ok: true, address: PUBLIC_V4 });
    rebinding.table['rebind.partner.example'] = ['127.0.0.1'];
    expect(await policy.resolve('https://rebind.partner.example/')).toMatchObject({
      ok: false,
      code: 'refused_address',
    });
  });

  it('when the resolver hangs, then the lookup gives up after its limit', async () => {
    const policy = createDestinationPolicy({
      env: 'live',
      lookup: () => new Promise(() => undefined),
      lookupTimeoutMs: 50,
    });
    expect(await policy.resolve('https://slow.partner.example/')).toMatchObject({
      ok: false,
      rule: 'resolvable',
      code: 'dns_error:ETIMEOUT',
    });
  });
});
