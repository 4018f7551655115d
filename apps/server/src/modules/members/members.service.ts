import {
  ASSIGNABLE_AUTHORITIES,
  AUTHORITY_NAMES,
  LAST_ADMIN_MESSAGE,
  OWN_ROLE_MESSAGE,
  PENDING_EDIT_MESSAGE,
  REMOVE_SELF_MESSAGE,
  isOrganisationAdmin,
  primaryAuthority,
  type Authority,
  type TeamMember,
  type UserUpdateInput,
} from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { lockOrganisation } from '../../db/locks';
import { BadRequestError, ConflictError, NotFoundError, ValidationError } from '../../errors';
import type { AuditService } from '../audit/audit.service';
import type { AuthService, Principal } from '../auth/auth.service';
import type { BillingService } from '../billing/billing.service';
import type { MailQueue } from '../mail/mail-queue';
import * as identities from './identities.repository';
import { assertTeamAdmin, stillAdmin } from './member-access';
import { memberAudit } from './member-audit';
import { createMemberInvitations } from './member-invitations';
import * as repo from './members.repository';
import { createSsoMembers } from './sso-members';
import type { MemberRecord } from './members.types';

function isAuthority(name: string): name is Authority {
  return (AUTHORITY_NAMES as readonly string[]).includes(name);
}

const ASSIGNABLE: ReadonlySet<string> = new Set(ASSIGNABLE_AUTHORITIES);

function toTeamMember(record: MemberRecord, invitationExpires: Date | null): TeamMember {
  const authorities = record.authorities.filter(isAuthority);
  return {
    id: record.id,
    email: record.email,
    firstName: record.firstName,
    lastName: record.lastName,
    fullName: `${record.firstName} ${record.lastName}`.trim(),
    authority: primaryAuthority(authorities),
    authorities,
    activated: record.activated,
    hash: '',
    settings: { introReadDate: record.settings.introReadDate ?? null },
    login: record.email,
    userHash: '',
    langKey: record.langKey,
    activatedDate: record.activatedDate?.toISOString() ?? null,
    invitationExpiresDate: record.activated ? null : (invitationExpires?.toISOString() ?? null),
  };
}

export type MembersService = ReturnType<typeof createMembersService>;
export type { SsoPerson, SsoRefusal } from './sso-members';
export { tooManyInvitationsMessage, type MembersLogger } from './member-invitations';

/**
 * Team Management (docs/product.md §2): the members and pending invitations of an organisation, the
 * Update User and Invite Users modals' writes, and a member's "Sign out everywhere". Organisation
 * admins only; every write is audited; the organisation always keeps an organisation admin.
 */
export function createMembersService(deps: {
  db: Database;
  audit: AuditService;
  auth: AuthService;
  billing: BillingService;
  /** The e-mails' queue: invitations are queued with their change. */
  mail: MailQueue;
  /** The dashboard's address, which invitation links start with. */
  publicUrl: string;
  /**
   * What a member's removal asks of the modules above: the features they maintained let go of them
   * in the removal's transaction, with a version each (the features module's port).
   */
  releaseMaintainer: (tx: Executor, principal: Principal, userId: string) => Promise<void>;
  now?: () => Date;
}) {
  const { db, audit, auth, billing, mail, publicUrl } = deps;
  const now = deps.now ?? (() => new Date());
  const ssoMembers = createSsoMembers({ db, audit, billing, now });
  const invitations = createMemberInvitations({ db, audit, billing, mail, publicUrl, now });

  /** Refuses a change that would leave the organisation without an active organisation admin. */
  async function assertAdminRemains(tx: Executor, organisationId: string, target: MemberRecord) {
    if (!target.activated || !isOrganisationAdmin(target)) return;
    if ((await repo.countAdmins(tx, organisationId)) <= 1) throw new ConflictError(LAST_ADMIN_MESSAGE);
  }

  return {
    /** GET /api/v1/users: live members and pending invitations. */
    async list(principal: Principal): Promise<TeamMember[]> {
      assertTeamAdmin(principal);
      const rows = await repo.listMembers(db, principal.organisationId);
      const expiries = await repo.invitationExpiries(
        db,
        principal.organisationId,
        rows.filter((row) => !row.activated).map((row) => row.id),
      );
      return rows.map((row) => toTeamMember(row, expiries.get(row.id) ?? null));
    },

    /**
     * PUT /api/v1/users: a member's names and role. Only activated members are edited; nobody
     * changes their own role; the last organisation admin stays one. A demotion takes effect on the
     * member's next request: permissions are read from the member's record on every request.
     */
    async update(principal: Principal, input: UserUpdateInput): Promise<TeamMember> {
      assertTeamAdmin(principal);
      const organisationId = principal.organisationId;
      const { updated, access } = await db.transaction(async (tx) => {
        await lockOrganisation(tx, organisationId);
        await stillAdmin(tx, principal);
        const before = await repo.findMember(tx, organisationId, input.id, { forUpdate: true });
        if (!before || before.archived) throw new NotFoundError('user', input.id);
        if (!before.activated) throw new BadRequestError(PENDING_EDIT_MESSAGE);
        const assigned = before.authorities.find((authority) => ASSIGNABLE.has(authority)) ?? null;
        const roleChanges = assigned !== input.authority;
        if (roleChanges && before.id === principal.userId)
          throw new ValidationError('authority', OWN_ROLE_MESSAGE);
        // Authorities the dashboard does not grant (ROLE_ADMIN, the operator's) are kept.
        const authorities = [...before.authorities.filter((a) => !ASSIGNABLE.has(a)), input.authority];
        if (!isOrganisationAdmin({ authorities })) await assertAdminRemains(tx, organisationId, before);
        const after = await repo.updateMember(tx, organisationId, before.id, {
          firstName: input.firstName,
          lastName: input.lastName,
          authorities,
          at: now(),
        });
        const nameBefore = `${before.firstName} ${before.lastName}`.trim();
        const nameAfter = `${after.firstName} ${after.lastName}`.trim();
        const renamed = before.firstName !== after.firstName || before.lastName !== after.lastName;
        await audit.record(
          tx,
          principal,
          memberAudit({
            kind: 'member.updated',
            by: principal.email,
            member: after,
            name: renamed ? { from: nameBefore, to: nameAfter } : null,
            role: roleChanges
              ? { from: primaryAuthority(before.authorities), to: primaryAuthority(authorities) }
              : null,
          }),
        );
        // Their open dashboards are checked again with the role they hold now.
        const access = await auth.accessChangedWithin(tx, organisationId, after.id);
        return { updated: toTeamMember(after, null), access };
      });
      auth.accessChanged(access);
      return updated;
    },

    /**
     * DELETE /api/v1/users/{id}: removes a member, or cancels a pending invitation. Their sessions
     * end in the same transaction and their access tokens go with them, so their next request is
     * refused with 401. A removed member's e-mail and single sign-on identities are kept as a removal,
     * which keeps single sign-on from letting them in again until they are invited again.
     */
    async remove(principal: Principal, id: string): Promise<void> {
      assertTeamAdmin(principal);
      const organisationId = principal.organisationId;
      const access = await db.transaction(async (tx) => {
        await lockOrganisation(tx, organisationId);
        await stillAdmin(tx, principal);
        const member = await repo.findMember(tx, organisationId, id, { forUpdate: true });
        if (!member || member.archived) throw new NotFoundError('user', id);
        if (member.id === principal.userId) throw new BadRequestError(REMOVE_SELF_MESSAGE);
        await assertAdminRemains(tx, organisationId, member);
        // Ended explicitly, not left to the row's cascade: the sessions end with this change whatever
        // becomes of the row.
        await auth.revokeAllSessions(tx, organisationId, member.id);
        // A removed member stays out: single sign-on does not let them join again until invited.
        if (member.activated)
          await identities.insertRemoval(
            tx,
            organisationId,
            member.email,
            await identities.identitiesOf(tx, organisationId, member.id),
            now(),
          );
        await deps.releaseMaintainer(tx, principal, member.id);
        await repo.deleteMember(tx, organisationId, member.id);
        await audit.record(
          tx,
          principal,
          memberAudit(
            member.activated
              ? {
                  kind: 'member.removed',
                  by: principal.email,
                  member,
                  role: primaryAuthority(member.authorities),
                }
              : { kind: 'member.invitation_cancelled', by: principal.email, member },
          ),
        );
        // Their open dashboards close once the removal has committed.
        return auth.accessChangedWithin(tx, organisationId, id);
      });
      auth.accessChanged(access);
    },

    invite: invitations.invite,

    /*
     * The members table's writes other modules make in their own transactions
     * (docs/adr/0019-modules-own-their-tables.md): sign-up, invited sign-up, password reset and the
     * account's settings.
     */

    /** Sign-up: the new organisation's first member, an activated organisation admin. */
    createAdmin(
      tx: Executor,
      organisationId: string,
      account: { email: string; firstName: string; lastName: string; passwordHash: string },
      at: Date,
    ): Promise<{ id: string }> {
      return repo.insertAdmin(tx, { organisationId, ...account, at });
    },

    /** Invited sign-up: the pending member becomes active with the names and password they chose. */
    activateInvited(
      tx: Executor,
      owner: { organisationId: string; userId: string },
      invitationId: string,
      account: { firstName: string; lastName: string; passwordHash: string },
      at: Date,
    ): Promise<void> {
      return repo.activateInvited(tx, owner, invitationId, { ...account, at });
    },

    /** Password reset: the member's new password. */
    setPassword(
      tx: Executor,
      owner: { organisationId: string; userId: string },
      passwordHash: string,
      at: Date,
    ): Promise<void> {
      return repo.setPassword(tx, owner, passwordHash, at);
    },

    /** The member closed the welcome walkthrough: their settings after, or null for no such member. */
    markIntroRead(
      executor: Executor,
      organisationId: string,
      userId: string,
    ): Promise<MemberRecord['settings'] | null> {
      return repo.markIntroRead(executor, organisationId, userId, now());
    },

    /** Single sign-on (modules/sso): the member an identity provider's person signs in as (sso-members.ts). */
    memberForSingleSignOn: ssoMembers.memberForSingleSignOn,

    /** POST /api/v1/account/sessions/revoke-all: "Sign out everywhere" ends every session of the caller. */
    async signOutEverywhere(principal: Principal): Promise<void> {
      const access = await db.transaction(async (tx) => {
        const ended = await auth.revokeAllSessions(tx, principal.organisationId, principal.userId);
        await audit.record(
          tx,
          principal,
          memberAudit({
            kind: 'member.signed_out_everywhere',
            by: principal.email,
            userId: principal.userId,
            sessions: ended,
          }),
        );
        return auth.accessChangedWithin(tx, principal.organisationId, principal.userId);
      });
      auth.accessChanged(access);
    },
  };
}
