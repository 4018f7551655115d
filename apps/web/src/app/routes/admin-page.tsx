import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { Stack, Tabs, Text, Title } from '@mantine/core';
import { SSO_ADMINS_ONLY, TOKENS_ADMINS_ONLY, isOrganisationAdmin } from '@vexil/core';
import { Navigate, useNavigate, useParams } from 'react-router';
import { NotFound } from '../../components/not-found';
import { adminPath } from '../../lib/paths';
import { useSession } from '../../lib/session';
import { AuditAdmin } from '../../features/audit/components/audit-admin';
import { BillingAdmin } from '../../features/billing/components/billing-admin';
import { LocalCheckoutPage } from '../../features/billing/components/local-checkout-page';
import { LocalManagePage } from '../../features/billing/components/local-manage-page';
import { ProjectAdmin } from '../../features/projects/components/project-admin';
import { AccessTokensAdmin } from '../../features/tokens/components/access-tokens-admin';
import { RolesAdmin } from '../../features/roles/components/roles-admin';
import { SsoAdmin } from '../../features/sso/components/sso-admin';
import { TeamAdmin } from '../../features/team/components/team-admin';
import {
  ADMIN_TABS,
  DEFAULT_ADMIN_TAB,
  useEnabledAdminTabs,
  useVisibleAdminTabs,
  type AdminTab,
} from './admin-tabs';
import { IntegrationsPanel } from './integrations-panel';
import { projectAdminSections } from './project-admin-sections';
import classes from './admin-page.module.css';

/**
 * /admin: the default tab (docs/product.md §2) for organisation admins; for others the first tab they
 * may use (Audit), rather than a refusal.
 */
export function AdminIndexRedirect() {
  const visible = useVisibleAdminTabs();
  return <Navigate to={adminPath(visible[0]?.value ?? DEFAULT_ADMIN_TAB)} replace />;
}

/** What an admin-only tab whose screen does not explain itself says to others than organisation admins. */
function AdminsOnly({ title, message }: { title: string; message: string }) {
  return (
    <Stack gap="md">
      <Title order={2}>{title}</Title>
      <Text>{message}</Text>
    </Stack>
  );
}

function panelOf(tab: AdminTab, projectKey: string | undefined, admin: boolean): ReactNode {
  switch (tab.value) {
    case 'projects':
      return <ProjectAdmin projectKey={projectKey} sections={projectAdminSections} />;
    case 'users':
      return <TeamAdmin />;
    case 'audit':
      return <AuditAdmin />;
    case 'roles':
      return <RolesAdmin />;
    case 'tokens':
      return admin ? (
        <AccessTokensAdmin />
      ) : (
        <AdminsOnly title="Access Tokens" message={TOKENS_ADMINS_ONLY} />
      );
    case 'sso':
      return admin ? <SsoAdmin /> : <AdminsOnly title="Single sign-on" message={SSO_ADMINS_ONLY} />;
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
 * Marks a strip that scrolls sideways with `data-more-start` / `data-more-end` while tabs are hidden
 * beyond that edge, for the stylesheet to fade the edge: a hint that there is more to scroll to.
 */
function useScrollHints(ref: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const strip = ref.current;
    if (!strip) return;
    const mark = () => {
      const end = strip.scrollWidth - strip.clientWidth - strip.scrollLeft;
      strip.toggleAttribute('data-more-start', strip.scrollLeft > 1);
      strip.toggleAttribute('data-more-end', end > 1);
    };
    mark();
    strip.addEventListener('scroll', mark, { passive: true });
    const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(mark);
    resized?.observe(strip);
    return () => {
      strip.removeEventListener('scroll', mark);
      resized?.disconnect();
    };
  });
}

/**
 * /admin/{adminTab} and /admin/{adminTab}/{projectKey} (or a route naming its tab in `tab`): the admin tabs
 * of docs/product.md §2; changing tab goes to /admin/{tab}. A tab that does not exist, or whose UI flag is
 * off, is not found. A tab only organisation admins see, opened by someone else (a link, the trial
 * banner's to billing), is shown selected beside the tabs they may use, and tells them that only
 * organisation admins manage it.
 */
export function AdminPage({ tab: fixedTab }: { tab?: string }) {
  const { adminTab = fixedTab, projectKey } = useParams();
  const navigate = useNavigate();
  const visible = useVisibleAdminTabs();
  const enabled = useEnabledAdminTabs();
  const admin = isOrganisationAdmin(useSession().principalUser);
  const tab = ADMIN_TABS.find((t) => t.value === adminTab);
  const list = useRef<HTMLDivElement>(null);
  // On a phone the strip scrolls: the selected tab is brought into view.
  useEffect(() => {
    list.current
      ?.querySelector('[aria-selected="true"]')
      ?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [tab]);
  useScrollHints(list);

  if (!tab || !enabled.includes(tab)) return <NotFound />;
  const shown = visible.includes(tab) ? visible : ADMIN_TABS.filter((t) => t === tab || visible.includes(t));

  return (
    <Stack gap="lg">
      <Title order={1}>Admin</Title>
      <Tabs
        value={tab.value}
        keepMounted={false}
        classNames={{ list: classes.list, tab: classes.tab }}
        onChange={(value) => {
          if (value && value !== tab.value) void navigate(adminPath(value));
        }}
      >
        <Tabs.List aria-label="Admin sections" ref={list}>
          {shown.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.title}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value={tab.value} pt="lg">
          {panelOf(tab, projectKey, admin)}
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
