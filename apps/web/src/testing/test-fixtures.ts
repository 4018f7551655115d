import dayjs from 'dayjs';
import { notifications } from '@mantine/notifications';
import { closeAllModals } from '../lib/modals';
import { initialPayload } from './test-utils';
import type {
  AuditPage,
  Authority,
  Feature,
  FeatureControl,
  InitialPayload,
  VariantDailyImpressions,
} from '@vexil/core';

/*
 * The "checkout" feature of the test payload's "web" project as the server sends it, and what goes with
 * it, for the tests of the screens that show a feature.
 */

export const FEATURE_ID = '00000000-0000-4000-8000-00000000f001';
// Local times, so the formatted dates read the same in every time zone.
const CREATED = new Date(2026, 2, 3, 16, 5).toISOString();
const MODIFIED = new Date(2026, 2, 10, 9, 30).toISOString();

/** A control as the server sends it: off, never evaluated, everyone gets On once switched on. */
export function controlFixture(
  environmentKey: string,
  overrides: Partial<FeatureControl> = {},
): FeatureControl {
  return {
    id:
      environmentKey === 'production'
        ? '00000000-0000-4000-8000-00000000c001'
        : '00000000-0000-4000-8000-00000000c002',
    key: 'checkout',
    environmentKey,
    enabled: false,
    offVariantKey: 'off',
    rules: [{ defaultRule: true, audience: null, variantSplits: [{ variantKey: 'on', split: 100 }] }],
    available: false,
    trafficStatus: 'never',
    targetingStatus: 'off',
    staleDays: 0,
    rulesDescription: 'Off: everyone gets Off.',
    createdDate: CREATED,
    lastModifiedDate: CREATED,
    statistics: {
      lastImpressionDate: null,
      impressions: { today: 0 },
      variants: { on: { impressions: { today: 0 } }, off: { impressions: { today: 0 } } },
    },
    ...overrides,
  };
}

/** The "checkout" feature of the test payload's "web" project, with a control in both environments. */
export function featureFixture(overrides: Partial<Feature> = {}): Feature {
  return {
    id: FEATURE_ID,
    name: 'New checkout',
    key: 'checkout',
    description: 'The one-page checkout.',
    permanent: false,
    variants: [
      { key: 'on', name: 'On', description: '' },
      { key: 'off', name: 'Off', description: '' },
    ],
    tags: ['payments'],
    goals: [],
    jiraIssues: [{ key: 'SHOP-12', title: 'Checkout redesign', url: 'https://issues.example.com/SHOP-12' }],
    jiraIssueKeys: ['SHOP-12'],
    maintainer: {
      id: '00000000-0000-4000-8000-000000000001',
      name: 'Demo Admin',
      email: 'admin@example.com',
    },
    projectKey: 'web',
    project: { key: 'web', name: 'Web shop' },
    bookmarked: false,
    archived: false,
    controls: { production: controlFixture('production'), dev: controlFixture('dev') },
    createdDate: CREATED,
    lastModifiedDate: MODIFIED,
    ...overrides,
  };
}

/** 30 days of impressions, each variant's list given (padded with zeros at the start). */
export function impressionsFixture(
  datasets: Record<string, number[]> = { On: [], Off: [] },
): VariantDailyImpressions {
  const labels = Array.from({ length: 30 }, (_, day) =>
    dayjs('2026-02-01').add(day, 'day').format('YYYY-MM-DD'),
  );
  return {
    labels,
    datasets: Object.entries(datasets).map(([label, values]) => ({
      label,
      data: [...Array<number>(30 - values.length).fill(0), ...values],
    })),
  };
}

export function auditPageFixture(page: number, titles: string[], last = true): AuditPage {
  return {
    content: titles.map((title, index) => ({
      id: `00000000-0000-4000-8000-${String(9000 + page * 100 + index).padStart(12, '0')}`,
      title,
      description: 'admin@example\\.com changed **New checkout**\\.',
      createdDate: new Date(Date.now() - 3 * 60 * 1000).toISOString(),
    })),
    last,
    page,
    pageSize: 50,
  };
}

/** A payload whose user holds only `authority`. */
export function payloadFor(authority: Authority): InitialPayload {
  const payload = initialPayload();
  return { ...payload, principalUser: { ...payload.principalUser, authorities: [authority] } };
}

/** Toasts and the modal stack outlive a rendered tree; each test starts without them. */
export function resetOverlays(): void {
  notifications.clean();
  closeAllModals();
}

export const DETAIL = '/projects/web/environments/production/features/checkout';
