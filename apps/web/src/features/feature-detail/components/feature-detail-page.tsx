import { useCallback, useRef, useState, type ReactNode } from 'react';
import { Skeleton, Stack, Tabs } from '@mantine/core';
import { useNavigate } from 'react-router';
import { NotFound } from '../../../components/not-found';
import { isApiError } from '../../../lib/api-client';
import {
  FEATURE_DETAIL_TABS,
  type Feature,
  type FeatureControl,
  type FeatureDetailTab,
  type ProjectSummary,
} from '@vexil/core';
import { useFeature } from '../../../entities/features/api/get-feature';
import { FeatureAudit } from './feature-audit';
import { FeatureBreadcrumb } from './feature-breadcrumb';
import { FeatureHeader } from './feature-header';
import { FeatureScheduleBadge } from './feature-schedule-badge';
import { LiveChangeNotice } from './live-change-notice';
import { FeatureOverview } from './feature-overview';
import { FeatureSettings } from './feature-settings';
import { featureDetailPath } from '../../../lib/paths';
import { useConfirmLeavingUnsaved } from './unsaved-edits';

const TAB_LABELS: Record<FeatureDetailTab, string> = {
  overview: 'Overview',
  targeting: 'Targeting',
  settings: 'Settings',
  history: 'History',
  audit: 'Audit',
};

/**
 * The tabs that hold edits: once opened they stay mounted (hidden while another tab shows), so that
 * what was edited there is still there, unsaved, when the user comes back.
 */
const EDITING_TABS: readonly FeatureDetailTab[] = ['targeting', 'settings'];

type EnvironmentSummary = ProjectSummary['environments'][number];

export type FeatureDetailPageProps = {
  project: ProjectSummary;
  environment: EnvironmentSummary;
  featureKey: string;
  /** The tab segment of the address, if any. */
  tab: string | undefined;
  /**
   * The Targeting tab's content for the loaded feature and this environment's control (absent when
   * the feature has none here). The targeting editor is a feature of its own: the route puts it here.
   */
  targeting: (feature: Feature, control: FeatureControl | undefined) => ReactNode;
  /**
   * The on/off switch of `control`, the feature's control in `environment`, for the header and each row
   * of the Overview. The switch is the feature list's: the route puts it here.
   */
  toggle: (feature: Feature, control: FeatureControl, environment: EnvironmentSummary) => ReactNode;
  /** The History tab's content for the loaded feature in this environment (the route puts it here). */
  history: (feature: Feature) => ReactNode;
};

/** The tab an address names: `overview` when it names none (docs/product.md §9), `null` when it is not a tab. */
export function tabFromUrl(tab: string | undefined): FeatureDetailTab | null {
  if (tab === undefined || tab === '') return 'overview';
  return (FEATURE_DETAIL_TABS as readonly string[]).includes(tab) ? (tab as FeatureDetailTab) : null;
}

function FeatureDetailSkeleton() {
  return (
    <Stack gap="md" aria-busy="true" aria-label="Loading the feature">
      <Skeleton height={16} width="40%" />
      <Skeleton height={36} width="50%" />
      <Skeleton height={20} width="30%" />
      <Skeleton height={60} />
      <Skeleton height={240} />
    </Stack>
  );
}

/**
 * docs/product.md §2 Feature detail page, /projects/{p}/environments/{e}/features/{key}/{tab?}: breadcrumb, header
 * (with this environment's on/off switch) and the Overview, Targeting, Settings, History and Audit tabs, the tab in the address. An unknown feature or tab
 * is Page not found (docs/product.md §8). Edits survive a switch to another tab; leaving the page with
 * edits that are not saved asks first.
 */
export function FeatureDetailPage({
  project,
  environment,
  featureKey,
  tab,
  targeting,
  toggle,
  history,
}: FeatureDetailPageProps) {
  const navigate = useNavigate();
  const feature = useFeature(project.key, featureKey);
  const current = tabFromUrl(tab);

  // The editing tabs opened on this feature in this environment; another feature starts afresh.
  const page = featureDetailPath(project.key, environment.key, featureKey);
  const [opened, setOpened] = useState<{ page: string; tabs: ReadonlySet<FeatureDetailTab> }>({
    page,
    tabs: new Set(),
  });
  const openedTabs = opened.page === page ? opened.tabs : new Set<FeatureDetailTab>();
  if (current !== null && EDITING_TABS.includes(current) && !openedTabs.has(current)) {
    setOpened({ page, tabs: new Set([...openedTabs, current]) });
  }
  const shows = (name: FeatureDetailTab) => current === name || openedTabs.has(name);

  const root = useRef<HTMLDivElement>(null);
  const staysOnPage = useCallback(
    (pathname: string) => pathname === page || pathname.startsWith(`${page}/`),
    [page],
  );
  useConfirmLeavingUnsaved(root, staysOnPage);

  if (current === null) return <NotFound />;
  // docs/product.md §8: a feature that does not load is Page not found; so is one deleted since it was shown.
  const gone = isApiError(feature.error) && feature.error.status === 404;
  if (feature.isError && (!feature.data || gone)) return <NotFound />;
  if (!feature.data) return <FeatureDetailSkeleton />;

  const data = feature.data;
  const control = data.controls[environment.key];

  return (
    <Stack gap="lg" ref={root}>
      <LiveChangeNotice
        root={root}
        projectKey={project.key}
        featureKey={data.key}
        environmentKey={environment.key}
      />
      <FeatureBreadcrumb
        project={project}
        environment={environment}
        featureKey={data.key}
        featureName={data.name}
        tab={current}
      />
      <FeatureHeader
        feature={data}
        control={control}
        environmentName={environment.name}
        toggle={control ? toggle(data, control, environment) : null}
        schedule={
          control ? (
            <FeatureScheduleBadge
              projectKey={project.key}
              environmentKey={environment.key}
              featureKey={data.key}
            />
          ) : null
        }
      />
      <Tabs
        value={current}
        onChange={(value) => {
          if (value && value !== current) {
            void navigate(
              featureDetailPath(project.key, environment.key, data.key, value as FeatureDetailTab),
            );
          }
        }}
        keepMounted={false}
      >
        <Tabs.List mb="lg">
          {FEATURE_DETAIL_TABS.map((name) => (
            <Tabs.Tab key={name} value={name}>
              {TAB_LABELS[name]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="overview">
          <FeatureOverview
            feature={data}
            project={project}
            environment={environment}
            toggle={(control, inEnvironment) => toggle(data, control, inEnvironment)}
          />
        </Tabs.Panel>
        <Tabs.Panel value="targeting" keepMounted>
          {shows('targeting') ? targeting(data, control) : null}
        </Tabs.Panel>
        <Tabs.Panel value="settings" keepMounted>
          {shows('settings') ? (
            <FeatureSettings key={data.id} feature={data} environmentKey={environment.key} />
          ) : null}
        </Tabs.Panel>
        <Tabs.Panel value="history">{current === 'history' ? history(data) : null}</Tabs.Panel>
        <Tabs.Panel value="audit">
          <FeatureAudit projectKey={project.key} featureKey={data.key} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
