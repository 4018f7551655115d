import {
  DAY_MS,
  MAX_TOKENS_PER_USER,
  TOKENS_ADMINS_ONLY,
  TOKEN_MAX_EXPIRY_DAYS,
  can,
  type Token,
  type TokenInput,
} from '@vexil/core';
import type { Database } from '../../db/client';
import { AppError, BadRequestError, ForbiddenError, NotFoundError, ValidationError } from '../../errors';
import {
  ACCESS_TOKEN_PATTERN,
  accessTokenDisplayParts,
  hashToken,
  maskedAccessToken,
  newAccessToken,
  TOKEN_PREFIX,
} from '../../lib/tokens';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';
import { tokenAudit } from './token-audit';
import * as repo from './tokens.repository';
import type { TokenRecord } from './tokens.types';

/** Writing last-used on every request would turn reads into writes; a minute's precision is enough. */
const TOUCH_INTERVAL_MS = 60 * 1000;

export const TOKENS_TURNED_OFF = 'Access tokens are turned off on this server.';
export const TOO_MANY_TOKENS_MESSAGE = `You can hold at most ${MAX_TOKENS_PER_USER} access tokens. Delete one you no longer use first.`;

/**
 * A request authenticated by a personal access token acts as the token's owner. `accessTokenId` names
 * the token; `sessionId` carries the same id, since the principal type knows only sessions for now.
 */
export type TokenPrincipal = Principal & { accessTokenId: string };

function toToken(row: TokenRecord, key?: string): Token {
  return {
    id: row.id,
    name: row.name,
    key: key ?? maskedAccessToken({ prefix: row.tokenPrefix, lastFour: row.tokenLastFour }),
    createdDate: row.createdAt.toISOString(),
    expiresDate: row.expiresAt?.toISOString() ?? null,
    lastUsedDate: row.lastUsedAt?.toISOString() ?? null,
  };
}

export type TokensService = ReturnType<typeof createTokensService>;

/**
 * Personal access tokens (Admin › Access Tokens): a member's own credentials for scripts and tools,
 * sent as `Authorization: Bearer`. Only the SHA-256 of a token is stored; it is shown once, when
 * created. A token acts with its owner's permissions as they are at each request, and stops working
 * when deleted, when it expires, or when its owner is removed or deactivated. With the UI flag
 * `access-tokens` off, the routes are not found and no token is accepted.
 */
export function createTokensService(deps: {
  db: Database;
  audit: AuditService;
  enabled: boolean;
  now?: () => Date;
}) {
  const { db, audit, enabled } = deps;
  const now = deps.now ?? (() => new Date());

  function assertEnabled() {
    if (!enabled) throw new AppError(404, 'Not found', TOKENS_TURNED_OFF);
  }

  function expiryOf(input: TokenInput, at: Date): Date | null {
    if (input.expiresInDays !== undefined) return new Date(at.getTime() + input.expiresInDays * DAY_MS);
    if (input.expiresAt === undefined) return null;
    const expiresAt = new Date(input.expiresAt);
    if (expiresAt.getTime() <= at.getTime())
      throw new ValidationError('expiresAt', 'The expiry date must be in the future.');
    if (expiresAt.getTime() > at.getTime() + TOKEN_MAX_EXPIRY_DAYS * DAY_MS)
      throw new ValidationError(
        'expiresAt',
        `The expiry date must be at most ${TOKEN_MAX_EXPIRY_DAYS} days ahead.`,
      );
    return expiresAt;
  }

  return {
    /** GET /api/internal/v1/tokens: the caller's own tokens, masked, newest first. */
    async list(principal: Principal): Promise<Token[]> {
      assertEnabled();
      const rows = await repo.listOwn(db, principal.organisationId, principal.userId);
      return rows.map((row) => toToken(row));
    },

    /**
     * POST /api/internal/v1/tokens: organisation admins only (docs/product.md §6). The answer is the
     * only place the whole token ever appears.
     */
    async create(principal: Principal, input: TokenInput): Promise<Token> {
      assertEnabled();
      if (!can(principal, 'manage', { type: 'organisation' })) throw new ForbiddenError(TOKENS_ADMINS_ONLY);
      const at = now();
      const expiresAt = expiryOf(input, at);
      const token = newAccessToken();
      const parts = accessTokenDisplayParts(token);
      return db.transaction(async (tx) => {
        await repo.lockOwner(tx, principal.organisationId, principal.userId);
        if ((await repo.countOwn(tx, principal.organisationId, principal.userId)) >= MAX_TOKENS_PER_USER)
          throw new BadRequestError(TOO_MANY_TOKENS_MESSAGE);
        const row = await repo.insert(tx, {
          organisationId: principal.organisationId,
          userId: principal.userId,
          name: input.name,
          tokenHash: hashToken(token),
          tokenPrefix: parts.prefix,
          tokenLastFour: parts.lastFour,
          expiresAt,
          createdAt: at,
        });
        await audit.record(
          tx,
          principal,
          tokenAudit({
            kind: 'access_token.created',
            by: principal.email,
            token: { id: row.id, name: row.name, masked: maskedAccessToken(parts) },
            expiresAt,
          }),
        );
        return toToken(row, token);
      });
    },

    /**
     * DELETE /api/internal/v1/tokens/{id}: the caller's own token only; it stops working at once. Any
     * member may delete their own tokens, so that one who lost the admin role can still revoke them.
     */
    async remove(principal: Principal, id: string): Promise<void> {
      assertEnabled();
      await db.transaction(async (tx) => {
        const found = await repo.findOwn(tx, principal.organisationId, principal.userId, id);
        if (!found) throw new NotFoundError('access token', id);
        await repo.archive(tx, id, now());
        const masked = maskedAccessToken({ prefix: found.tokenPrefix, lastFour: found.tokenLastFour });
        await audit.record(
          tx,
          principal,
          tokenAudit({
            kind: 'access_token.deleted',
            by: principal.email,
            token: { id, name: found.name, masked },
          }),
        );
      });
    },

    /** Whether a bearer credential is shaped like a personal access token (and so is this module's to check). */
    isAccessToken(token: string): boolean {
      return token.startsWith(TOKEN_PREFIX.personalAccess);
    },

    /**
     * The principal a presented token acts as, or null when it is malformed, unknown, deleted or
     * expired, or its owner is no longer an activated, live member. The owner's authorities are read
     * at each request, so a change of role applies to their tokens at once. The look-up is by the
     * token's SHA-256 through the unique index: no secret is compared in code.
     */
    async resolve(token: string): Promise<TokenPrincipal | null> {
      if (!enabled || !ACCESS_TOKEN_PATTERN.test(token)) return null;
      const at = now();
      const row = await repo.findActive(db, hashToken(token), at);
      if (!row) return null;
      const today = new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
      if (!row.lastUsedAt || row.lastUsedAt < today) {
        // The first use of the (UTC) day is a sign-in for the audit log; of requests arriving
        // together, only the one that records the use writes the entry.
        if (await repo.touch(db, row.tokenId, at, today))
          await audit.record(
            db,
            { organisationId: row.organisationId, userId: row.userId },
            tokenAudit({
              kind: 'access_token.used',
              by: row.email,
              token: { id: row.tokenId, name: row.name },
            }),
          );
      } else if (at.getTime() - row.lastUsedAt.getTime() >= TOUCH_INTERVAL_MS)
        await repo.touch(db, row.tokenId, at, new Date(at.getTime() - TOUCH_INTERVAL_MS));
      return {
        kind: 'session',
        sessionId: row.tokenId,
        accessTokenId: row.tokenId,
        userId: row.userId,
        organisationId: row.organisationId,
        organisationDomain: row.organisationDomain,
        email: row.email,
        authorities: row.authorities,
      };
    },
  };
}
