import { isOrganisationAdmin, ssoRequiredMessage } from '@vexil/core';
import type { Executor } from '../../db/client';
import type { PasswordSignInRule } from '../auth/auth.service';
import * as repo from './sso.repository';

/**
 * The auth module's port for password sign-in, as single sign-on fills it: with "SSO required", only
 * organisation admins keep their password, so that a broken identity provider cannot lock the
 * organisation out. It reads the connection alone, so the composition root builds it before auth,
 * and the sso service, which signs people in through auth, comes after.
 */
export function createPasswordSignInRule(deps: { db: Executor }): PasswordSignInRule {
  return async (member) => {
    if (isOrganisationAdmin({ authorities: member.authorities })) return null;
    const row = await repo.findConnection(deps.db, member.organisationId);
    return row?.required ? ssoRequiredMessage(row.displayName) : null;
  };
}
