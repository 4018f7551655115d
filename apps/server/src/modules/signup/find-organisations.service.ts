import { organisationLoginLink } from '@vexil/core';
import type { Database } from '../../db/client';
import { createAddressLimit } from '../../lib/mail-limits';
import type { MailQueue } from '../mail/mail-queue';
import type { JobQueue } from '../queue/queue.service';
import { organisationsMail } from './signup-mails';
import * as repo from './signup.repository';

/** Lists one address may be sent per hour. */
const LISTS_PER_ADDRESS_PER_HOUR = 3;

/** The job that looks an address's organisations up and queues their list (docs/adr/0023-durable-queue.md). */
export const FIND_ORGANISATIONS_JOB = 'signup.find-organisations';
/** The signed-out flows' lookups are retried after 1 s, 10 s, 1 min and 10 min (the database was away). */
export const ACCOUNT_JOB_RETRY_DELAYS_MS = [1_000, 10_000, 60_000, 600_000];

type FindOrganisationsJob = { email: string };

export type FindOrganisationsService = ReturnType<typeof createFindOrganisationsService>;

/**
 * Find organisation (docs/product.md §2 /login): e-mails the sign-in address of every organisation
 * where the address is an active member. Nothing is sent to an address without one, and the answer
 * is the same either way: the request only counts the address and queues a job, alike for every
 * address; the job looks the organisations up and queues the e-mail, in one transaction.
 */
export function createFindOrganisationsService(deps: {
  db: Database;
  queue: JobQueue;
  mail: MailQueue;
  publicUrl: string;
  now?: () => Date;
}) {
  const { db, queue, mail, publicUrl } = deps;
  const now = deps.now ?? (() => new Date());
  const perAddress = createAddressLimit({
    db,
    now,
    keyPrefix: 'find-organisation-mails',
    points: LISTS_PER_ADDRESS_PER_HOUR,
    durationSeconds: 60 * 60,
  });

  queue.handle<FindOrganisationsJob>(FIND_ORGANISATIONS_JOB, {
    transactional: true,
    retryDelaysMs: ACCOUNT_JOB_RETRY_DELAYS_MS,
    async run(tx, job) {
      const { email } = job.payload;
      const found = await repo.organisationsOfEmail(tx, email);
      if (found.length === 0) return;
      await mail.enqueue(tx, {
        purpose: 'find organisation',
        organisationId: null,
        message: organisationsMail({
          email,
          organisations: found.map((o) => ({
            name: o.name,
            link: organisationLoginLink(publicUrl, o.domain),
          })),
        }),
      });
    },
  });

  return {
    /** POST /api/v1/account/findorganisations. */
    async send(input: { email: string }): Promise<void> {
      const email = input.email.toLowerCase();
      await perAddress.take(email);
      await queue.enqueue(db, {
        kind: FIND_ORGANISATIONS_JOB,
        organisationId: null,
        payload: { email } satisfies FindOrganisationsJob,
      });
    },
  };
}
