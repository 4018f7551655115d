import { describe, expect, it } from 'vitest';
import { organisationLoginAddress } from './organisation-form';

describe('organisationLoginAddress', () => {
  it("goes to the organisation's own sub-domain when the page is on the base domain", () => {
    expect(
      organisationLoginAddress('acme', 'vexil.example.com', {
        protocol: 'https:',
        hostname: 'vexil.example.com',
        port: '',
      }),
    ).toEqual({ external: 'https://acme.vexil.example.com/login' });
    expect(
      organisationLoginAddress('acme', 'flags.test', {
        protocol: 'http:',
        hostname: 'flags.test',
        port: '8080',
      }),
    ).toEqual({ external: 'http://acme.flags.test:8080/login' });
  });

  it('keeps the path form elsewhere: another host, no base domain known, or localhost', () => {
    const here = { protocol: 'http:', hostname: '127.0.0.1', port: '3000' };
    expect(organisationLoginAddress('acme', 'vexil.example.com', here)).toEqual({ path: '/acme/login' });
    expect(organisationLoginAddress('acme', undefined, here)).toEqual({ path: '/acme/login' });
    expect(
      organisationLoginAddress('acme', 'localhost', {
        protocol: 'http:',
        hostname: 'localhost',
        port: '3000',
      }),
    ).toEqual({ path: '/acme/login' });
  });
});
