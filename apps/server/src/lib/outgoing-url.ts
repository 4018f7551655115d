import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { promisify } from 'node:util';
import ipaddr from 'ipaddr.js';
import { Agent, fetch as undiciFetch } from 'undici';

/*
 * URLs the server fetches on users' behalf (an identity provider's discovery document, token endpoint
 * and keys; outgoing webhooks; an issue tracker's base URL; the chat service's incoming webhook) must
 * not reach what only the server can reach: its own loopback, the private network it runs in, the
 * cloud's metadata address (server-side request forgery). A URL is allowed when it is http(s), carries
 * no credentials, and every address its host resolves to is public (ipaddr.js classifies them: no
 * hand-written range tables). The host is resolved once, and the connection is made to the addresses
 * that were checked (no second lookup), so a host name that answers differently the second time
 * (DNS rebinding) gains nothing. Numeric spellings of an address (`2130706433`, `0x7f.1`, `0177.0.0.1`)
 * are normalised by the URL parser before the check.
 *
 * Two settings (config.ts) relax the address rule: OUTGOING_ALLOWED_HOSTS lists host names and CIDR
 * ranges an operator allows although they are private (a self-hosted issue tracker on the internal
 * network), each on every port or on the one port it names, and OUTGOING_ALLOW_PRIVATE=on lifts the rule altogether, for tests
 * (docs/adr/0017-integrations-and-outgoing-requests.md).
 */

/** Why an outgoing URL was refused, in words that may be shown to the admin who entered it. */
export class OutgoingUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutgoingUrlError';
  }
}

/** The addresses a host name resolves to. */
export type Resolve = (hostname: string) => Promise<string[]>;

type LookupAll = (hostname: string, options: { all: true; verbatim: true }) => Promise<LookupAddress[]>;
const lookupAll = promisify(dnsLookup) as unknown as LookupAll;

const systemResolve: Resolve = async (hostname) =>
  (await lookupAll(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** Strips the brackets of an IPv6 literal as URLs write it. */
function bare(host: string): string {
  return host.replace(/^\[|\]$/g, '');
}

/**
 * An IPv6 literal in the URL standard's spelling (hexadecimal groups, `::7f00:1`), or null when it is
 * not one (or carries a zone). ipaddr.js reads the deprecated `::a.b.c.d` as `::ffff:a.b.c.d`, which
 * would judge an IPv4-compatible address by its IPv4 address: it only ever sees this spelling.
 */
function canonicalIPv6(text: string): string | null {
  try {
    return bare(new URL(`http://[${text}]/`).hostname);
  } catch {
    return null;
  }
}

/** An address as ipaddr.js reads it, an IPv4-mapped IPv6 address as its IPv4 address; null when invalid or zoned. */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  let text: string | null = bare(address);
  if (text.includes(':')) text = canonicalIPv6(text);
  if (text === null || !ipaddr.isValid(text)) return null;
  const parsed = ipaddr.parse(text);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.zoneId) return null;
    if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  }
  return parsed;
}

/** The deprecated IPv4-compatible addresses `::a.b.c.d` (RFC 4291), which ipaddr.js calls unicast. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/**
 * Whether an IPv6 address that ipaddr.js calls unicast still carries an IPv4 address the guard must
 * not reach: any IPv4-compatible address, and an ISATAP interface identifier (`…:0:5efe:a.b.c.d`,
 * RFC 5214, with or without its universal and group bits) around an IPv4 address that is not public.
 */
function embedsRefusedIPv4(address: ipaddr.IPv6): boolean {
  if (address.match(IPV4_COMPATIBLE)) return true;
  const [, , , , flags, isatap, high, low] = address.parts as number[];
  if ((flags! & 0xfcff) !== 0 || isatap !== 0x5efe) return false;
  return new ipaddr.IPv4([high! >> 8, high! & 0xff, low! >> 8, low! & 0xff]).range() !== 'unicast';
}

/**
 * Whether `address` (an IPv4 or IPv6 literal) is a public unicast address: not loopback, private,
 * link-local, unique-local, carrier-grade NAT, multicast, broadcast, unspecified, reserved or
 * documentation. An IPv4-mapped IPv6 address is judged by its IPv4 address; other addresses that
 * embed one are refused whatever it is (IPv4-compatible `::/96`, IPv4-translated, NAT64, 6to4, Teredo:
 * ipaddr.js's ranges, and ours above), and an ISATAP address when its IPv4 address is not public.
 */
export function isPublicAddress(address: string): boolean {
  const parsed = parseAddress(address);
  if (parsed === null || parsed.range() !== 'unicast') return false;
  return parsed.kind() === 'ipv4' || !embedsRefusedIPv4(parsed as ipaddr.IPv6);
}

/**
 * Host names and address ranges allowed although they are not public (OUTGOING_ALLOWED_HOSTS): a
 * name allows every address it resolves to; a range (CIDR, or one address) allows the addresses in it.
 * An entry that names a port allows that port only; without one, every port.
 */
export type AllowedHosts = {
  names: { host: string; port: number | null }[];
  ranges: { range: ipaddr.IPv4 | ipaddr.IPv6; bits: number; port: number | null }[];
};

export const NO_ALLOWED_HOSTS: AllowedHosts = { names: [], ranges: [] };

const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** An entry's host and port: `jira.internal:8443`, `10.0.0.7:8443`, `[fd00::7]:8443`; a bare IPv6 address has none. */
function splitPort(entry: string): { host: string; port: string | null } {
  const bracketed = /^\[([^\]]*)\](?::(\d*))?$/.exec(entry);
  if (bracketed) return { host: bracketed[1]!, port: bracketed[2] ?? null };
  const plain = /^([^:]*):(\d*)$/.exec(entry);
  if (plain) return { host: plain[1]!, port: plain[2]! };
  return { host: entry, port: null };
}

/** A CIDR range, an IPv4-mapped range as the IPv4 range it maps; null when it is not one. */
function parseRange(text: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | null {
  const slash = text.lastIndexOf('/');
  const address = text.slice(0, slash);
  const canonical = address.includes(':') ? canonicalIPv6(address) : address;
  if (canonical === null) return null;
  try {
    const [range, bits] = ipaddr.parseCIDR(`${canonical}${text.slice(slash)}`);
    if (range.kind() === 'ipv6' && (range as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96)
      return [(range as ipaddr.IPv6).toIPv4Address(), bits - 96];
    return [range, bits];
  } catch {
    return null;
  }
}

/**
 * Reads OUTGOING_ALLOWED_HOSTS: comma-separated host names (`jira.internal`), addresses (`10.0.0.7`,
 * `[fd00::7]`) and CIDR ranges (`10.20.0.0/16`), each with an optional port (`jira.internal:8443`,
 * `[fd00::7]:8443`, `10.20.0.0/16:443`). Returns the problems instead when an entry is none of these.
 */
export function parseAllowedHosts(text: string): { hosts: AllowedHosts; problems: string[] } {
  const hosts: AllowedHosts = { names: [], ranges: [] };
  const problems: string[] = [];
  for (const raw of text.split(',')) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    const split = splitPort(entry);
    let port: number | null = null;
    if (split.port !== null) {
      port = /^\d{1,5}$/.test(split.port) ? Number(split.port) : 0;
      if (port < 1 || port > 65535) {
        problems.push(`"${entry}" has a port that is not a number from 1 to 65535`);
        continue;
      }
    }
    if (split.host.includes('/')) {
      const range = parseRange(split.host);
      if (range) hosts.ranges.push({ range: range[0], bits: range[1], port });
      else problems.push(`"${entry}" is not a CIDR range such as 10.0.0.0/8`);
      continue;
    }
    const address = parseAddress(split.host);
    if (address) hosts.ranges.push({ range: address, bits: address.kind() === 'ipv4' ? 32 : 128, port });
    else if (HOST_NAME.test(split.host)) hosts.names.push({ host: split.host.replace(/\.$/, ''), port });
    else problems.push(`"${entry}" is not a host name, an address or a CIDR range`);
  }
  return { hosts, problems };
}

/** Whether an allow-list entry's port (null: any) admits `port`. */
const portAdmits = (entryPort: number | null, port: number) => entryPort === null || entryPort === port;

/** Whether `address` is public, or in one of the ranges allowed for `port`. */
function addressAllowed(address: string, allowed: AllowedHosts, port: number): boolean {
  if (isPublicAddress(address)) return true;
  const parsed = parseAddress(address);
  if (!parsed) return false;
  return allowed.ranges.some(
    (entry) =>
      portAdmits(entry.port, port) &&
      entry.range.kind() === parsed.kind() &&
      parsed.match(entry.range as never, entry.bits),
  );
}

/** What decides whether an outgoing URL may be fetched. */
export type OutgoingPolicy = {
  /** OUTGOING_ALLOW_PRIVATE: any address (tests). */
  allowPrivate: boolean;
  /** OUTGOING_ALLOWED_HOSTS. */
  allowedHosts?: AllowedHosts;
  /** Tests resolve names their own way; the system resolver otherwise. */
  resolve?: Resolve;
};

/** An allowed URL and the addresses its host resolved to (null when the connection may look it up itself). */
export type CheckedUrl = { url: URL; addresses: LookupAddress[] | null };

/** Parses and checks a URL: http(s), without credentials, to allowed addresses; resolves its host once. */
export async function resolveOutgoingUrl(input: string | URL, options: OutgoingPolicy): Promise<CheckedUrl> {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new OutgoingUrlError('it is not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new OutgoingUrlError('only http and https addresses can be used');
  if (url.username || url.password)
    throw new OutgoingUrlError('the address must not contain a user name or password');
  if (options.allowPrivate) return { url, addresses: null };
  const allowed = options.allowedHosts ?? NO_ALLOWED_HOSTS;
  const host = bare(url.hostname).toLowerCase().replace(/\.$/, '');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (ipaddr.isValid(host)) {
    if (!addressAllowed(host, allowed, port))
      throw new OutgoingUrlError('the address is not a public internet address');
    return { url, addresses: null };
  }
  const byName = allowed.names.some((entry) => entry.host === host && portAdmits(entry.port, port));
  let addresses: string[];
  try {
    addresses = await (options.resolve ?? systemResolve)(host);
  } catch {
    throw new OutgoingUrlError('its host name could not be resolved');
  }
  if (addresses.length === 0) throw new OutgoingUrlError('its host name could not be resolved');
  if (!byName && !addresses.every((address) => addressAllowed(address, allowed, port)))
    throw new OutgoingUrlError('its host name points to an address that is not public');
  return {
    url,
    addresses: addresses.map((address) => ({
      address: bare(address),
      family: ipaddr.parse(bare(address)).kind() === 'ipv6' ? 6 : 4,
    })),
  };
}

/** The URL if it may be fetched: http(s), without credentials, and (unless allowed) to public addresses only. */
export async function checkOutgoingUrl(input: string | URL, options: OutgoingPolicy): Promise<URL> {
  return (await resolveOutgoingUrl(input, options)).url;
}

/** What the connection layer calls to resolve a host (node's `net` lookup signature). */
type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `lookup` for sockets that answers the addresses already checked, without asking DNS again. */
function pinnedLookup(addresses: LookupAddress[]) {
  return (_hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    if (options.all) return callback(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  };
}

/** The subset of fetch's arguments the OpenID Connect client passes (and a webhook would). */
export type OutgoingRequest = {
  method?: string;
  headers?: Record<string, string> | Headers;
  body?: string | URLSearchParams | null;
  signal?: AbortSignal | null;
};
export type OutgoingFetch = (url: string | URL, init?: OutgoingRequest) => Promise<Response>;

/** The largest answer read from an outgoing request; a larger one is refused. */
export const OUTGOING_MAX_BYTES = 1024 * 1024;
/** How long an outgoing request may take when its caller sets no limit. */
export const OUTGOING_TIMEOUT_MS = 10_000;

async function readLimited(response: Awaited<ReturnType<typeof undiciFetch>>, maxBytes: number) {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new OutgoingUrlError('the answer is too large');
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (response.body) {
    for await (const chunk of response.body) {
      total += chunk.byteLength;
      if (total > maxBytes) throw new OutgoingUrlError('the answer is too large');
      chunks.push(chunk);
    }
  }
  return Buffer.concat(chunks);
}

/**
 * A fetch for URLs users gave: each URL is checked first ({@link resolveOutgoingUrl}), the connection
 * is made to the addresses that were checked, redirects are not followed (a 3xx is answered as it
 * is), answers are read up to {@link OUTGOING_MAX_BYTES} and requests time out.
 */
export function createOutgoingFetch(
  options: OutgoingPolicy & { maxBytes?: number; timeoutMs?: number },
): OutgoingFetch & { close(): Promise<void> } {
  const maxBytes = options.maxBytes ?? OUTGOING_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? OUTGOING_TIMEOUT_MS;
  // Addresses given as literals (or any address, with OUTGOING_ALLOW_PRIVATE) share one pool; a
  // resolved host name gets a dispatcher of its own whose lookup answers the checked addresses.
  const shared = new Agent();
  const outgoingFetch = async (input: string | URL, init: OutgoingRequest = {}) => {
    const { url, addresses } = await resolveOutgoingUrl(input, options);
    const dispatcher = addresses ? new Agent({ connect: { lookup: pinnedLookup(addresses) } }) : shared;
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      const response = await undiciFetch(url, {
        method: init.method ?? 'GET',
        headers: init.headers as Record<string, string> | undefined,
        body: init.body ?? null,
        redirect: 'manual',
        signal: init.signal ? AbortSignal.any([init.signal, timeout]) : timeout,
        dispatcher,
      });
      const body = await readLimited(response, maxBytes);
      const nullBody = [101, 204, 205, 304].includes(response.status);
      // The body is read (and decoded) already: its encoding and length headers no longer describe it.
      const headers = new Headers();
      for (const [name, value] of response.headers)
        if (name !== 'content-encoding' && name !== 'content-length') headers.append(name, value);
      return new Response(nullBody ? null : body, {
        status: response.status,
        statusText: response.statusText,
        headers,
      });
    } finally {
      if (dispatcher !== shared) void dispatcher.destroy().catch(() => {});
    }
  };
  return Object.assign(outgoingFetch, { close: () => shared.close() });
}
