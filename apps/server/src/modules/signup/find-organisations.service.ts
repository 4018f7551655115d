import { organisationLoginLink } from '@vexil/core';
import type { Database } from '../../db/client';
import { createAddressLimit, type Outbox } from '../../lib/mail-limits';
import { organisationsMail } from './signup-mails';
import * as repo from './signup.repository';

/** Lists one address may be sent per hour. */
const LISTS_PER_ADDRESS_PER_HOUR = 3;

export type FindOrganisationsService = ReturnType<typeof createFindOrganisationsService>;

/**
 * Find organisation (docs/product.md §2 /login): e-mails the sign-in address of every organisation
 * where the address is an active member. Nothing is sent to an address without one, and the answer
 * is the same either way.
 */
export function createFindOrganisationsService(deps: { db: Database; outbox: Outbox; publicUrl: string }) {
  const { db, outbox, publicUrl } = deps;
  const perAddress = createAddressLimit({
    db,
    keyPrefix: 'find-organisation-mails',
    points: LISTS_PER_ADDRESS_PER_HOUR,
    durationSeconds: 60 * 60,
  });

  return {
    /** POST /api/v1/account/findorganisations. */
    async send(input: { email: string }): Promise<void> {
      const email = input.email.toLowerCase();
      await perAddress.take(email);
      const found = await repo.organisationsOfEmail(db, email);
      if (found.length === 0) return;
      outbox.post(
        organisationsMail({
          email,
          organisations: found.map((o) => ({
            name: o.name,
            link: organisationLoginLink(publicUrl, o.domain),
          })),
        }),
        'find organisation',
      );
    },
  };
}
