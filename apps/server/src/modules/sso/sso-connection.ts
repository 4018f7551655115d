import { ASSIGNABLE_AUTHORITIES, AUTHORITIES, type SsoConnection } from '@vexil/core';
import type { SsoConnectionRecord } from './sso.types';

const ASSIGNABLE: ReadonlySet<string> = new Set(ASSIGNABLE_AUTHORITIES);
type AssignableAuthority = (typeof ASSIGNABLE_AUTHORITIES)[number];

/** The role new members get; a stored role no longer assignable reads as read-only. */
export function roleOf(stored: string): AssignableAuthority {
  return ASSIGNABLE.has(stored)
    ? (stored as AssignableAuthority)
    : AUTHORITIES.ROLE_ORGANISATION_READONLY_USER;
}

/** What the client secret is encrypted for: the organisation it belongs to. */
export const secretContext = (organisationId: string) => `sso.client_secret:${organisationId}`;

/** The connection as the API shows it: whether a secret is stored, never the secret. */
export function toConnection(row: SsoConnectionRecord): SsoConnection {
  return {
    displayName: row.displayName,
    issuer: row.issuer,
    clientId: row.clientId,
    hasClientSecret: row.clientSecretEncrypted !== null,
    allowedDomains: row.allowedDomains,
    defaultRole: roleOf(row.defaultRole),
    required: row.required,
    lastModifiedDate: row.updatedAt.toISOString(),
  };
}
