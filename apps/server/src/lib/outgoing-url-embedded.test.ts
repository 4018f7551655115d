import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { OutgoingUrlError, checkOutgoingUrl, isPublicAddress } from './outgoing-url';

/*
 * IPv6 addresses that carry an IPv4 address inside them: the guard must not let one through when the
 * IPv4 address it carries is loopback or private (docs/adr/0017-integrations-and-outgoing-requests.md).
 */

const octet = fc.integer({ min: 0, max: 255 });
const ipv4 = fc.tuple(octet, octet, octet, octet);
const group = fc.integer({ min: 0, max: 0xffff });
const hex = (n: number) => n.toString(16);

type Octets = [number, number, number, number];
const dotted = (o: Octets) => o.join('.');
/** The IPv4 address as the two IPv6 groups that hold it. */
const groups = (o: Octets) => [hex((o[0] << 8) | o[1]), hex((o[2] << 8) | o[3])];

/** IPv4 addresses that are not public: loopback, RFC 1918, link-local (cloud metadata), CGNAT, unspecified. */
const localIpv4 = fc.oneof(
  fc.tuple(fc.constant(127), octet, octet, octet),
  fc.tuple(fc.constant(10), octet, octet, octet),
  fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), octet, octet),
  fc.tuple(fc.constant(192), fc.constant(168), octet, octet),
  fc.tuple(fc.constant(169), fc.constant(254), octet, octet),
  fc.tuple(fc.constant(100), fc.integer({ min: 64, max: 127 }), octet, octet),
  fc.tuple(fc.constant(0), octet, octet, octet),
) as fc.Arbitrary<Octets>;

const refusedUrl = async (host: string) => {
  const url = `http://[${host}]:8080/hook`;
  await expect(checkOutgoingUrl(url, { allowPrivate: false, resolve: async () => [] }), url).rejects.toThrow(
    OutgoingUrlError,
  );
};

describe('IPv6 addresses that embed an IPv4 address', () => {
  it('refuses the whole IPv4-compatible range ::/96, in dotted and hexadecimal spelling, as a literal and from DNS', async () => {
    expect(isPublicAddress('::7f00:1')).toBe(false);
    await fc.assert(
      fc.asyncProperty(ipv4, async (o) => {
        const [high, low] = groups(o as Octets);
        for (const spelling of [
          `::${dotted(o as Octets)}`,
          `::${high}:${low}`,
          `0:0:0:0:0:0:${high}:${low}`,
        ]) {
          expect(isPublicAddress(spelling), spelling).toBe(false);
          await refusedUrl(spelling);
        }
        const viaDns = checkOutgoingUrl('https://compatible.example.com/', {
          allowPrivate: false,
          resolve: async () => [`::${high}:${low}`],
        });
        await expect(viaDns).rejects.toThrow(OutgoingUrlError);
      }),
    );
  });

  it('refuses NAT64 (64:ff9b::/96 and 64:ff9b:1::/48), 6to4 (2002::/16) and Teredo (2001::/32) addresses', async () => {
    await fc.assert(
      fc.asyncProperty(ipv4, fc.array(group, { minLength: 5, maxLength: 5 }), async (o, rest) => {
        const [high, low] = groups(o as Octets);
        const r = rest.map(hex);
        for (const address of [
          `64:ff9b::${dotted(o as Octets)}`,
          `64:ff9b::${high}:${low}`,
          `64:ff9b:1:${r[0]}:${r[1]}:${r[2]}:${high}:${low}`,
          `2002:${high}:${low}:${r[0]}:${r[1]}:${r[2]}:${r[3]}:${r[4]}`,
          `2001:0:${high}:${low}:${r[0]}:${r[1]}:${r[2]}:${r[3]}`,
          `::ffff:0:${dotted(o as Octets)}`,
        ]) {
          expect(isPublicAddress(address), address).toBe(false);
          await refusedUrl(address);
        }
      }),
    );
  });

  it('judges an IPv4-mapped address (::ffff:0:0/96) by the IPv4 address it maps', () => {
    fc.assert(
      fc.property(ipv4, (o) => {
        const [high, low] = groups(o as Octets);
        const v4Public = isPublicAddress(dotted(o as Octets));
        expect(isPublicAddress(`::ffff:${dotted(o as Octets)}`)).toBe(v4Public);
        expect(isPublicAddress(`::ffff:${high}:${low}`)).toBe(v4Public);
      }),
    );
  });

  it('refuses an ISATAP address (…:0:5efe:a.b.c.d) whose IPv4 address is loopback or private, under any prefix', async () => {
    await fc.assert(
      fc.asyncProperty(
        localIpv4,
        fc.array(group, { minLength: 2, maxLength: 2 }),
        fc.constantFrom('0', '100', '200', '300'),
        async (o, prefix, flags) => {
          const address = `2606:4700:${prefix.map(hex).join(':')}:${flags}:5efe:${dotted(o)}`;
          expect(isPublicAddress(address), address).toBe(false);
          await refusedUrl(address);
        },
      ),
    );
    expect(isPublicAddress('2606:4700:1:2:200:5efe:8.8.8.8')).toBe(true);
  });

  it('still allows public IPv6 addresses', () => {
    fc.assert(
      fc.property(fc.array(group, { minLength: 6, maxLength: 6 }), (rest) => {
        // Not an ISATAP interface identifier (…:0:5efe:…).
        fc.pre(!((rest[2]! & 0xfcff) === 0 && rest[3] === 0x5efe));
        const address = `2606:4700:${rest.map(hex).join(':')}`;
        expect(ipaddr.parse(address).range()).toBe('unicast');
        expect(isPublicAddress(address), address).toBe(true);
      }),
    );
  });
});
