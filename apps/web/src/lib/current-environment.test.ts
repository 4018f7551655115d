import { afterEach, describe, expect, it, vi } from 'vitest';
import { projectFixture } from '../testing/test-utils';
import {
  NOTHING_REMEMBERED,
  chooseCurrentEnvironment,
  environmentToOpen,
  parseRememberedEnvironments,
  readRememberedEnvironments,
  rememberEnvironment,
  type RememberedEnvironments,
} from './current-environment';

// Production listed first: the choice does not rest on the server's order alone.
const shop = projectFixture('web', 'Web shop', [
  { key: 'production', name: 'Production', production: true },
  { key: 'dev', name: 'Development' },
  { key: 'qa', name: 'QA' },
]);
const app = projectFixture('app', 'Mobile app', [
  { key: 'live', name: 'Live', production: true },
  { key: 'beta', name: 'Beta' },
]);
const [shopProduction, shopDevelopment, shopQa] = shop.environments;
const [appLive, appBeta] = app.environments;

const owner = { organisationId: 'org-1', userId: 'user-1' };

function remembered(current: string | null, byProject: Record<string, string> = {}): RememberedEnvironments {
  return { current, byProject };
}

describe('environmentToOpen', () => {
  it('opens the environment last used in the project', () => {
    expect(environmentToOpen(shop, remembered(appBeta!.id, { [shop.id]: shopQa!.id }))).toBe(shopQa);
    expect(environmentToOpen(shop, remembered(null, { [shop.id]: shopProduction!.id }))).toBe(shopProduction);
  });

  it('otherwise opens the first non-production environment, wherever production is listed', () => {
    expect(environmentToOpen(shop, NOTHING_REMEMBERED)).toBe(shopDevelopment);
    // One last used in another project does not count here, nor one that was deleted.
    expect(environmentToOpen(shop, remembered(appBeta!.id, { [app.id]: appBeta!.id }))).toBe(shopDevelopment);
    expect(environmentToOpen(shop, remembered('gone', { [shop.id]: 'gone' }))).toBe(shopDevelopment);
  });

  it('counts an environment tagged production as production', () => {
    const tagged = projectFixture('tag', 'Tagged', [
      { key: 'eu', name: 'EU', tags: ['production'] },
      { key: 'test', name: 'Test' },
    ]);
    expect(environmentToOpen(tagged, NOTHING_REMEMBERED)?.key).toBe('test');
  });

  it('opens production when the project has nothing else, and nothing without environments', () => {
    const onlyProduction = projectFixture('op', 'Only production', [
      { key: 'production', name: 'Production', production: true },
    ]);
    expect(environmentToOpen(onlyProduction, NOTHING_REMEMBERED)?.key).toBe('production');
    expect(environmentToOpen(projectFixture('none', 'None', []), NOTHING_REMEMBERED)).toBeUndefined();
  });
});

describe('chooseCurrentEnvironment', () => {
  it('keeps the environment last worked in, in whichever project', () => {
    expect(chooseCurrentEnvironment([shop, app], remembered(appLive!.id))).toEqual({
      project: app,
      environment: appLive,
    });
  });

  it('without one, picks a non-production environment of the first project', () => {
    expect(chooseCurrentEnvironment([shop, app], NOTHING_REMEMBERED)).toEqual({
      project: shop,
      environment: shopDevelopment,
    });
    // The last one used in that project wins over its first non-production one.
    expect(chooseCurrentEnvironment([shop, app], remembered('deleted', { [shop.id]: shopQa!.id }))).toEqual({
      project: shop,
      environment: shopQa,
    });
  });

  it('passes over projects with only production or no environment when another has more', () => {
    const onlyProduction = projectFixture('op', 'Only production', [
      { key: 'production', name: 'Production', production: true },
    ]);
    const empty = projectFixture('none', 'None', []);
    expect(chooseCurrentEnvironment([empty, onlyProduction, app], NOTHING_REMEMBERED)).toEqual({
      project: app,
      environment: appBeta,
    });
    expect(chooseCurrentEnvironment([empty, onlyProduction], NOTHING_REMEMBERED)?.environment.key).toBe(
      'production',
    );
    expect(chooseCurrentEnvironment([empty], NOTHING_REMEMBERED)).toBeNull();
    expect(chooseCurrentEnvironment([], NOTHING_REMEMBERED)).toBeNull();
  });
});

describe('remembering', () => {
  afterEach(() => {
    localStorage.clear();
    vi.restoreAllMocks();
  });

  it('keeps the current environment and the last one of each project, per organisation and user', () => {
    rememberEnvironment(owner, shop.id, shopQa!.id);
    rememberEnvironment(owner, app.id, appLive!.id);
    expect(readRememberedEnvironments(owner)).toEqual({
      current: appLive!.id,
      byProject: { [shop.id]: shopQa!.id, [app.id]: appLive!.id },
    });
    expect(readRememberedEnvironments({ ...owner, userId: 'user-2' })).toEqual(NOTHING_REMEMBERED);
    expect(readRememberedEnvironments({ ...owner, organisationId: 'org-2' })).toEqual(NOTHING_REMEMBERED);
  });

  it('reads an unreadable value as nothing remembered', () => {
    for (const raw of ['', 'not json', 'null', '[]', '"dev"', '{"current":1,"byProject":[]}']) {
      expect(parseRememberedEnvironments(raw)).toEqual(NOTHING_REMEMBERED);
    }
    expect(parseRememberedEnvironments('{"current":"a","byProject":{"p":"a","q":2}}')).toEqual({
      current: 'a',
      byProject: { p: 'a' },
    });
  });

  it('keeps the choice for the page when the browser refuses storage', () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    rememberEnvironment(owner, shop.id, shopQa!.id);
    expect(readRememberedEnvironments(owner).current).toBe(shopQa!.id);
  });
});
