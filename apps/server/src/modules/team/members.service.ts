import {
  ASSIGNABLE_AUTHORITIES,
  AUTHORITY_LABELS,
  AUTHORITY_NAMES,
  INVITATIONS_SENT_MESSAGE,
  INVITATION_LIFETIME_DAYS,
  INVITED_AUTHORITY,
  LAST_ADMIN_MESSAGE,
  OWN_ROLE_MESSAGE,
  PENDING_EDIT_MESSAGE,
  REMOVE_SELF_MESSAGE,
  TEAM_ADMIN_ONLY,
  can,
  displayName,
  escapeMarkdown,
  invitationLink,
  isOrganisationAdmin,
  primaryAuthority,
  type Authority,
  type Invitation,
  type InvitesInput,
  type InvitesResult,
  type TeamMember,
  type UserUpdateInput,
} from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { lockOrganisation } from '../../db/locks';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../errors';
import { createAddressLimit } from '../../lib/mail-limits';
import { MailDeliveryError, type Mailer } from '../../lib/mailer';
import { hashToken, newSecretToken } from '../../lib/tokens';
import type { AuditService } from '../audit/audit.service';
import type { AuthService, Principal } from '../auth/auth.service';
import type { BillingService } from '../billing/billing.service';
import * as identities from './identities.repository';
import { invitationMail } from './invitation-mail';
import { describeMember } from './member-text';
import * as repo from './members.repository';
import { createSsoMembers } from './sso-members';
import type { MemberRecord } from './team.types';

/** Activation keys: 256 random bits after a prefix that says what they are. */
const INVITATION_KEY_PREFIX = 'vxi_';
const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * Invitation e-mails one organisation may send one address in an hour: an admin resending a few
 * times passes, an organisation made to flood someone's inbox does not (docs/product.md §8). Making
 * organisations to go on is itself limited per client address.
 */
const INVITATIONS_PER_ADDRESS_PER_HOUR = 5;

/** The refusal of an invitation to an address that was sent too many lately. */
export function tooManyInvitationsMessage(email: string): string {
  return `Too many invitations were sent to ${email} lately. Please wait and try again later.`;
}

/** Where the service reports what an operator should know (a mail server failing); never addresses or keys. */
export type MembersLogger = { warn: (details: Record<string, unknown>, message: string) => void };

function isAuthority(name: string): name is Authority {
  return (AUTHORITY_NAMES as readonly string[]).includes(name);
}

const ASSIGNABLE: ReadonlySet<string> = new Set(ASSIGNABLE_AUTHORITIES);

function roleLabel(authorities: readonly string[]): string {
  const primary = primaryAuthority(authorities);
  return primary ? AUTHORITY_LABELS[primary] : 'no role';
}

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

/** One invitation made in the transaction, to be e-mailed once it has committed. */
type Prepared = {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  key: string;
  resent: boolean;
};

function mailMessage(result: { sent: number; failed: number; reason: string | null; configured: boolean }) {
  if (!result.configured)
    return 'Mail is not configured on this server (SMTP_URL), so no invitation was e-mailed. Copy each link below and send it to the person it is for.';
  if (result.failed === 0) return INVITATIONS_SENT_MESSAGE;
  const total = result.sent + result.failed;
  return `${result.failed} of ${total} invitation e-mail(s) could not be sent: ${result.reason ?? 'the mail server failed'}. The invitations are saved: invite the same address again to resend, or copy the links below.`;
}

export type MembersService = ReturnType<typeof createMembersService>;
export type { SsoPerson, SsoRefusal } from './sso-members';

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
  mailer: Mailer;
  /** The dashboard's address, which invitation links start with. */
  publicUrl: string;
  logger: MembersLogger;
  now?: () => Date;
}) {
  const { db, audit, auth, billing, mailer, publicUrl, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const perAddress = createAddressLimit({
    db,
    now,
    keyPrefix: 'invitation-mails',
    points: INVITATIONS_PER_ADDRESS_PER_HOUR,
    durationSeconds: 60 * 60,
  });

  const ssoMembers = createSsoMembers({ db, audit, billing, now });

  function assertTeamAdmin(principal: Principal): void {
    if (!can(principal, 'manage', { type: 'organisation' })) throw new ForbiddenError(TEAM_ADMIN_ONLY);
  }

  /**
   * Inside a write, after the organisation is locked: the caller is still an active organisation
   * admin, which a change committed since the request began (their own demotion) may have ended.
   */
  async function stillAdmin(tx: Executor, principal: Principal): Promise<MemberRecord> {
    const me = await repo.findMember(tx, principal.organisationId, principal.userId);
    if (!me || !me.activated || me.archived || !isOrganisationAdmin(me))
      throw new ForbiddenError(TEAM_ADMIN_ONLY);
    return me;
  }

  /** Refuses a change that would leave the organisation without an active organisation admin. */
  async function assertAdminRemains(tx: Executor, organisationId: string, target: MemberRecord) {
    if (!target.activated || !isOrganisationAdmin(target)) return;
    if ((await repo.countAdmins(tx, organisationId)) <= 1) throw new ConflictError(LAST_ADMIN_MESSAGE);
  }

  /** The invitations, e-mailed one by one once stored; a failure is reported, never thrown. */
  async function send(
    prepared: Prepared[],
    context: { inviter: string; organisation: string; expiresAt: Date },
  ): Promise<InvitesResult> {
    const invitations: Invitation[] = [];
    let sent = 0;
    let failed = 0;
    let reason: string | null = null;
    for (const invitation of prepared) {
      const link = invitationLink(publicUrl, invitation.key);
      let mail: Invitation['mail'] = 'not_configured';
      if (mailer.configured) {
        try {
          await mailer.send(
            invitationMail({
              invitee: invitation,
              inviter: context.inviter,
              organisation: context.organisation,
              link,
            }),
          );
          mail = 'sent';
          sent += 1;
        } catch (error) {
          mail = 'failed';
          failed += 1;
          const delivery = error instanceof MailDeliveryError ? error : null;
          reason ??= delivery?.reason ?? 'the mail server failed';
          // The reason and codes only: the server's reply can quote the address, and the link is a key.
          logger.warn(
            { mail: delivery?.diagnostics ?? { code: null }, reason: delivery?.reason ?? null },
            'An invitation e-mail could not be sent',
          );
        }
      }
      invitations.push({
        id: invitation.userId,
        email: invitation.email,
        resent: invitation.resent,
        mail,
        link: mail === 'sent' ? null : link,
        expiresDate: context.expiresAt.toISOString(),
      });
    }
    const state: InvitesResult['mail'] = !mailer.configured ? 'not_configured' : failed ? 'failed' : 'sent';
    return {
      mail: state,
      message: mailMessage({ sent, failed, reason, configured: mailer.configured }),
      invitations,
    };
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
      const updated = await db.transaction(async (tx) => {
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
        const changes: string[] = [];
        const data: Record<string, unknown> = {};
        const nameBefore = `${before.firstName} ${before.lastName}`.trim();
        const nameAfter = `${after.firstName} ${after.lastName}`.trim();
        if (before.firstName !== after.firstName || before.lastName !== after.lastName) {
          changes.push(
            `renamed them from **${escapeMarkdown(nameBefore || '(no name)')}** to **${escapeMarkdown(nameAfter)}**`,
          );
          data['name'] = { from: nameBefore, to: nameAfter };
        }
        if (roleChanges) {
          changes.push(
            `changed their role from **${roleLabel(before.authorities)}** to **${roleLabel(authorities)}**`,
          );
          data['role'] = { from: primaryAuthority(before.authorities), to: primaryAuthority(authorities) };
        }
        await audit.record(tx, principal, {
          action: 'update',
          resourceType: 'user',
          resourceId: after.id,
          title: `Member ${displayName(after)} updated`,
          description: changes.length
            ? `${escapeMarkdown(principal.email)} updated ${describeMember(after)}: ${changes.join('; ')}.`
            : `${escapeMarkdown(principal.email)} saved ${describeMember(after)} without changes.`,
          data,
        });
        return toTeamMember(after, null);
      });
      // Their open dashboards are checked again with the role they hold now.
      auth.accessChanged(organisationId, updated.id);
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
      await db.transaction(async (tx) => {
        await lockOrganisation(tx, organisationId);
        await stillAdmin(tx, principal);
        const member = await repo.findMember(tx, organisationId, id, { forUpdate: true });
        if (!member || member.archived) throw new NotFoundError('user', id);
        if (member.id === principal.userId) throw new BadRequestError(REMOVE_SELF_MESSAGE);
        await assertAdminRemains(tx, organisationId, member);
        // Ended explicitly, not left to the row's cascade: the sessions end with this change whatever
        // becomes of the row.
        await auth.revokeAllSessions(organisationId, member.id, tx);
        // A removed member stays out: single sign-on does not let them join again until invited.
        if (member.activated)
          await identities.insertRemoval(
            tx,
            organisationId,
            member.email,
            await identities.identitiesOf(tx, organisationId, member.id),
            now(),
          );
        await repo.deleteMember(tx, organisationId, member.id);
        await audit.record(
          tx,
          principal,
          member.activated
            ? {
                action: 'delete',
                resourceType: 'user',
                resourceId: member.id,
                title: `${displayName(member)} removed from the team`,
                description: `${escapeMarkdown(principal.email)} removed ${describeMember(member)}, who was a **${roleLabel(member.authorities)}**. Their sessions and access tokens no longer work, and single sign-on does not let them back in unless they are invited again.`,
              }
            : {
                action: 'delete',
                resourceType: 'user',
                resourceId: member.id,
                title: `Invitation to ${member.email} cancelled`,
                description: `${escapeMarkdown(principal.email)} cancelled the invitation of ${describeMember(member)}. Its link no longer works.`,
              },
        );
      });
      // Their open dashboards close now that the removal has committed.
      auth.accessChanged(organisationId, id);
    },

    /**
     * POST /api/v1/invites: one pending member per address, each with a single-use link that
     * expires after 7 days (only its key's SHA-256 is stored). Inviting a pending address again
     * replaces its link; an active member's address is refused; pending invitations take seats.
     * The e-mails go out once the invitations are stored; without a mail server, or when sending
     * fails, the answer carries the links for the admin to pass on.
     */
    async invite(principal: Principal, input: InvitesInput): Promise<InvitesResult> {
      assertTeamAdmin(principal);
      const organisationId = principal.organisationId;
      const rows = input.map((row, index) => ({ ...row, index, email: row.email.toLowerCase() }));
      const seen = new Set<string>();
      for (const row of rows) {
        if (seen.has(row.email))
          throw new ValidationError(`${row.index}.email`, `${row.email} is listed twice.`);
        seen.add(row.email);
      }
      await perAddress.takeAll(
        rows.map((row) => JSON.stringify([organisationId, row.email])),
        (index) => tooManyInvitationsMessage(rows[index]!.email),
      );
      const at = now();
      const expiresAt = new Date(at.getTime() + INVITATION_LIFETIME_DAYS * DAY_MS);

      const { prepared, inviter, organisation } = await db.transaction(async (tx) => {
        await lockOrganisation(tx, organisationId);
        const me = await stillAdmin(tx, principal);
        const existing = new Map(
          (
            await repo.findByEmails(
              tx,
              organisationId,
              rows.map((row) => row.email),
            )
          ).map((member) => [member.email, member]),
        );
        for (const row of rows) {
          const member = existing.get(row.email);
          if (member?.activated && !member.archived)
            throw new ConflictError(
              `${row.email} is already a member of this organisation.`,
              `${row.index}.email`,
            );
        }
        const newSeats = rows.filter((row) => {
          const member = existing.get(row.email);
          return !member || member.archived;
        }).length;
        if (newSeats > 0)
          await billing.assertWithinLimit(tx, organisationId, 'maxOrganisationUsers', newSeats);
        // Inviting someone removed lets them in again, by single sign-on too.
        await identities.deleteRemovals(
          tx,
          organisationId,
          rows.map((row) => row.email),
        );

        const made: Prepared[] = [];
        for (const row of rows) {
          const member = existing.get(row.email);
          const resent = member !== undefined && !member.archived;
          const firstName = row.firstName || (resent ? member.firstName : '');
          const lastName = row.lastName || (resent ? member.lastName : '');
          let userId: string;
          if (member) {
            userId = member.id;
            await repo.resetPendingMember(tx, organisationId, userId, {
              firstName,
              lastName,
              authorities: [INVITED_AUTHORITY],
              at,
            });
          } else {
            userId = await repo.insertMember(tx, {
              activated: false,
              organisationId,
              email: row.email,
              firstName,
              lastName,
              authorities: [INVITED_AUTHORITY],
              at,
            });
          }
          const key = newSecretToken(INVITATION_KEY_PREFIX);
          await repo.replaceInvitation(tx, {
            organisationId,
            userId,
            email: row.email,
            firstName,
            lastName,
            invitedById: principal.userId,
            activationTokenHash: hashToken(key),
            expiresAt,
            createdAt: at,
          });
          const who = describeMember({ firstName, lastName, email: row.email });
          await audit.record(tx, principal, {
            action: 'create',
            resourceType: 'user',
            resourceId: userId,
            title: resent ? `Invitation to ${row.email} sent again` : `${row.email} invited`,
            description: resent
              ? `${escapeMarkdown(principal.email)} invited ${who} again; the earlier invitation link no longer works. The new one expires in ${INVITATION_LIFETIME_DAYS} days.`
              : `${escapeMarkdown(principal.email)} invited ${who} to join as **${AUTHORITY_LABELS[INVITED_AUTHORITY]}**. The invitation expires in ${INVITATION_LIFETIME_DAYS} days.`,
          });
          made.push({ userId, email: row.email, firstName, lastName, key, resent });
        }
        return {
          prepared: made,
          inviter: displayName(me),
          organisation: (await repo.organisationName(tx, organisationId)) ?? '',
        };
      });
      return send(prepared, { inviter, organisation, expiresAt });
    },

    /** Single sign-on (modules/sso): the member an identity provider's person signs in as (sso-members.ts). */
    memberForSingleSignOn: ssoMembers.memberForSingleSignOn,

    /** POST /api/v1/account/sessions/revoke-all: "Sign out everywhere" ends every session of the caller. */
    async signOutEverywhere(principal: Principal): Promise<void> {
      await db.transaction(async (tx) => {
        const ended = await auth.revokeAllSessions(principal.organisationId, principal.userId, tx);
        await audit.record(tx, principal, {
          action: 'other',
          resourceType: 'user',
          resourceId: principal.userId,
          title: `${principal.email} signed out everywhere`,
          description: `${escapeMarkdown(principal.email)} ended all of their sessions (${ended}).`,
        });
      });
      auth.accessChanged(principal.organisationId, principal.userId);
    },
  };
}
