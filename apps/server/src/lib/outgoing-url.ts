import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { promisify } from 'node:util';
import ipaddr from 'ipaddr.js';
import { Agent, fetch as undiciFetch } from 'undici';

/*
 * URLs the server fetches on users' behalf (an identity provider's discovery document, token endpoint
 * and keys; later integrations' webhooks) must not reach what only the server can reach: its own
 * loopback, the private network it runs in, the cloud's metadata address (server-side request
 * forgery). A URL is allowed when it is http(s), carries no credentials, and every address its host
 * resolves to is public. The check runs before the request and again when the connection is made,
 * on the addresses it is made to, so a host name that resolves differently the second time (DNS
 * rebinding) gains nothing. OUTGOING_ALLOW_PRIVATE=on (config.ts) lifts the address rule, for tests
 * and for self-hosting next to a private identity provider (docs/adr/0014-single-sign-on.md).
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

/**
 * Whether `address` (an IPv4 or IPv6 literal) is a public unicast address: not loopback, private,
 * link-local, unique-local, carrier-grade NAT, multicast, broadcast, unspecified, reserved or
 * documentation. An IPv4-mapped IPv6 address is judged by its IPv4 address; other addresses that
 * embed one (NAT64, 6to4, Teredo) are refused.
 */
export function isPublicAddress(address: string): boolean {
  const text = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(text)) return false;
  let parsed = ipaddr.parse(text);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.zoneId) return false;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

/** The URL if it may be fetched: http(s), without credentials, and (unless allowed) to public addresses only. */
export async function checkOutgoingUrl(
  input: string | URL,
  options: { allowPrivate: boolean; resolve?: Resolve },
): Promise<URL> {
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
  if (options.allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) {
    if (!isPublicAddress(host)) throw new OutgoingUrlError('the address is not a public internet address');
    return url;
  }
  let addresses: string[];
  try {
    addresses = await (options.resolve ?? systemResolve)(host);
  } catch {
    throw new OutgoingUrlError('its host name could not be resolved');
  }
  if (addresses.length === 0) throw new OutgoingUrlError('its host name could not be resolved');
  if (!addresses.every(isPublicAddress))
    throw new OutgoingUrlError('its host name points to an address that is not public');
  return url;
}

/** What the connection layer calls to resolve a host (node's `net` lookup signature). */
type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `lookup` for sockets that refuses to connect to an address that is not public. */
function guardedLookup(hostname: string, options: { all?: boolean }, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true, verbatim: true }, (error, addresses) => {
    if (error) return callback(error, []);
    if (addresses.length === 0 || !addresses.every((entry) => isPublicAddress(entry.address)))
      return callback(new OutgoingUrlError('its host name points to an address that is not public'), []);
    if (options.all) return callback(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });
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
 * A fetch for URLs users gave: each URL is checked first ({@link checkOutgoingUrl}), connections are
 * made only to public addresses, redirects are not followed, answers are read up to
 * {@link OUTGOING_MAX_BYTES} and requests time out.
 */
export function createOutgoingFetch(options: {
  allowPrivate: boolean;
  resolve?: Resolve;
  maxBytes?: number;
  timeoutMs?: number;
}): OutgoingFetch & { close(): Promise<void> } {
  const maxBytes = options.maxBytes ?? OUTGOING_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? OUTGOING_TIMEOUT_MS;
  const dispatcher = new Agent(options.allowPrivate ? {} : { connect: { lookup: guardedLookup } });
  const outgoingFetch = async (input: string | URL, init: OutgoingRequest = {}) => {
    const url = await checkOutgoingUrl(input, options);
    const timeout = AbortSignal.timeout(timeoutMs);
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
  };
  return Object.assign(outgoingFetch, { close: () => dispatcher.close() });
}
