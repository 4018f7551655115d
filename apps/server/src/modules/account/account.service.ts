import { AUTHORITY_NAMES, type Authority, type UiFlag } from '@vexil/core';
import type { Database } from '../../db/client';
import { ForbiddenError, NotFoundError } from '../../errors';
import type { AuthService, Principal } from '../auth/auth.service';
import type { BillingService } from '../billing/billing.service';
import type { MembersService } from '../members/members.service';
import type { ProjectsService } from '../projects/projects.service';
import type { SsoService } from '../sso/sso.service';
import * as repo from './account.repository';

function isAuthority(name: string): name is Authority {
  return (AUTHORITY_NAMES as readonly string[]).includes(name);
}

export type AccountService = ReturnType<typeof createAccountService>;

export function createAccountService(deps: {
  db: Database;
  auth: AuthService;
  uiFlags: Record<UiFlag, boolean>;
  billing: BillingService;
  projects: ProjectsService;
  /** The member's own settings are the members module's to write. */
  members: Pick<MembersService, 'markIntroRead'>;
  /** The organisation's single sign-on, shown on its sign-in page. */
  sso: Pick<SsoService, 'publicSso'>;
  /** BASE_DOMAIN: the bare sign-in page sends people to `{domain}.{baseDomain}` when served from it. */
  baseDomain: string;
}) {
  const { db, auth, uiFlags, billing, projects, members, sso, baseDomain } = deps;

  return {
    /**
     * What the dashboard may know before sign-in: which organisation this address is, its single
     * sign-on, and the UI flags.
     */
    async publicContext(domain: string | null) {
      const organisation = domain ? await auth.organisationByDomain(domain) : null;
      const ssoOfOrganisation = organisation ? await sso.publicSso(organisation.id) : null;
      return { organisation, flags: uiFlags, sso: ssoOfOrganisation, baseDomain };
    },

    /** The payload the dashboard loads after sign-in (docs/product.md §3 Initial payload). */
    async initial(principal: Principal) {
      const [user, organisation, projectRows, subscription] = await Promise.all([
        repo.findUser(db, principal.organisationId, principal.userId),
        repo.findOrganisation(db, principal.organisationId),
        projects.list(principal),
        billing.subscriptionFor(db, principal.organisationId),
      ]);
      if (!user || !organisation) throw new NotFoundError('user');
      return {
        principalUser: {
          id: user.id,
          firstName: user.firstName,
          lastName: user.lastName,
          email: user.email,
          login: user.email,
          userHash: '',
          authorities: user.authorities.filter(isAuthority),
          // As the request loaded them: the dashboard's `can()` then agrees with the server's.
          grants: principal.grants ?? [],
          langKey: user.langKey,
          activatedDate: user.activatedDate?.toISOString() ?? null,
          settings: { introReadDate: user.settings.introReadDate ?? null },
        },
        organisation: {
          id: organisation.id,
          name: organisation.name,
          domain: organisation.domain,
          settings: { jiraEnabled: organisation.settings.jiraEnabled ?? false },
        },
        // Menus need no SDK keys and no targets: those are fetched with the project when needed.
        projects: projectRows.map(({ targets: _targets, environments, ...project }) => ({
          ...project,
          environments: environments.map(
            ({ apiKey: _apiKey, jsApiKey: _jsApiKey, ...environment }) => environment,
          ),
        })),
        subscription,
        flags: uiFlags,
      };
    },

    async markIntroRead(principal: Principal, userId: string) {
      if (userId !== principal.userId) throw new ForbiddenError('You can only change your own settings');
      const settings = await members.markIntroRead(db, principal.organisationId, userId);
      if (!settings) throw new NotFoundError('user', userId);
      return { introReadDate: settings.introReadDate ?? null };
    },
  };
}
