import {
  RESET_FINISH_FAILED_MESSAGE,
  RESET_PASSWORD_LIFETIME_MINUTES,
  resetPasswordLink,
  type ResetPasswordFinishInput,
  type ResetPasswordFinishResponse,
} from '@vexil/core';
import type { Database, Transaction } from '../../db/client';
import { BadRequestError } from '../../errors';
import { hashPassword, type HashCost } from '../../lib/passwords';
import { newSecretToken } from '../../lib/tokens';
import type { AuditService } from '../audit/audit.service';
import type { AuthService } from '../auth/auth.service';
import type { MembersService } from '../members/members.service';
import { createAddressLimit } from '../../lib/mail-limits';
import type { MailQueue } from '../mail/mail-queue';
import type { JobQueue } from '../queue/queue.service';
import { ACCOUNT_JOB_RETRY_DELAYS_MS } from './find-organisations.service';
import { signupAudit } from './signup-audit';
import { resetPasswordMail } from './signup-mails';
import * as repo from './signup.repository';

/** Reset keys: 256 random bits after a prefix that says what they are. */
const RESET_KEY_PREFIX = 'vxr_';
const MINUTE_MS = 60 * 1000;
/** Reset e-mails one address of one organisation may be sent per hour. */
const RESETS_PER_ADDRESS_PER_HOUR = 5;

/** The job that issues a reset key to an address with an account and queues its e-mail. */
export const PASSWORD_RESET_JOB = 'signup.password-reset';
type PasswordResetJob = { domain: string; email: string };

export const NO_ORGANISATION = 'Which organisation? Ask for the reset from your organisation’s sign-in page.';

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;

/**
 * Password reset (docs/product.md §2 /resetpassword, §8): a request e-mails a link with a key that
 * works once within an hour (only its SHA-256 is stored); setting the new password ends every
 * session of the member. The request is answered alike whether or not the address has an account.
 */
export function createPasswordResetService(deps: {
  db: Database;
  audit: AuditService;
  auth: AuthService;
  members: Pick<MembersService, 'setPassword'>;
  queue: JobQueue;
  mail: MailQueue;
  publicUrl: string;
  hashCost: HashCost;
  now?: () => Date;
}) {
  const { db, audit, auth, members, queue, mail, publicUrl, hashCost } = deps;
  const now = deps.now ?? (() => new Date());
  const perAddress = createAddressLimit({
    db,
    now,
    keyPrefix: 'reset-password-mails',
    points: RESETS_PER_ADDRESS_PER_HOUR,
    durationSeconds: 60 * 60,
  });

  /**
   * The reset key, stored, audited and its e-mail queued together, if the address has an active
   * account: the job's transaction, so all of it happens once.
   */
  async function issueReset(tx: Transaction, domain: string, email: string): Promise<void> {
    const organisation = await repo.findOrganisationByDomain(tx, domain);
    const account = organisation ? await repo.findActiveAccount(tx, organisation.id, email) : null;
    if (!organisation || !account) return;

    const at = now();
    const expiresAt = new Date(at.getTime() + RESET_PASSWORD_LIFETIME_MINUTES * MINUTE_MS);
    const key = newSecretToken(RESET_KEY_PREFIX);
    const owner = { organisationId: organisation.id, userId: account.id };
    await auth.storeOneTimeToken(tx, owner, repo.RESET_PURPOSE, key, { createdAt: at, expiresAt });
    await audit.record(
      tx,
      owner,
      signupAudit({
        kind: 'signup.password_reset_requested',
        userId: account.id,
        email: account.email,
        lifetimeMinutes: RESET_PASSWORD_LIFETIME_MINUTES,
      }),
    );
    await mail.enqueue(tx, {
      purpose: 'password reset',
      organisationId: organisation.id,
      message: resetPasswordMail({
        account,
        organisation: organisation.name,
        link: resetPasswordLink(publicUrl, key),
      }),
      notAfter: expiresAt,
    });
  }

  queue.handle<PasswordResetJob>(PASSWORD_RESET_JOB, {
    transactional: true,
    retryDelaysMs: ACCOUNT_JOB_RETRY_DELAYS_MS,
    run: (tx, job) => issueReset(tx, job.payload.domain, job.payload.email),
  });

  return {
    /**
     * POST /api/account/reset_password/init: the organisation is the address's, else the body's.
     * Before the answer only the address's allowance is counted and the job is queued, alike for
     * every address: the job, whose transaction finds the account, stores its key, audits and queues
     * the e-mail (docs/adr/0023-durable-queue.md), is stored before the answer, so a request answered
     * is never lost; nothing of the account is read before the answer, so its time cannot tell
     * whether the address has one (test/reset-answer.pg.test.ts).
     */
    async request(input: {
      email: string;
      domain?: string | undefined;
      hostOrganisation: string | null;
    }): Promise<void> {
      const domain = (input.hostOrganisation ?? input.domain)?.toLowerCase();
      if (!domain)
        throw new BadRequestError(NO_ORGANISATION, [
          { field: 'domain', message: 'Organisation domain is required' },
        ]);
      const email = input.email.toLowerCase();
      await perAddress.take(JSON.stringify([domain, email]));
      await queue.enqueue(db, {
        kind: PASSWORD_RESET_JOB,
        organisationId: null,
        payload: { domain, email } satisfies PasswordResetJob,
      });
    },

    /**
     * POST /api/account/reset_password/finish: the key is spent, the password set, every other reset
     * key of the member retired and every session ended, together.
     */
    async finish(input: ResetPasswordFinishInput): Promise<ResetPasswordFinishResponse> {
      const passwordHash = await hashPassword(input.password, hashCost);
      const at = now();
      const done = await db.transaction(async (tx) => {
        const owner = await auth.spendOneTimeToken(tx, input.key, repo.RESET_PURPOSE, at);
        const account = owner
          ? await repo.findActiveAccountById(tx, owner.organisationId, owner.userId)
          : null;
        if (!owner || !account) return null;
        await members.setPassword(tx, owner, passwordHash, at);
        await auth.retireOneTimeTokens(tx, owner, repo.RESET_PURPOSE, at);
        const ended = await auth.revokeAllSessions(tx, owner.organisationId, owner.userId);
        await audit.record(
          tx,
          owner,
          signupAudit({
            kind: 'signup.password_reset',
            userId: owner.userId,
            email: account.email,
            sessionsEnded: ended,
          }),
        );
        // Their open dashboards close once the sessions' end has committed.
        const access = await auth.accessChangedWithin(tx, owner.organisationId, owner.userId);
        return { domain: account.organisationDomain, access };
      });
      if (done === null) throw new BadRequestError(RESET_FINISH_FAILED_MESSAGE, undefined, RESET_LINK_DEAD);
      auth.accessChanged(done.access);
      return { domain: done.domain };
    },
  };
}

export const RESET_LINK_DEAD =
  'This reset link is not valid: it may have expired or been used already. Ask for a new one.';
