/*
 * docs/product.md §4/§9: after sign-in the organisation's domain is kept in a readable cookie named `subdomain`
 * for 365 days, so that the bare app address can send the user straight back to their organisation.
 */
import { SUBDOMAIN_COOKIE_DAYS } from '@vexil/core';

export const REMEMBERED_ORGANISATION_COOKIE = 'subdomain';
const MAX_AGE_SECONDS = SUBDOMAIN_COOKIE_DAYS * 24 * 60 * 60;

/**
 * When the page is served from `{domain}.{base}`, the cookie is set on `{base}` so that the bare app
 * address reads it too. Browsers refuse a Domain attribute on single-label hosts such as localhost.
 */
function cookieDomainFor(domain: string, hostname: string): string | null {
  const prefix = `${domain}.`;
  if (!hostname.startsWith(prefix)) return null;
  const base = hostname.slice(prefix.length);
  return base.includes('.') ? base : null;
}

function write(value: string, maxAge: number): void {
  const parts = [
    `${REMEMBERED_ORGANISATION_COOKIE}=${encodeURIComponent(value)}`,
    'path=/',
    `max-age=${maxAge}`,
    'samesite=lax',
  ];
  const domain = value ? cookieDomainFor(value, window.location.hostname) : null;
  if (domain) parts.push(`domain=${domain}`);
  if (window.location.protocol === 'https:') parts.push('secure');
  document.cookie = parts.join('; ');
}

export function readRememberedOrganisation(): string | null {
  for (const part of document.cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === REMEMBERED_ORGANISATION_COOKIE) {
      const value = decodeURIComponent(rest.join('='));
      return /^[a-z0-9-]+$/i.test(value) ? value.toLowerCase() : null;
    }
  }
  return null;
}

export function rememberOrganisation(domain: string): void {
  write(domain.toLowerCase(), MAX_AGE_SECONDS);
}

export function forgetOrganisation(): void {
  const current = readRememberedOrganisation();
  write(current ?? '', 0);
  // Also clear a host-only cookie when the remembered one was set on the parent domain, and vice versa.
  document.cookie = `${REMEMBERED_ORGANISATION_COOKIE}=; path=/; max-age=0`;
}
