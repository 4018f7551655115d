import type { ReactNode } from 'react';
import { Stack, Tabs, Title } from '@mantine/core';
import { Navigate, useNavigate, useParams } from 'react-router';
import { NotFound } from '../../components/not-found';
import { adminPath } from '../../lib/paths';
import { useFlag } from '../../lib/flags';
import { AuditAdmin } from '../../features/audit/components/audit-admin';
import { BillingAdmin } from '../../features/billing/components/billing-admin';
import { LocalCheckoutPage } from '../../features/billing/components/local-checkout-page';
import { LocalManagePage } from '../../features/billing/components/local-manage-page';
import { ProjectAdmin } from '../../features/projects/components/project-admin';
import { AccessTokensAdmin } from '../../features/tokens/components/access-tokens-admin';
import { RolesAdmin } from '../../features/roles/components/roles-admin';
import { SsoAdmin } from '../../features/sso/components/sso-admin';
import { TeamAdmin } from '../../features/team/components/team-admin';
import { ADMIN_TABS, DEFAULT_ADMIN_TAB, useVisibleAdminTabs, type AdminTab } from './admin-tabs';
import { IntegrationsPanel, projectIntegrationSections } from './integrations-panel';

/** /admin: the default tab (docs/product.md §2). */
export function AdminIndexRedirect() {
  return <Navigate to={adminPath(DEFAULT_ADMIN_TAB)} replace />;
}

function panelOf(tab: AdminTab, projectKey: string | undefined): ReactNode {
  switch (tab.value) {
    case 'projects':
      return <ProjectAdmin projectKey={projectKey} sections={projectIntegrationSections} />;
    case 'users':
      return <TeamAdmin />;
    case 'audit':
      return <AuditAdmin />;
    case 'roles':
      return <RolesAdmin />;
    case 'tokens':
      return <AccessTokensAdmin />;
    case 'sso':
      return <SsoAdmin />;
    case 'billing':
      // /admin/billing/manage and /admin/billing/checkout: the local provider's pages
      // (docs/adr/0016-billing-providers.md), in the second segment the other tabs give a project.
      if (projectKey === undefined) return <BillingAdmin />;
      if (projectKey === 'manage') return <LocalManagePage />;
      if (projectKey === 'checkout') return <LocalCheckoutPage />;
      return <NotFound />;
    case 'integrations':
      return <IntegrationsPanel subPath={projectKey} />;
    default:
      return <NotFound />;
  }
}

/**
 * /admin/{adminTab} and /admin/{adminTab}/{projectKey} (or a route naming its tab in `tab`): the admin tabs
 * of docs/product.md §2; changing tab goes to /admin/{tab}. A tab that does not exist, or that this user may
 * not see, is not found. The projects, billing and integrations (with their flags) tabs are the
 * exceptions: they tell a non-admin that only organisation admins manage them, as the trial banner links
 * everyone to billing.
 */
export function AdminPage({ tab: fixedTab }: { tab?: string }) {
  const { adminTab = fixedTab, projectKey } = useParams();
  const navigate = useNavigate();
  const visible = useVisibleAdminTabs();
  const tab = ADMIN_TABS.find((t) => t.value === adminTab);
  const billing = useFlag('billing');
  const integrations = useFlag('integrations');
  const reachable =
    tab &&
    (visible.includes(tab) ||
      tab.value === DEFAULT_ADMIN_TAB ||
      (tab.value === 'billing' && billing) ||
      (tab.value === 'integrations' && integrations));

  if (!tab || !reachable) return <NotFound />;

  return (
    <Stack gap="lg">
      <Title order={1}>Admin</Title>
      <Tabs
        value={tab.value}
        keepMounted={false}
        onChange={(value) => {
          if (value && value !== tab.value) void navigate(adminPath(value));
        }}
      >
        <Tabs.List aria-label="Admin sections">
          {visible.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.title}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value={tab.value} pt="lg">
          {panelOf(tab, projectKey)}
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
