import { useFlag } from '../../lib/flags';
import { useSession } from '../../lib/session';
import { isOrganisationAdmin, type UiFlag } from '@vexil/core';

export type AdminTab = {
  value: string;
  title: string;
  /** Only organisation admins see the tab. */
  adminOnly: boolean;
  /** The UI flag that must be on for the tab to exist. */
  flag?: UiFlag;
};

/** docs/product.md §2 "Admin tabs", in display order; projects is the default. */
export const ADMIN_TABS: readonly AdminTab[] = [
  { value: 'projects', title: 'Projects', adminOnly: true },
  { value: 'users', title: 'Team', adminOnly: true },
  { value: 'roles', title: 'Roles', adminOnly: true, flag: 'roles-admin' },
  { value: 'tokens', title: 'Access Tokens', adminOnly: true, flag: 'access-tokens' },
  { value: 'sso', title: 'Single sign-on', adminOnly: true },
  { value: 'audit', title: 'Audit', adminOnly: false },
  { value: 'billing', title: 'Billing', adminOnly: true, flag: 'billing' },
  { value: 'integrations', title: 'Integrations', adminOnly: true, flag: 'integrations' },
];

export const DEFAULT_ADMIN_TAB = 'projects';

/** The admin tabs that exist for this organisation: those whose UI flag, if any, is on. */
export function useEnabledAdminTabs(): AdminTab[] {
  const flags: Partial<Record<UiFlag, boolean>> = {
    'roles-admin': useFlag('roles-admin'),
    'access-tokens': useFlag('access-tokens'),
    billing: useFlag('billing'),
    integrations: useFlag('integrations'),
  };
  return ADMIN_TABS.filter((tab) => !tab.flag || flags[tab.flag] === true);
}

/** The admin tabs this user sees: gated by role and UI flag. */
export function useVisibleAdminTabs(): AdminTab[] {
  const { principalUser } = useSession();
  const admin = isOrganisationAdmin(principalUser);
  return useEnabledAdminTabs().filter((tab) => !tab.adminOnly || admin);
}
