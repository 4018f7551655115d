import {
  DAY_MS,
  INVITATIONS_SENT_MESSAGE,
  INVITATION_LIFETIME_DAYS,
  INVITED_AUTHORITY,
  displayName,
  invitationLink,
  type Invitation,
  type InvitesInput,
  type InvitesResult,
} from '@vexil/core';
import type { Database } from '../../db/client';
import { lockOrganisation } from '../../db/locks';
import { ConflictError, ValidationError } from '../../errors';
import { createAddressLimit } from '../../lib/mail-limits';
import { hashToken, newSecretToken } from '../../lib/tokens';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';
import type { BillingService } from '../billing/billing.service';
import type { MailQueue } from '../mail/mail-queue';
import * as identities from './identities.repository';
import { invitationMail } from './invitation-mail';
import { assertTeamAdmin, stillAdmin } from './member-access';
import { memberAudit } from './member-audit';
import * as repo from './members.repository';

/** Activation keys: 256 random bits after a prefix that says what they are. */
const INVITATION_KEY_PREFIX = 'vxi_';
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

/** Where invitations report what an operator should know (a mail server failing); never addresses or keys. */
export type MembersLogger = { warn: (details: Record<string, unknown>, message: string) => void };

/** How long an invitation request waits, in all, for the first attempts of its e-mails. */
const INLINE_BUDGET_MS = 20_000;

/** One invitation made in the transaction, with its queued e-mail (null: mail is not configured). */
type Prepared = {
  userId: string;
  email: string;
  key: string;
  resent: boolean;
  jobId: string | null;
};

/** What an invitation e-mail's job checks before it is sent: the invitation is still this one, open. */
type InvitationRef = { organisationId: string; userId: string; tokenHash: string };

function mailMessage(result: { sent: number; failed: number; reason: string | null; configured: boolean }) {
  if (!result.configured)
    return 'Mail is not configured on this server (SMTP_URL), so no invitation was e-mailed. Copy each link below and send it to the person it is for.';
  if (result.failed === 0) return INVITATIONS_SENT_MESSAGE;
  const total = result.sent + result.failed;
  return `${result.failed} of ${total} invitation e-mail(s) could not be sent: ${result.reason ?? 'the mail server failed'}. The invitations are saved: invite the same address again to resend, or copy the links below.`;
}

/**
 * Invite Users (docs/product.md §2): pending members with single-use links, e-mailed once stored.
 */
export function createMemberInvitations(deps: {
  db: Database;
  audit: AuditService;
  billing: BillingService;
  /** The invitation e-mails' queue (docs/adr/0023-durable-queue.md). */
  mail: MailQueue;
  /** The dashboard's address, which invitation links start with. */
  publicUrl: string;
  now: () => Date;
}) {
  const { db, audit, billing, mail, publicUrl, now } = deps;
  const perAddress = createAddressLimit({
    db,
    now,
    keyPrefix: 'invitation-mails',
    points: INVITATIONS_PER_ADDRESS_PER_HOUR,
    durationSeconds: 60 * 60,
  });

  // A queued invitation e-mail is sent only while its invitation is open and not replaced since.
  mail.whileWanted('invitation', (executor, ref) => {
    const { organisationId, userId, tokenHash } = ref as InvitationRef;
    return repo.invitationOpen(executor, organisationId, userId, tokenHash);
  });

  /**
   * The first attempt of each invitation's queued e-mail, one by one, within the request: the answer
   * says which went out. A failure is reported, never thrown; the queue retries one the mail server
   * may take later (no answer, a 4xx reply), and not one it refused (5xx).
   */
  async function send(prepared: Prepared[], expiresAt: Date): Promise<InvitesResult> {
    const invitations: Invitation[] = [];
    let sent = 0;
    let failed = 0;
    let reason: string | null = null;
    const deadline = Date.now() + INLINE_BUDGET_MS;
    for (const invitation of prepared) {
      const link = invitationLink(publicUrl, invitation.key);
      let state: Invitation['mail'] = 'not_configured';
      if (mail.configured) {
        const attempt = invitation.jobId
          ? await mail.sendNow(invitation.jobId, deadline - Date.now())
          : { sent: false as const, reason: 'the mail server failed' };
        if (attempt.sent) {
          state = 'sent';
          sent += 1;
        } else {
          state = 'failed';
          failed += 1;
          reason ??= attempt.reason;
        }
      }
      invitations.push({
        id: invitation.userId,
        email: invitation.email,
        resent: invitation.resent,
        mail: state,
        link: state === 'sent' ? null : link,
        expiresDate: expiresAt.toISOString(),
      });
    }
    const state: InvitesResult['mail'] = !mail.configured ? 'not_configured' : failed ? 'failed' : 'sent';
    return {
      mail: state,
      message: mailMessage({ sent, failed, reason, configured: mail.configured }),
      invitations,
    };
  }

  return {
    /**
     * POST /api/v1/invites: one pending member per address, each with a single-use link that
     * expires after 7 days (only its key's SHA-256 is stored). Inviting a pending address again
     * replaces its link; an active member's address is refused; pending invitations take seats.
     * Each e-mail is queued with its invitation and its first attempt made once they are stored;
     * without a mail server, or when that attempt fails, the answer carries the links for the admin
     * to pass on.
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

      const prepared = await db.transaction(async (tx) => {
        await lockOrganisation(tx, organisationId);
        const me = await stillAdmin(tx, principal);
        const inviter = displayName(me);
        const organisation = (await repo.organisationName(tx, organisationId)) ?? '';
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
          await audit.record(
            tx,
            principal,
            memberAudit({
              kind: 'member.invited',
              by: principal.email,
              member: { id: userId, firstName, lastName, email: row.email },
              role: INVITED_AUTHORITY,
              resent,
              expiresInDays: INVITATION_LIFETIME_DAYS,
            }),
          );
          const invitee = { email: row.email, firstName, lastName };
          // Without a mail server nothing is queued: the answer carries the link to copy.
          const jobId = !mail.configured
            ? null
            : await mail.enqueue(tx, {
                purpose: 'invitation',
                organisationId,
                message: invitationMail({
                  invitee,
                  inviter,
                  organisation,
                  link: invitationLink(publicUrl, key),
                }),
                notAfter: expiresAt,
                ref: { organisationId, userId, tokenHash: hashToken(key) } satisfies InvitationRef,
                firstAttemptInline: true,
              });
          made.push({ userId, email: row.email, key, resent, jobId });
        }
        return made;
      });
      return send(prepared, expiresAt);
    },
  };
}
