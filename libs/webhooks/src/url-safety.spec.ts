import { LookupAddress } from 'node:dns';
// eslint-disable-next-line no-restricted-imports -- the loopback DNS server is a test helper shared with the e2e suites
import { startDnsServer, TestDnsServer } from '../../../test/support/dns-server';
import { BlockedAddressError, configUrlProblem, isForbiddenAddress, literalAddress, safeLookup } from './url-safety';

const PRIVATE = 'must not point at a private, loopback, link-local or reserved address';
const LOCALHOST = 'must not point at localhost';

describe('isForbiddenAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.1.2.3', 'loopback /8'],
    ['127.255.255.254', 'loopback /8 end'],
    ['10.0.0.1', 'RFC 1918 10/8'],
    ['10.255.255.255', 'RFC 1918 10/8 end'],
    ['172.16.0.1', 'RFC 1918 172.16/12 start'],
    ['172.31.255.254', 'RFC 1918 172.16/12 end'],
    ['192.168.0.1', 'RFC 1918 192.168/16'],
    ['192.168.255.255', 'RFC 1918 192.168/16 end'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['169.254.0.1', 'link-local'],
    ['100.64.0.1', 'CGNAT 100.64/10 start'],
    ['100.127.255.254', 'CGNAT 100.64/10 end'],
    ['0.0.0.0', 'unspecified (connects to this host)'],
    ['0.1.2.3', '"this network" 0/8'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast (SSDP)'],
    ['255.255.255.255', 'limited broadcast'],
    ['240.0.0.1', 'reserved 240/4'],
    ['192.0.2.10', 'TEST-NET-1'],
    ['198.18.0.1', 'benchmarking'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fc00::1', 'unique local fc00::/7 (fc)'],
    ['fd00:ec2::254', 'unique local (AWS metadata over IPv6)'],
    ['fdff:ffff::1', 'unique local fc00::/7 end'],
    ['fe80::1', 'link-local fe80::/10'],
    ['febf:ffff::1', 'link-local fe80::/10 end'],
    ['fec0::1', 'deprecated site-local'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback (dotted)'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback (hex)'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['0:0:0:0:0:ffff:7f00:1', 'IPv4-mapped loopback (uncompressed)'],
    ['2002:7f00:1::', '6to4 wrapping 127.0.0.1'],
    ['2002:c0a8:101::1', '6to4 wrapping 192.168.1.1'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['64:ff9b::7f00:1', 'NAT64 wrapping 127.0.0.1'],
    ['2001:db8::1', 'documentation'],
    ['[::1]', 'bracketed as in a URL host'],
    ['[::ffff:7f00:1]', 'bracketed IPv4-mapped'],
  ])('%s (%s) is forbidden', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['', 'not-an-ip', 'example.com', '127.0.0.1:80', '::g', '[::1'])('an unparsable %p is forbidden (fails closed)', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['127.1', '0x7f.1', '2130706433', '0177.0.0.1'])('the legacy IPv4 spelling %p of 127.0.0.1 is forbidden too', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each([
    ['8.8.8.8', 'public DNS'],
    ['1.1.1.1', 'public DNS'],
    ['93.184.216.34', 'public'],
    ['11.0.0.1', 'just past 10/8'],
    ['172.15.255.255', 'just before 172.16/12'],
    ['172.32.0.1', 'just past 172.16/12'],
    ['100.63.255.255', 'just before 100.64/10'],
    ['100.128.0.1', 'just past 100.64/10'],
    ['169.253.255.255', 'just before 169.254/16'],
    ['2606:4700::1111', 'public IPv6 (Cloudflare)'],
    ['2001:4860:4860::8888', 'public IPv6 (Google)'],
    ['::ffff:8.8.8.8', 'IPv4-mapped public'],
    ['[2606:4700::1111]', 'bracketed public IPv6'],
  ])('%s (%s) is allowed', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });
});

describe('literalAddress', () => {
  it('answers the bare address of an IP-literal host, else null', () => {
    expect(literalAddress('127.0.0.1')).toBe('127.0.0.1');
    expect(literalAddress('[::1]')).toBe('::1');
    expect(literalAddress('[::ffff:7f00:1]')).toBe('::ffff:7f00:1');
    expect(literalAddress('example.com')).toBeNull();
    expect(literalAddress('localhost')).toBeNull();
  });
});

describe('configUrlProblem', () => {
  describe('with private targets NOT allowed (the default)', () => {
    it.each(['https://example.com/hook', 'https://example.com:8443/a?b=c', 'https://8.8.8.8/hook', 'https://[2606:4700::1111]/hook'])(
      'accepts %s',
      (url) => {
        expect(configUrlProblem(url, false)).toBeNull();
      },
    );

    it('accepts a host NAME even when it will resolve to loopback (checked at connect time)', () => {
      expect(configUrlProblem('https://canary.test:8443/hook', false)).toBeNull();
    });

    it.each(['http://example.com/hook', 'ftp://example.com/', 'ws://example.com/', 'file:///etc/passwd', 'gopher://127.0.0.1:6379/_PING'])(
      'refuses the non-https %s',
      (url) => {
        expect(configUrlProblem(url, false)).toBe('must be an https URL');
      },
    );

    it.each(['not a url', '/relative/path', 'example.com/hook', ''])('refuses the non-absolute %p', (url) => {
      expect(configUrlProblem(url, false)).toBe('must be an absolute URL');
    });

    it.each(['https://user:secret@example.com/hook', 'https://user@example.com/hook', 'https://:secret@example.com/hook'])(
      'refuses credentials in %s',
      (url) => {
        expect(configUrlProblem(url, false)).toBe('must not contain credentials');
      },
    );

    it('refuses a URL longer than 2048 characters', () => {
      expect(configUrlProblem(`https://example.com/${'a'.repeat(2030)}`, false)).toBe('must be at most 2048 characters');
      expect(configUrlProblem(`https://example.com/${'a'.repeat(2020)}`, false)).toBeNull();
    });

    it.each([
      'https://localhost/hook',
      'https://LOCALHOST/',
      'https://localhost:8443/',
      'https://foo.localhost/',
      'https://a.b.LocalHost/x',
    ])('refuses localhost: %s', (url) => {
      expect(configUrlProblem(url, false)).toBe(LOCALHOST);
    });

    it('refuses a percent-encoded localhost (WHATWG decodes the host first)', () => {
      expect(configUrlProblem('https://%6c%6fcalhost/', false)).toBe(LOCALHOST);
    });

    it.each(['https://localhost./', 'https://foo.localhost./hook', 'https://localhost%2e/'])(
      'refuses the fully-qualified localhost %s',
      (url) => {
        expect(configUrlProblem(url, false)).toBe(LOCALHOST);
      },
    );

    it.each([
      'https://127.0.0.1/',
      'https://127.1.2.3:8443/hook',
      'https://[::1]/',
      'https://10.0.0.1/',
      'https://172.16.5.4/',
      'https://192.168.1.1/',
      'https://169.254.169.254/latest/meta-data/',
      'https://100.64.0.1/',
      'https://0.0.0.0/',
      'https://224.0.0.1/',
      'https://255.255.255.255/',
      'https://[fd00:ec2::254]/',
      'https://[fc00::1]/',
      'https://[fe80::1]/',
      'https://[::]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:7f00:1]/',
      'https://[2002:7f00:1::]/',
      'https://[64:ff9b::a9fe:a9fe]/',
    ])('refuses the internal IP literal %s', (url) => {
      expect(configUrlProblem(url, false)).toBe(PRIVATE);
    });

    it.each([
      ['https://2130706433/', 'decimal'],
      ['https://0177.0.0.1/', 'octal'],
      ['https://017700000001/', 'octal, one number'],
      ['https://0x7f.1/', 'hex, two parts'],
      ['https://0x7f000001/', 'hex, one number'],
      ['https://0x7f.0.0.1/', 'hex first octet'],
      ['https://127.1/', 'short dotted'],
      ['https://127.0.0.1./', 'trailing root dot'],
      ['https://0/', 'zero'],
    ])('refuses %s (%s IPv4 form: WHATWG normalises it to a literal first)', (url) => {
      expect(new URL(url).hostname).toMatch(/^(127\.0\.0\.1|0\.0\.0\.0)$/);
      expect(configUrlProblem(url, false)).toBe(PRIVATE);
    });

    it('refuses a decimal / hex form of the metadata address', () => {
      expect(configUrlProblem('https://2852039166/', false)).toBe(PRIVATE); // 169.254.169.254
      expect(configUrlProblem('https://0xa9fea9fe/', false)).toBe(PRIVATE);
    });
  });

  describe('with private targets allowed (WEBHOOK_ALLOW_PRIVATE=true)', () => {
    it.each([
      'http://127.0.0.1:8080/hook',
      'https://localhost/',
      'http://[::1]:9000/',
      'https://10.0.0.1/',
      'http://2130706433/',
      'https://example.com/',
    ])('accepts %s', (url) => {
      expect(configUrlProblem(url, true)).toBeNull();
    });

    it('still refuses other schemes, credentials and relative URLs', () => {
      expect(configUrlProblem('ftp://127.0.0.1/', true)).toBe('must be an http or https URL');
      expect(configUrlProblem('http://u:p@127.0.0.1/', true)).toBe('must not contain credentials');
      expect(configUrlProblem('127.0.0.1/hook', true)).toBe('must be an absolute URL');
    });
  });
});

describe('safeLookup with a custom resolver (loopback DNS server)', () => {
  let dns: TestDnsServer;

  beforeAll(async () => {
    dns = await startDnsServer(
      {
        'canary.test': ['127.0.0.1'],
        'meta.test': ['169.254.169.254'],
        'mixed.test': ['8.8.8.8', '10.0.0.1'],
        'public.test': ['8.8.8.8', '1.1.1.1'],
        'dual.test': ['8.8.4.4'],
        'v6only.test': [],
        'v6loop.test': [],
        'v6mapped.test': [],
      },
      {
        'dual.test': ['2606:4700::1111'],
        'v6only.test': ['2001:4860:4860::8888'],
        'v6loop.test': ['::1'],
        'v6mapped.test': ['::ffff:127.0.0.1'],
      },
    );
  });
  afterAll(() => dns?.close());

  type Answer = { err: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number };
  const lookup = (allowPrivate: boolean, host: string, options: object | number | undefined = {}): Promise<Answer> =>
    new Promise((ok) =>
      safeLookup(allowPrivate, [dns.address])(host, options as never, (err, address, family) => ok({ err, address, family })),
    );

  it.each([
    ['canary.test', '127.0.0.1'],
    ['meta.test', '169.254.169.254'],
    ['v6loop.test', '::1'],
    ['v6mapped.test', '::ffff:127.0.0.1'],
  ])('fails the connection when %s resolves to %s', async (host, address) => {
    const { err } = await lookup(false, host);
    expect(err).toBeInstanceOf(BlockedAddressError);
    expect(err).toMatchObject({ code: 'EBLOCKED', message: `${host} resolves to ${address}, which is not a public address` });
    expect(dns.queriesFor(host).map((q) => q.type)).toEqual(expect.arrayContaining(['A', 'AAAA']));
  });

  it('refuses a name with a public AND a private address whole (also when only IPv4 is asked for)', async () => {
    for (const options of [{}, { all: true }, { family: 4 }, 4]) {
      const { err } = await lookup(false, 'mixed.test', options);
      expect(err).toMatchObject({ code: 'EBLOCKED', message: 'mixed.test resolves to 10.0.0.1, which is not a public address' });
    }
  });

  it('the private check also applies to IPv6 answers when only IPv4 is asked for', async () => {
    const { err } = await lookup(false, 'v6loop.test', { family: 4 });
    expect(err).toMatchObject({ code: 'EBLOCKED' });
  });

  it('passes public addresses: the first one, or all with {all: true}', async () => {
    expect(await lookup(false, 'public.test')).toEqual({ err: null, address: '8.8.8.8', family: 4 });
    expect(await lookup(false, 'public.test', { all: true })).toEqual({
      err: null,
      address: [
        { address: '8.8.8.8', family: 4 },
        { address: '1.1.1.1', family: 4 },
      ],
      family: undefined,
    });
  });

  it('honours the family asked for', async () => {
    expect(await lookup(false, 'dual.test', { family: 6 })).toEqual({ err: null, address: '2606:4700::1111', family: 6 });
    expect(await lookup(false, 'dual.test', { family: 4 })).toEqual({ err: null, address: '8.8.4.4', family: 4 });
    expect(await lookup(false, 'v6only.test', { all: true })).toEqual({
      err: null,
      address: [{ address: '2001:4860:4860::8888', family: 6 }],
      family: undefined,
    });
    const { err } = await lookup(false, 'v6only.test', { family: 4 });
    expect(err).toMatchObject({ code: 'ENOTFOUND' });
  });

  it('an unknown name fails with ENOTFOUND (not a block)', async () => {
    const { err } = await lookup(false, 'nowhere.test');
    expect(err).toMatchObject({ code: 'ENOTFOUND' });
    expect(err).not.toBeInstanceOf(BlockedAddressError);
  });

  it('with private targets allowed, loopback and link-local names resolve', async () => {
    expect(await lookup(true, 'canary.test')).toEqual({ err: null, address: '127.0.0.1', family: 4 });
    expect(await lookup(true, 'mixed.test', { all: true })).toEqual({
      err: null,
      address: [
        { address: '8.8.8.8', family: 4 },
        { address: '10.0.0.1', family: 4 },
      ],
      family: undefined,
    });
  });

  it('asks the configured server, not the system resolver', async () => {
    const before = dns.queriesFor('public.test').length;
    await lookup(false, 'public.test');
    expect(dns.queriesFor('public.test').length).toBeGreaterThan(before);
  });
});

describe('IPv4-compatible IPv6 (::/96)', () => {
  it('is never a public target', () => {
    expect(isForbiddenAddress('::7f00:1')).toBe(true);
  });
});
