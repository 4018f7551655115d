import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { startFakeJira, type FakeJira } from '../apps/server/test/fake-jira';
import { startFakeSlack, type FakeSlack } from '../apps/server/test/fake-slack';
import { launchBrowser, openPage, signIn, viewShot } from './support/browser';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  DEMO_DOMAIN,
  addDemoUser,
  startServer,
  type RunningServer,
} from './support/server';
import { DESKTOP } from './support/api';

/** The key the product encrypts integration secrets with in this spec (32 bytes, hex). */
const TEST_SECRETS_KEY = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';

/*
 * Admin › Integrations and the project Webhooks section (docs/product.md §2 "Integrations"), against the
 * real server and local stand-ins: Slack (apps/server/test/fake-slack.ts: its authorisation page
 * approves at once and its incoming webhooks record what they are sent), Jira
 * (apps/server/test/fake-jira.ts) and a webhook receiver on 127.0.0.1, which the server may reach with
 * OUTGOING_ALLOW_PRIVATE=on. The tests run in order on one server: Slack is added through its OAuth
 * round trip, configured, told of a toggle and removed; Jira is connected and an issue linked to a
 * feature shows with its title; a webhook is created, tested, fails, and is resent.
 */

const EDITOR = 'editor@example.com';

/** A receiver of outgoing webhooks: records each request and answers `status` (200 unless told). */
type Receiver = {
  url: string;
  requests: { headers: IncomingMessage['headers']; body: string }[];
  status: number;
  close: () => Promise<void>;
};

async function startReceiver(): Promise<Receiver> {
  const receiver = { requests: [], status: 200 } as unknown as Receiver;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      receiver.requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(receiver.status, { 'content-type': 'text/plain' });
      res.end(receiver.status < 300 ? 'ok' : 'nope');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://localhost:${(server.address() as AddressInfo).port}/hooks/vexil`;
  receiver.close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return receiver;
}

let browser: Browser;
let server: RunningServer;
let slack: FakeSlack;
let jira: FakeJira;
let receiver: Receiver;

beforeAll(async () => {
  [browser, slack, jira, receiver] = await Promise.all([
    launchBrowser(),
    startFakeSlack({ channel: '#releases' }),
    startFakeJira({ issues: { 'SHOP-7': 'Dark mode for the storefront' } }),
    startReceiver(),
  ]);
  server = await startServer(
    {
      OUTGOING_ALLOW_PRIVATE: 'on',
      SECRETS_KEY: TEST_SECRETS_KEY,
      SLACK_CLIENT_ID: slack.clientId,
      SLACK_CLIENT_SECRET: slack.clientSecret,
      SLACK_API_URL: slack.apiUrl,
      SLACK_OAUTH_URL: slack.oauthUrl,
    },
    { prepare: (db) => addDemoUser(db, EDITOR, 'ROLE_ORGANISATION_EDITOR') },
  );
}, 120_000);
afterAll(async () => {
  await Promise.all([browser?.close(), server?.stop(), slack?.close(), jira?.close(), receiver?.close()]);
});

/** The screen at 1440 and 390 wide; `focus`, when given, scrolled into view first (below the fold on a phone). */
async function shots(page: Page, name: string, focus?: Locator): Promise<void> {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    if (focus) await focus.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await viewShot(page, `integrations-${name}-${width}`, width);
  }
  await page.setViewportSize(DESKTOP);
}

async function signedIn(email?: string): Promise<Page> {
  const { context, page } = await openPage(browser, server.url);
  onTestFinished(() => context.close());
  await page.setViewportSize(DESKTOP);
  await signIn(page, email ? { email } : {});
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  return page;
}

const toast = (page: Page, text: string | RegExp) => page.getByText(text).last().waitFor();

async function closeToasts(page: Page): Promise<void> {
  const buttons = page.locator('.mantine-Notification-closeButton');
  // A toast already closing cannot be clicked: it leaves by itself.
  for (const button of await buttons.all()) await button.click({ timeout: 1000 }).catch(() => undefined);
  await expect.poll(() => buttons.count(), { timeout: 5000 }).toBe(0);
}

async function openIntegrations(page: Page): Promise<void> {
  await page.goto('/admin/integrations');
  await page.getByRole('heading', { name: 'Integrations', level: 2 }).waitFor();
}

const installed = (page: Page) => page.getByRole('list', { name: 'Installed integrations' });

/** Toggles a feature in Development from the feature list. */
async function toggleInDevelopment(page: Page, name: string): Promise<void> {
  await page.goto(`/projects/sp/environments/development/features?q=${encodeURIComponent(name)}`);
  const toggle = page.getByRole('switch', { name: `${name} on in Development` });
  await toggle.waitFor();
  await toggle.click({ force: true }); // on the track, which covers the input
  await toast(page, 'Feature saved.');
}

async function choose(page: Page, field: Locator, option: string | RegExp): Promise<void> {
  await field.click();
  await page.getByRole('option', { name: option, exact: true }).first().click();
  await page.keyboard.press('Escape');
}

/** The address of a Slack message's "Open in Vexil" link. */
function openInVexil(body: unknown): string {
  const link = /<([^|>]+)\|Open in Vexil>/.exec(JSON.stringify(body))?.[1];
  expect(link).toBeTruthy();
  return link!;
}

/**
 * A teammate opens a link the product sent in a browser with no session: the organisation's sign-in
 * comes first (not the sign-up wizard), then the page the link names.
 */
async function opensInFreshBrowser(link: string, feature: string): Promise<void> {
  const { context, page } = await openPage(browser, server.url);
  onTestFinished(() => context.close());
  await page.setViewportSize(DESKTOP);
  expect(link.startsWith(`${server.url}/${DEMO_DOMAIN}/projects/`)).toBe(true);
  await page.goto(link);
  await page.getByRole('heading', { name: 'Sign in to Demo' }).waitFor();
  expect(new URL(page.url()).pathname).toBe(`/${DEMO_DOMAIN}/login`);
  await page.getByLabel('Email').fill(ADMIN_EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: feature, level: 1 }).waitFor();
  expect(new URL(page.url()).pathname).toBe(new URL(link).pathname.slice(`/${DEMO_DOMAIN}`.length));
}

describe('Integrations', () => {
  it('tells others than organisation admins that only admins manage integrations', async () => {
    const page = await signedIn(EDITOR);
    await page.goto('/admin/integrations');
    await page.getByText('Only organisation admins may manage integrations.').waitFor();
    await shots(page, 'non-admin');
  });

  it('adds Slack through its authorisation page, posts the changes its filters choose, and removes it', async () => {
    const page = await signedIn();
    await openIntegrations(page);
    await installed(page).or(page.getByText('No integrations are installed yet.')).waitFor();
    await shots(page, 'empty');

    await page.getByRole('button', { name: 'Add Slack' }).click();
    // Slack's page approves at once and sends the browser back through the server's callback.
    await page.waitForURL('**/admin/integrations?installed=slack');
    await page.getByText('Slack added').waitFor();
    const card = installed(page).getByRole('listitem', { name: 'Slack #releases' });
    await card.waitFor();
    expect(await card.textContent()).toContain('Demo Admin');
    expect(slack.exchanges).toEqual([expect.objectContaining({ ok: true })]);
    await shots(page, 'slack-added');

    // Only Development's toggles.
    await card.getByRole('button', { name: 'Configure Slack #releases' }).click();
    const dialog = page.getByRole('dialog', { name: 'Slack #releases' });
    await choose(page, dialog.getByRole('combobox', { name: 'Projects' }), 'Sample Project');
    await choose(page, dialog.getByRole('combobox', { name: 'Environments' }), 'Development');
    await choose(page, dialog.getByRole('combobox', { name: 'Events' }), 'Feature turned on or off');
    await shots(page, 'slack-filters');
    await dialog.getByRole('button', { name: 'Save filters' }).click();
    await toast(page, 'Integration filters saved.');
    await card.getByText('Feature turned on or off').waitFor();
    expect(await card.textContent()).toContain('Sample Project');

    await toggleInDevelopment(page, 'Dark mode');
    await expect.poll(() => slack.posts.length, { timeout: 15_000 }).toBe(1);
    expect(JSON.stringify(slack.posts[0]!.body)).toContain('Dark mode');
    await opensInFreshBrowser(openInVexil(slack.posts[0]!.body), 'Dark mode');

    await openIntegrations(page);
    await closeToasts(page);
    await installed(page).getByRole('button', { name: 'Remove Slack #releases' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove Slack' });
    await confirm.getByText('Remove the Slack integration posting to #releases?').waitFor();
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await toast(page, 'Integration removed.');
    await page.getByText('No integrations are installed yet.').waitFor();

    // Removed: the channel hears of nothing more.
    await toggleInDevelopment(page, 'Dark mode');
    await page.waitForTimeout(1500);
    expect(slack.posts).toHaveLength(1);
  });

  it('says why Slack was not added when the person cancels on Slack', async () => {
    const page = await signedIn();
    await openIntegrations(page);
    slack.denyNext();
    await page.getByRole('button', { name: 'Add Slack' }).click();
    await page.waitForURL('**/admin/integrations?error=denied');
    await page.getByText('Slack was not added: the authorisation was cancelled.').waitFor();
    await shots(page, 'slack-denied');
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await page.waitForURL((url) => url.search === '');
  });

  it('connects Jira, and a linked issue shows on the feature page with its title', async () => {
    const page = await signedIn();
    await openIntegrations(page);
    await page.getByRole('link', { name: 'Add Jira' }).click();
    await page.waitForURL(
      (url) => url.pathname === '/admin/integrations/jira/connect' && url.searchParams.has('token'),
    );
    await page.getByRole('heading', { name: 'Connect Jira' }).waitFor();
    const form = page.getByRole('form', { name: 'Jira connection' });
    await form.getByLabel('Base URL').fill(jira.url);
    await form.getByLabel('E-mail').fill(jira.email);
    await form.getByLabel('API token').fill('not-the-token');
    await shots(page, 'jira-connect');
    await form.getByRole('button', { name: 'Connect Jira' }).click();
    // Jira is asked first, and refuses the wrong token: said once, under the field.
    const refused = form.getByText('Jira refused this e-mail and API token.');
    await refused.waitFor();
    expect(await refused.count()).toBe(1);
    expect(await form.getByRole('alert').count()).toBe(0);
    expect(await refused.getAttribute('id')).toBe(
      (await form.getByLabel('API token').getAttribute('aria-describedby'))
        ?.split(' ')
        .find((id) => id.endsWith('-error')),
    );
    await shots(page, 'jira-connect-refused');

    await form.getByLabel('API token').fill(jira.apiToken);
    await form.getByRole('button', { name: 'Connect Jira' }).click();
    await toast(page, 'Jira connected.');
    await page.waitForURL(/\/admin\/integrations\/jira\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: 'Jira', level: 2 }).waitFor();
    await page.getByText('A token is stored; leave empty to keep it.').waitFor();
    expect(await page.getByLabel('API token').inputValue()).toBe('');
    await closeToasts(page);
    await shots(page, 'jira-connection');

    await openIntegrations(page);
    await installed(page)
      .getByRole('listitem', { name: `Jira ${jira.url}` })
      .waitFor();
    await page.getByRole('link', { name: 'Jira settings' }).waitFor();
    await shots(page, 'installed', installed(page));

    // Link an issue to Dark mode from the Link feature page, as a link from Jira opens it.
    await page.goto('/features/link?issueKey=SHOP-7&project=sp');
    await page.getByRole('combobox', { name: 'Feature' }).click();
    await page
      .getByRole('option', { name: /Dark mode/ })
      .first()
      .click();
    await page.getByRole('button', { name: 'Link Feature' }).click();
    await toast(page, 'Dark mode is linked to SHOP-7.');
    await page.getByRole('heading', { name: 'Dark mode', level: 1 }).waitFor();
    const issue = page.getByRole('link', { name: 'SHOP-7 Dark mode for the storefront' });
    await issue.waitFor();
    expect(await issue.getAttribute('href')).toBe(`${jira.url}/browse/SHOP-7`);
    await closeToasts(page);
    await shots(page, 'feature-issue');

    // Jira unreachable: a new issue's key still shows, without its title.
    jira.down();
    onTestFinished(() => jira.down(false));
    await page.goto('/features/create?issueKey=SHOP-8');
    await page.getByRole('heading', { name: 'Create feature', level: 1 }).waitFor();
    const create = page.getByRole('form', { name: 'Create feature' });
    expect(await create.getByRole('textbox', { name: 'Issue key' }).inputValue()).toBe('SHOP-8');
    await choose(page, create.getByRole('combobox', { name: 'Project' }), /^Sample Project/);
    await create.getByRole('textbox', { name: 'Name', exact: true }).fill('Gift cards');
    await create.getByRole('button', { name: 'Create Feature' }).click();
    await page.getByRole('heading', { name: 'Gift cards', level: 1 }).waitFor();
    const bare = page.getByRole('list', { name: 'Issues' }).getByRole('listitem');
    await expect.poll(() => bare.textContent()).toBe('SHOP-8');
  });

  it('sends a project’s changes to a webhook, logs each delivery, and resends a failed one', async () => {
    const page = await signedIn();
    await page.goto('/admin/projects/sp');
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByText('This project has no webhooks yet.').waitFor();
    const section = page.getByRole('region', { name: 'Webhooks' });
    await shots(page, 'webhooks-empty', section);

    await page.getByRole('button', { name: 'New webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'New webhook' });
    await dialog.getByLabel('Payload URL').fill(receiver.url);
    await dialog.getByLabel('Description').fill('Release notes bot');
    await dialog.getByRole('checkbox', { name: 'Feature created' }).check();
    await shots(page, 'webhook-form');
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    await toast(page, 'Webhook created.');
    const secret = await dialog.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    await closeToasts(page);
    await shots(page, 'webhook-secret');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // Shown once: nowhere on the page any more.
    expect(await page.content()).not.toContain(secret);

    const card = page.getByRole('listitem', { name: receiver.url });
    await card.getByRole('button', { name: 'Send test' }).click();
    await toast(page, /^Test delivery succeeded: HTTP 200 in \d+ ms\.$/);
    expect(receiver.requests).toHaveLength(1);
    const [test] = receiver.requests;
    expect(test!.headers['webhook-id']).toBeTruthy();
    expect(test!.headers['webhook-signature']).toMatch(/^v1,/);
    expect(JSON.parse(test!.body)).toMatchObject({ type: 'webhook.test' });
    await card.getByText('Succeeded').waitFor();
    await closeToasts(page);
    await shots(page, 'webhooks', section);

    // A failing receiver: the test delivery fails, and the log says why.
    receiver.status = 500;
    await card.getByRole('button', { name: 'Send test' }).click();
    await toast(page, /^Test delivery failed/);
    await card.getByRole('button', { name: 'Deliveries' }).click();
    const log = page.getByRole('dialog', { name: 'Deliveries' });
    const table = log.getByRole('table', { name: 'Deliveries' });
    await table.waitFor();
    const rows = table.getByRole('row');
    await expect.poll(() => rows.count()).toBe(3);
    const failed = rows.nth(1);
    expect(await failed.textContent()).toContain('Failed');
    expect(await failed.textContent()).toContain('500');
    await closeToasts(page);
    await shots(page, 'deliveries-failed');

    // The receiver recovers: Resend sends the same event again, with the same webhook-id.
    receiver.status = 200;
    await failed.getByRole('button', { name: 'Resend' }).click();
    await toast(page, 'Resend queued: the delivery log shows how it goes.');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(4);
    await expect.poll(() => rows.nth(1).textContent(), { timeout: 15_000 }).toContain('Succeeded');
    const ids = receiver.requests.map((request) => request.headers['webhook-id']);
    expect(ids).toHaveLength(3);
    expect(ids[2]).toBe(ids[1]);
    await closeToasts(page);
    await shots(page, 'deliveries');
    await page.keyboard.press('Escape');

    // A change of the project reaches it too.
    await toggleInDevelopment(page, 'Search v2');
    await expect
      .poll(() => receiver.requests.map((request) => (JSON.parse(request.body) as { type: string }).type), {
        timeout: 15_000,
      })
      .toContain('feature.toggled');
    const toggled = receiver.requests
      .map((request) => JSON.parse(request.body) as { type: string; data: { url: string } })
      .find((event) => event.type === 'feature.toggled');
    expect(toggled!.data.url).toBe(
      `${server.url}/${DEMO_DOMAIN}/projects/sp/environments/development/features/search-v2`,
    );
  });
});
