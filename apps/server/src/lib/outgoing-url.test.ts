import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutgoingUrlError, checkOutgoingUrl, createOutgoingFetch, isPublicAddress } from './outgoing-url';

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

  it('checks the addresses again when connecting, so a host name that changes its answer gains nothing', async () => {
    // The first resolution says public; the connection resolves localhost for real, to loopback.
    const fetcher = createOutgoingFetch({ allowPrivate: false, resolve: async () => ['93.184.216.34'] });
    const failure = await fetcher(`http://localhost:${port}/doc`).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    const chain: unknown[] = [];
    for (let at = failure; at; at = (at as { cause?: unknown }).cause) chain.push(at);
    expect(chain.some((at) => at instanceof OutgoingUrlError)).toBe(true);
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
