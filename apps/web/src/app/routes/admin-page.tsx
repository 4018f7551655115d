import type { ReactNode } from 'react';
import { Stack, Tabs, Text, Title } from '@mantine/core';
import { Navigate, useNavigate, useParams } from 'react-router';
import { NotFound } from '../../components/not-found';
import { adminPath } from '../../lib/paths';
import { AuditAdmin } from '../../features/audit/components/audit-admin';
import { ProjectAdmin } from '../../features/projects/components/project-admin';
import { AccessTokensAdmin } from '../../features/tokens/components/access-tokens-admin';
import { RolesAdmin } from '../../features/roles/components/roles-admin';
import { SsoAdmin } from '../../features/sso/components/sso-admin';
import { TeamAdmin } from '../../features/team/components/team-admin';
import { ADMIN_TABS, DEFAULT_ADMIN_TAB, useVisibleAdminTabs, type AdminTab } from './admin-tabs';

export const UNAVAILABLE_MESSAGE = 'This screen is not available in this version of Vexil yet.';

/** /admin: the default tab (docs/product.md §2). */
export function AdminIndexRedirect() {
  return <Navigate to={adminPath(DEFAULT_ADMIN_TAB)} replace />;
}

function UnavailablePanel({ tab }: { tab: AdminTab }) {
  return (
    <Stack gap="xs">
      <Title order={2}>{tab.title}</Title>
      <Text c="dimmed">{UNAVAILABLE_MESSAGE}</Text>
    </Stack>
  );
}

function panelOf(tab: AdminTab, projectKey: string | undefined): ReactNode {
  switch (tab.value) {
    case 'projects':
      return <ProjectAdmin projectKey={projectKey} />;
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
    default:
      // The other tabs' screens come with their own issues.
      return <UnavailablePanel tab={tab} />;
  }
}

/**
 * /admin/{adminTab} and /admin/{adminTab}/{projectKey} (or a route naming its tab in `tab`): the admin tabs of docs/product.md §2; changing tab goes
 * to /admin/{tab}. A tab that does not exist, or that this user may not see, is not found. The
 * projects tab is the exception: it tells a non-admin that only organisation admins manage projects.
 */
export function AdminPage({ tab: fixedTab }: { tab?: string }) {
  const { adminTab = fixedTab, projectKey } = useParams();
  const navigate = useNavigate();
  const visible = useVisibleAdminTabs();
  const tab = ADMIN_TABS.find((t) => t.value === adminTab);
  const reachable = tab && (visible.includes(tab) || tab.value === DEFAULT_ADMIN_TAB);

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
