import {
  SSO_ADMINS_ONLY,
  can,
  type PublicSso,
  type SsoConnection,
  type SsoConnectionInput,
  type SsoSettings,
} from '@vexil/core';
import type { Database } from '../../db/client';
import { lockOrganisation } from '../../db/locks';
import { BadRequestError, ForbiddenError, NotFoundError, ValidationError } from '../../errors';
import { SecretBoxError, type SecretBox } from '../../lib/secret-box';
import type { AuditService } from '../audit/audit.service';
import type { AuthService, Principal } from '../auth/auth.service';
import type { MembersService } from '../members/members.service';
import { OidcError, type OidcClient } from './oidc-client';
import { ssoAudit } from './sso-audit';
import { roleOf, secretContext, toConnection } from './sso-connection';
import { SSO_CALLBACK_PATH, createSsoSignIn, type SsoLogger } from './sso-sign-in';
import * as repo from './sso.repository';

export {
  SSO_ATTEMPT_MS,
  SSO_CALLBACK_PATH,
  SSO_START_PATH,
  type SsoCallback,
  type SsoLogger,
  type SsoStart,
} from './sso-sign-in';

export const HTTPS_ISSUER_MESSAGE = 'The issuer URL must start with https://.';
export const UNREADABLE_SECRET_MESSAGE =
  'The stored client secret can no longer be read (SECRETS_KEY has changed): enter it again.';

/** The refusal of an issuer whose discovery document cannot be read (PUT /api/v1/sso). */
export function unreadableIssuerMessage(detail: string): string {
  return `Could not read the OpenID Connect configuration of that issuer: ${detail}.`;
}

export type SsoService = ReturnType<typeof createSsoService>;

/**
 * Single sign-on with OpenID Connect (docs/adr/0014-single-sign-on.md): an organisation's admins
 * configure one connection to their identity provider; people of the allowed e-mail domains then
 * sign in through it (the round trip is `sso-sign-in.ts`), joining the organisation on their first visit.
 */
export function createSsoService(deps: {
  db: Database;
  audit: AuditService;
  auth: AuthService;
  members: MembersService;
  secrets: SecretBox;
  oidc: OidcClient;
  /** The dashboard's public address: the redirect URI is under it. */
  publicUrl: string;
  /** Organisations' sub-domains are `{domain}.{baseDomain}`. */
  baseDomain: string;
  /** Issuers over plain http are accepted only where private addresses are (OUTGOING_ALLOW_PRIVATE). */
  allowHttpIssuer: boolean;
  logger: SsoLogger;
  now?: () => Date;
}) {
  const { db, audit, secrets, oidc } = deps;
  const now = deps.now ?? (() => new Date());
  const publicUrl = deps.publicUrl.replace(/\/+$/, '');
  const redirectUri = `${publicUrl}${SSO_CALLBACK_PATH}`;
  const signIn = createSsoSignIn({ ...deps, publicUrl, now });

  function assertAdmin(principal: Principal) {
    if (!can(principal, 'manage', { type: 'organisation' })) throw new ForbiddenError(SSO_ADMINS_ONLY);
  }

  return {
    /** GET /api/v1/sso: the connection (null until configured) and the redirect URI to register. */
    async settings(principal: Principal): Promise<SsoSettings> {
      assertAdmin(principal);
      const row = await repo.findConnection(db, principal.organisationId);
      return { connection: row ? toConnection(row) : null, redirectUri };
    },

    /**
     * PUT /api/v1/sso: creates or replaces the connection, once the issuer's discovery document has
     * been read (through the outgoing-URL guard). The secret is kept when omitted and cleared by "".
     */
    async save(principal: Principal, input: SsoConnectionInput): Promise<SsoConnection> {
      assertAdmin(principal);
      const organisationId = principal.organisationId;
      if (!deps.allowHttpIssuer && !input.issuer.toLowerCase().startsWith('https://'))
        throw new ValidationError('issuer', HTTPS_ISSUER_MESSAGE);
      const stored = await repo.findConnection(db, organisationId);
      let keptSecret: string | null = null;
      if (input.clientSecret === undefined && stored?.clientSecretEncrypted) {
        try {
          keptSecret = secrets.decrypt(stored.clientSecretEncrypted, secretContext(organisationId));
        } catch (error) {
          if (!(error instanceof SecretBoxError)) throw error;
          throw new ValidationError('clientSecret', UNREADABLE_SECRET_MESSAGE);
        }
      }
      const secret = input.clientSecret === undefined ? keptSecret : input.clientSecret || null;
      try {
        await oidc.check({ issuer: input.issuer, clientId: input.clientId, clientSecret: secret });
      } catch (error) {
        if (!(error instanceof OidcError)) throw error;
        const message = unreadableIssuerMessage(error.detail);
        throw new BadRequestError(message, [{ field: 'issuer', message }]);
      }
      return db.transaction(async (tx) => {
        await lockOrganisation(tx, organisationId);
        const before = await repo.findConnection(tx, organisationId, { forUpdate: true });
        const clientSecretEncrypted =
          input.clientSecret === undefined
            ? (before?.clientSecretEncrypted ?? null)
            : input.clientSecret
              ? secrets.encrypt(input.clientSecret, secretContext(organisationId))
              : null;
        const row = await repo.upsertConnection(
          tx,
          organisationId,
          {
            displayName: input.displayName,
            issuer: input.issuer,
            clientId: input.clientId,
            clientSecretEncrypted,
            allowedDomains: [...new Set(input.allowedDomains)],
            defaultRole: input.defaultRole,
            required: input.required,
          },
          now(),
        );
        const secret =
          input.clientSecret === undefined
            ? null
            : input.clientSecret
              ? 'replaced'
              : before?.clientSecretEncrypted
                ? 'removed'
                : null;
        await audit.record(
          tx,
          principal,
          ssoAudit({
            kind: before ? 'sso.updated' : 'sso.created',
            by: principal.email,
            connection: {
              id: row.id,
              displayName: row.displayName,
              issuer: row.issuer,
              clientId: row.clientId,
              secretStored: Boolean(row.clientSecretEncrypted),
              allowedDomains: row.allowedDomains,
              defaultRole: roleOf(row.defaultRole),
              required: row.required,
            },
            secret,
          }),
        );
        return toConnection(row);
      });
    },

    /** DELETE /api/v1/sso: members sign in with passwords again; sign-ins under way stop working. */
    async remove(principal: Principal): Promise<void> {
      assertAdmin(principal);
      const organisationId = principal.organisationId;
      await db.transaction(async (tx) => {
        await lockOrganisation(tx, organisationId);
        const before = await repo.findConnection(tx, organisationId, { forUpdate: true });
        if (!before || !(await repo.deleteConnection(tx, organisationId)))
          throw new NotFoundError('single sign-on connection');
        await repo.deleteAttempts(tx, organisationId);
        await audit.record(
          tx,
          principal,
          ssoAudit({
            kind: 'sso.removed',
            by: principal.email,
            connection: { id: before.id, displayName: before.displayName },
          }),
        );
      });
    },

    /**
     * Encrypts the stored client secrets with the current key when a previous one stored them (a
     * SECRETS_KEY rotation, docs/adr/0017-integrations-and-outgoing-requests.md); how many were.
     */
    async reencryptSecrets(): Promise<number> {
      let changed = 0;
      for (const row of await repo.allClientSecrets(db)) {
        const next = row.clientSecretEncrypted
          ? secrets.reencrypt(row.clientSecretEncrypted, secretContext(row.organisationId))
          : null;
        if (next) {
          await repo.setClientSecret(db, row.organisationId, next);
          changed++;
        }
      }
      return changed;
    },

    /** What the sign-in page shows of the organisation's single sign-on (GET /api/v1/public/context). */
    async publicSso(organisationId: string): Promise<PublicSso | null> {
      const row = await repo.findConnection(db, organisationId);
      return row ? { displayName: row.displayName, required: row.required } : null;
    },

    /** GET /api/v1/sso/start and GET /api/v1/sso/callback: the sign-in round trip (sso-sign-in.ts). */
    ...signIn,
  };
}
