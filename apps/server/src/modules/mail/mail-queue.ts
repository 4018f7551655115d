import type { Database, Executor } from '../../db/client';
import { MailDeliveryError, type Mailer, type MailMessage } from '../../lib/mailer';
import { SecretBoxError, type SecretBox } from '../../lib/secret-box';
import type { JobQueue, Queue } from '../queue/queue.service';
import type { JobOutcome } from '../queue/queue.types';

/*
 * Every e-mail the product sends goes through the durable queue (docs/adr/0023-durable-queue.md):
 * one `mail.send` job, added in the transaction of the change that calls for it (the invitation, the
 * pin, the reset key), sent by the worker and retried with backoff while the mail server fails for
 * a while. The message is stored sealed with the secret box: it carries a link or a pin that works as
 * a credential, which the database otherwise holds only hashed.
 */

/** The kind of job that sends one e-mail. */
export const MAIL_JOB = 'mail.send';
/** Waits before each retry of a mail the server did not take for a while: 10 s, 1 min, 5 min, 15 min, 1 h, 4 h. */
export const DEFAULT_MAIL_RETRY_DELAYS_MS = [10_000, 60_000, 300_000, 900_000, 3_600_000, 14_400_000];
/** How long a request waits for the first attempt of a mail it reports on before answering without. */
const INLINE_ATTEMPT_MS = 15_000;
/** A mail whose first attempt the request makes is left to the worker only after this (the instance stopped). */
const INLINE_GRACE_MS = 2 * 60 * 1000;
/** The secret box's context of a stored message: it decrypts in no other field. */
const SEALED_CONTEXT = 'mail.message';

/** What an e-mail is for, in the log and the job's record ("A sign-up pin e-mail could not be sent"). */
export type MailPurpose =
  | 'invitation'
  | 'sign-up pin'
  | 'welcome'
  | 'password reset'
  | 'find organisation'
  | 'change request'
  | 'schedule';

/** A mail job's payload: no credential and no address in clear. */
type MailJob = {
  purpose: MailPurpose;
  /** The {@link MailMessage} as JSON, sealed with the secret box. */
  sealed: string;
  /** Not sent after this (ISO): what it carries no longer works. */
  notAfter: string | null;
  /** What the purpose's check reads to know whether the mail is still wanted (never a secret). */
  ref: unknown;
};

/** One e-mail to queue. */
export type QueuedMail = {
  purpose: MailPurpose;
  organisationId: string | null;
  message: MailMessage;
  notAfter?: Date | undefined;
  /** For the purpose's {@link MailQueue.whileWanted} check. */
  ref?: unknown;
  /** The request makes the first attempt itself ({@link MailQueue.sendNow}); the worker only the retries. */
  firstAttemptInline?: boolean;
};

/** The first attempt's outcome, as a request reports it. */
export type FirstAttempt = { sent: true } | { sent: false; reason: string };

export type MailLogger = { warn: (details: Record<string, unknown>, message: string) => void };

export type MailOptions = { retryDelaysMs?: readonly number[] };

export type MailQueue = ReturnType<typeof createMailQueue>;

function article(purpose: MailPurpose): string {
  return /^[aeiou]/.test(purpose) ? 'An' : 'A';
}

/**
 * The mail queue: `enqueue` in the change's transaction (nothing when mail is not configured),
 * `sendNow` for a request that tells whether its mail went out, and the handler of `mail.send`.
 */
export function createMailQueue(deps: {
  db: Database;
  queue: JobQueue & Pick<Queue, 'runNow' | 'settled'>;
  mailer: Mailer;
  secrets: SecretBox;
  logger: MailLogger;
  options?: MailOptions | undefined;
  now?: () => Date;
}) {
  const { db, queue, mailer, secrets, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const retryDelaysMs = deps.options?.retryDelaysMs ?? DEFAULT_MAIL_RETRY_DELAYS_MS;
  const checks = new Map<MailPurpose, (db: Database, ref: unknown) => Promise<boolean>>();

  const final = (reason: string): JobOutcome => ({ ok: false, retry: false, reason });

  async function deliver(job: { id: string; attempt: number; payload: MailJob }): Promise<JobOutcome> {
    const { purpose, sealed, notAfter, ref } = job.payload;
    if (notAfter && new Date(notAfter) <= now())
      return final('Not sent: what the e-mail carries has expired.');
    const check = checks.get(purpose);
    if (check && ref !== null && ref !== undefined && !(await check(db, ref)))
      return final('Not sent: the e-mail is no longer wanted (replaced, used or cancelled).');
    if (!mailer.configured) return final('Not sent: mail is not configured on this server (SMTP_URL).');
    let message: MailMessage;
    try {
      message = JSON.parse(secrets.decrypt(sealed, SEALED_CONTEXT)) as MailMessage;
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      // Another instance, with the SECRETS_KEY that sealed it, may read it.
      return { ok: false, retry: true, reason: 'The stored e-mail cannot be read with this SECRETS_KEY.' };
    }
    try {
      await mailer.send(message);
      return { ok: true };
    } catch (error) {
      const delivery = error instanceof MailDeliveryError ? error : null;
      const retry = delivery?.transient ?? true;
      // The reason and codes only: the server's reply can quote the address, and a link is a key.
      logger.warn(
        {
          jobId: job.id,
          attempt: job.attempt,
          retry,
          mail: delivery?.diagnostics ?? { code: null },
          reason: delivery?.reason ?? null,
        },
        `${article(purpose)} ${purpose} e-mail could not be sent`,
      );
      return { ok: false, retry, reason: delivery?.reason ?? 'the mail server failed' };
    }
  }

  queue.handle<MailJob>(MAIL_JOB, { retryDelaysMs, run: (job) => deliver(job) });

  return {
    /** Whether SMTP_URL is set: without it no mail is queued, and the person is offered another way. */
    configured: mailer.configured,

    /**
     * Queues one e-mail in the caller's transaction: it is sent once that commits, and never if it
     * rolls back. Without a mail server nothing is queued and that is logged; null then.
     */
    async enqueue(executor: Executor, mail: QueuedMail): Promise<string | null> {
      if (!mailer.configured) {
        logger.warn(
          { mail: mail.purpose },
          `${article(mail.purpose)} ${mail.purpose} e-mail was not sent: mail is not configured (SMTP_URL)`,
        );
        return null;
      }
      const payload: MailJob = {
        purpose: mail.purpose,
        sealed: secrets.encrypt(JSON.stringify(mail.message), SEALED_CONTEXT),
        notAfter: mail.notAfter?.toISOString() ?? null,
        ref: mail.ref ?? null,
      };
      return queue.enqueue(executor, {
        kind: MAIL_JOB,
        organisationId: mail.organisationId,
        payload,
        ...(mail.firstAttemptInline ? { dueAt: new Date(now().getTime() + INLINE_GRACE_MS) } : {}),
      });
    },

    /**
     * The first attempt of a mail queued with `firstAttemptInline`, once its transaction committed,
     * waited for at most `budgetMs` (15 s): sent, or why not. A failure the server may mend later is
     * retried by the worker all the same; a slow attempt goes on after the answer.
     */
    async sendNow(jobId: string, budgetMs = INLINE_ATTEMPT_MS): Promise<FirstAttempt> {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), Math.max(0, budgetMs));
      });
      const attempt = queue.runNow(jobId).catch(() => null);
      const outcome = await Promise.race([attempt, late]).finally(() => clearTimeout(timer));
      if (outcome === 'late')
        return { sent: false, reason: 'the mail server did not answer in time; it is tried again' };
      if (outcome === null) return { sent: false, reason: 'the mail server failed' };
      return outcome.ok ? { sent: true } : { sent: false, reason: outcome.reason };
    },

    /**
     * Registers the check a purpose's mail passes when it is sent, with the `ref` it was queued with
     * (an invitation not replaced nor accepted since, say); a mail that fails it is not sent.
     */
    whileWanted(purpose: MailPurpose, check: (db: Database, ref: unknown) => Promise<boolean>): void {
      checks.set(purpose, check);
    },

    /** Resolves once the queue's worker is idle (tests). */
    settled: () => queue.settled(),
  };
}
