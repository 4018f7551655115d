import type { Executor } from '../../db/client';
import * as repo from './organisations.repository';
import type { NewOrganisation, OrganisationRef } from './organisations.types';

export type OrganisationsService = ReturnType<typeof createOrganisationsService>;

/**
 * The organisations table's one writer (docs/adr/0019-modules-own-their-tables.md): sign-up creates
 * an organisation, the issue tracker switches its setting; each in the caller's transaction.
 */
export function createOrganisationsService() {
  return {
    /** A new organisation created at `at`; null when its domain was taken meanwhile. */
    create(tx: Executor, organisation: NewOrganisation & { at: Date }): Promise<OrganisationRef | null> {
      return repo.insertOrganisation(tx, organisation);
    },

    /** One organisation by id (its domain names its dashboard's links), or null. */
    find(executor: Executor, id: string): Promise<OrganisationRef | null> {
      return repo.findOrganisation(executor, id);
    },

    /** The initial payload's `organisation.settings.jiraEnabled` (docs/product.md §3). */
    setJiraEnabled(tx: Executor, organisationId: string, enabled: boolean): Promise<void> {
      return repo.mergeSettings(tx, organisationId, { jiraEnabled: enabled });
    },
  };
}
