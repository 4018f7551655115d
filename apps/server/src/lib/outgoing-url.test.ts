import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OutgoingUrlError,
  checkOutgoingUrl,
  createOutgoingFetch,
  isPublicAddress,
  parseAllowedHosts,
} from './outgoing-url';

describe('isPublicAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.4.5.6', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.10', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'documentation'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fe80::1%eth0', 'IPv6 link-local with a zone'],
    ['fc00::1', 'IPv6 unique-local'],
    ['fd12:3456::1', 'IPv6 unique-local'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['2002:7f00:1::', '6to4 of loopback'],
    ['not an address', 'not an address'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '[2001:4860::8888]',
  ])('allows the public address %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('checkOutgoingUrl', () => {
  const publicDns = async () => ['93.184.216.34'];
  const refused = (url: string, options: Parameters<typeof checkOutgoingUrl>[1]) =>
    expect(checkOutgoingUrl(url, options)).rejects.toThrow(OutgoingUrlError);

  it('allows an https or http URL whose host resolves only to public addresses', async () => {
    const url = await checkOutgoingUrl('https://login.example.com/realm', {
      allowPrivate: false,
      resolve: publicDns,
    });
    expect(url.href).toBe('https://login.example.com/realm');
    await expect(
      checkOutgoingUrl('http://93.184.216.34:8080/x', { allowPrivate: false, resolve: publicDns }),
    ).resolves.toBeInstanceOf(URL);
  });

  it('refuses other schemes and credentials in the URL, whatever OUTGOING_ALLOW_PRIVATE says', async () => {
    for (const allowPrivate of [false, true]) {
      await refused('ftp://login.example.com/', { allowPrivate, resolve: publicDns });
      await refused('file:///etc/passwd', { allowPrivate, resolve: publicDns });
      await refused('https://admin:secret@login.example.com/', { allowPrivate, resolve: publicDns });
      await refused('https://token@login.example.com/', { allowPrivate, resolve: publicDns });
      await refused('not a url', { allowPrivate, resolve: publicDns });
    }
  });

  it('refuses private and local address literals, however they are spelt', async () => {
    for (const url of [
      'http://127.0.0.1/',
      'http://2130706433/',
      'http://0x7f.0.0.1/',
      'http://0177.0.0.1/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:7f00:1]/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00::1]/',
      'http://0.0.0.0:3000/',
    ])
      await refused(url, { allowPrivate: false, resolve: publicDns });
  });

  it('refuses a host name when any of its addresses is not public, or when it does not resolve', async () => {
    await refused('https://mixed.example.com/', {
      allowPrivate: false,
      resolve: async () => ['93.184.216.34', '10.0.0.5'],
    });
    await refused('https://v6.example.com/', { allowPrivate: false, resolve: async () => ['fe80::1'] });
    await refused('https://none.example.com/', { allowPrivate: false, resolve: async () => [] });
    await refused('https://broken.example.com/', {
      allowPrivate: false,
      resolve: async () => {
        throw new Error('ENOTFOUND');
      },
    });
    // The system resolver: localhost is loopback.
    await refused('http://localhost:3000/', { allowPrivate: false });
  });

  it('allows private addresses with OUTGOING_ALLOW_PRIVATE=on', async () => {
    await expect(checkOutgoingUrl('http://127.0.0.1:8080/', { allowPrivate: true })).resolves.toBeInstanceOf(
      URL,
    );
    await expect(checkOutgoingUrl('http://localhost/', { allowPrivate: true })).resolves.toBeInstanceOf(URL);
  });
});

describe('createOutgoingFetch', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/redirect') {
        res.writeHead(302, { location: 'http://169.254.169.254/' });
        res.end();
      } else if (req.url === '/large') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('x'.repeat(2048));
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: true, method: req.method }));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fetches with OUTGOING_ALLOW_PRIVATE=on, answering a standard Response', async () => {
    const fetcher = createOutgoingFetch({ allowPrivate: true });
    const response = await fetcher(`http://127.0.0.1:${port}/doc`, { method: 'POST', body: 'a=1' });
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, method: 'POST' });
    await fetcher.close();
  });

  it('refuses a local server when private addresses are not allowed', async () => {
    const fetcher = createOutgoingFetch({ allowPrivate: false });
    await expect(fetcher(`http://127.0.0.1:${port}/doc`)).rejects.toThrow(OutgoingUrlError);
    await expect(fetcher(`http://localhost:${port}/doc`)).rejects.toThrow(OutgoingUrlError);
    await fetcher.close();
  });

  it('connects to the addresses it checked, without asking DNS a second time', async () => {
    // `pinned.test` exists only in this resolver: the connection can reach it only through the checked address.
    const asked: string[] = [];
    const fetcher = createOutgoingFetch({
      allowPrivate: false,
      allowedHosts: { names: [{ host: 'pinned.test', port: null }], ranges: [] },
      resolve: async (host) => {
        asked.push(host);
        return ['127.0.0.1'];
      },
    });
    const response = await fetcher(`http://pinned.test:${port}/doc`);
    expect(response.status).toBe(200);
    expect(asked).toEqual(['pinned.test']);
    await fetcher.close();
  });

  it('does not follow redirects and refuses answers over the size limit', async () => {
    const fetcher = createOutgoingFetch({ allowPrivate: true, maxBytes: 1024 });
    const redirect = await fetcher(`http://127.0.0.1:${port}/redirect`);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('http://169.254.169.254/');
    await expect(fetcher(`http://127.0.0.1:${port}/large`)).rejects.toThrow(/too large/);
    await fetcher.close();
  });
});

describe('the request-forgery guard, against a loopback listener', () => {
  let sink: Server;
  let sinkPort: number;
  let sinkHits = 0;
  let redirector: Server;
  let redirectorPort: number;
  let redirectorHits = 0;

  beforeAll(async () => {
    sink = createServer((_req, res) => {
      sinkHits++;
      res.end('reached');
    });
    redirector = createServer((_req, res) => {
      redirectorHits++;
      res.writeHead(302, { location: `http://127.0.0.1:${sinkPort}/` });
      res.end();
    });
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    sinkPort = (sink.address() as AddressInfo).port;
    redirectorPort = (redirector.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const server of [sink, redirector]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  /** Names resolve as the test says; `redirector.test` is allowed by name (OUTGOING_ALLOWED_HOSTS). */
  const names: Record<string, string[]> = {
    'loopback.test': ['127.0.0.1'],
    'mapped.test': ['::ffff:127.0.0.1'],
    'redirector.test': ['127.0.0.1'],
  };
  const policy = {
    allowPrivate: false,
    allowedHosts: { names: [{ host: 'redirector.test', port: null }], ranges: [] },
    resolve: async (host: string) => names[host] ?? [],
  };

  it('the URL parser normalises numeric spellings of 127.0.0.1 before the check', () => {
    expect(new URL('http://2130706433/').hostname).toBe('127.0.0.1');
    expect(new URL('http://0x7f.1/').hostname).toBe('127.0.0.1');
    expect(new URL('http://[::ffff:127.0.0.1]/').hostname).toBe('[::ffff:7f00:1]');
  });

  it('refuses every loopback, private, link-local and CGNAT spelling, and the listener records zero hits', async () => {
    const fetcher = createOutgoingFetch(policy);
    const refused = [
      `http://127.0.0.1:${sinkPort}/`,
      `http://[::1]:${sinkPort}/`,
      `http://[::ffff:127.0.0.1]:${sinkPort}/`,
      `http://2130706433:${sinkPort}/`,
      `http://0x7f.1:${sinkPort}/`,
      `http://10.0.0.1:${sinkPort}/`,
      `http://169.254.169.254:${sinkPort}/latest/meta-data/`,
      `http://100.64.0.1:${sinkPort}/`,
      `http://loopback.test:${sinkPort}/`,
      `http://mapped.test:${sinkPort}/`,
    ];
    for (const url of refused) await expect(fetcher(url), url).rejects.toThrow(OutgoingUrlError);
    // The system resolver: localhost is loopback.
    const system = createOutgoingFetch({ allowPrivate: false });
    await expect(system(`http://localhost:${sinkPort}/`)).rejects.toThrow(OutgoingUrlError);
    expect(sinkHits).toBe(0);
    await fetcher.close();
    await system.close();
  });

  it('does not follow a redirect to loopback: the 302 is the answer and the listener records zero hits', async () => {
    const fetcher = createOutgoingFetch(policy);
    const response = await fetcher(`http://redirector.test:${redirectorPort}/`);
    expect(response.status).toBe(302);
    expect(redirectorHits).toBe(1);
    expect(sinkHits).toBe(0);
    await fetcher.close();
  });

  it('lets an operator allow listed private hosts and ranges, and nothing else', async () => {
    const { hosts, problems } = parseAllowedHosts(' jira.internal , 127.0.0.0/8,[fd00::7], 10.1.2.3 ');
    expect(problems).toEqual([]);
    expect(hosts.names).toEqual([{ host: 'jira.internal', port: null }]);
    expect(hosts.ranges.map(({ range, bits }) => `${range.toString()}/${bits}`)).toEqual([
      '127.0.0.0/8',
      'fd00::7/128',
      '10.1.2.3/32',
    ]);
    expect(parseAllowedHosts('10.0.0.0/99, not a host!').problems).toHaveLength(2);

    const byRange = createOutgoingFetch({ allowPrivate: false, allowedHosts: hosts });
    expect((await byRange(`http://127.0.0.1:${sinkPort}/`)).status).toBe(200);
    expect(sinkHits).toBe(1);
    // 10.0.0.1 is outside the allowed ranges; the metadata address too.
    await expect(byRange('http://10.0.0.1/')).rejects.toThrow(OutgoingUrlError);
    await expect(byRange('http://169.254.169.254/')).rejects.toThrow(OutgoingUrlError);
    await byRange.close();
    sinkHits = 0;
  });

  it('lets an entry name a port, allowing that port of the host and no other', async () => {
    const { hosts, problems } = parseAllowedHosts(
      `jira.internal:8443, 127.0.0.1:${sinkPort}, [fd00::7]:443, 10.20.0.0/16:80, fd00::8, search.internal:443`,
    );
    expect(problems).toEqual([]);
    expect(hosts.names).toEqual([
      { host: 'jira.internal', port: 8443 },
      { host: 'search.internal', port: 443 },
    ]);
    expect(hosts.ranges.map(({ range, bits, port }) => [`${range.toString()}/${bits}`, port])).toEqual([
      ['127.0.0.1/32', sinkPort],
      ['fd00::7/128', 443],
      ['10.20.0.0/16', 80],
      ['fd00::8/128', null],
    ]);
    expect(
      parseAllowedHosts('jira.internal:0, jira.internal:65536, jira.internal:, [fd00::7]:x').problems,
    ).toEqual([
      '"jira.internal:0" has a port that is not a number from 1 to 65535',
      '"jira.internal:65536" has a port that is not a number from 1 to 65535',
      '"jira.internal:" has a port that is not a number from 1 to 65535',
      '"[fd00::7]:x" is not a host name, an address or a CIDR range',
    ]);

    const policy = { allowPrivate: false, allowedHosts: hosts, resolve: async () => ['10.0.0.9'] };
    await expect(checkOutgoingUrl('https://jira.internal:8443/rest', policy)).resolves.toBeInstanceOf(URL);
    await expect(checkOutgoingUrl('https://jira.internal/rest', policy)).rejects.toThrow(OutgoingUrlError);
    await expect(checkOutgoingUrl('http://jira.internal:22/', policy)).rejects.toThrow(OutgoingUrlError);
    // Without a port in the URL, the scheme's: 443 for https, 80 for http.
    await expect(checkOutgoingUrl('https://search.internal/', policy)).resolves.toBeInstanceOf(URL);
    await expect(checkOutgoingUrl('http://search.internal/', policy)).rejects.toThrow(OutgoingUrlError);
    await expect(checkOutgoingUrl('https://[fd00::7]/', policy)).resolves.toBeInstanceOf(URL);
    await expect(checkOutgoingUrl('https://[fd00::7]:8443/', policy)).rejects.toThrow(OutgoingUrlError);
    await expect(checkOutgoingUrl('http://10.20.3.4/', policy)).resolves.toBeInstanceOf(URL);
    await expect(checkOutgoingUrl('http://10.20.3.4:6379/', policy)).rejects.toThrow(OutgoingUrlError);
    await expect(checkOutgoingUrl('http://[fd00::8]:6379/', policy)).resolves.toBeInstanceOf(URL);

    const fetcher = createOutgoingFetch({ allowPrivate: false, allowedHosts: hosts });
    const redirectorBefore = redirectorHits;
    expect((await fetcher(`http://127.0.0.1:${sinkPort}/`)).status).toBe(200);
    await expect(fetcher(`http://127.0.0.1:${redirectorPort}/`)).rejects.toThrow(OutgoingUrlError);
    expect(sinkHits).toBe(1);
    expect(redirectorHits).toBe(redirectorBefore);
    await fetcher.close();
    sinkHits = 0;
  });
});
