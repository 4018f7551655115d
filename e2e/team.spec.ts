import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { startTestMailServer, type TestMailServer } from '../apps/server/test/smtp-server';
import { launchBrowser, openPage, signIn, viewShot } from './support/browser';
import { ADMIN_PASSWORD, addDemoUser, startServer, type RunningServer } from './support/server';
import { DESKTOP } from './support/api';

/*
 * Team Management (docs/product.md §2, §4, §5, §8) against a real mail server: the product's
 * invitations go out over SMTP to a server the spec runs, and the spec reads what arrived. A server
 * of its own, with an editor and a read-only teammate to change and remove.
 */

const EDITOR = 'editor@example.com';
const VIEWER = 'viewer@example.com';
const MAIL_FROM = 'no-reply@vexil.test';

let browser: Browser;
let server: RunningServer;
let mail: TestMailServer;

beforeAll(async () => {
  mail = await startTestMailServer();
  [browser, server] = await Promise.all([
    launchBrowser(),
    startServer(
      { SMTP_URL: mail.url, MAIL_FROM: `Vexil <${MAIL_FROM}>` },
      {
        prepare: async (db) => {
          await addDemoUser(db, EDITOR, 'ROLE_ORGANISATION_EDITOR');
          await addDemoUser(db, VIEWER, 'ROLE_ORGANISATION_READONLY_USER');
        },
      },
    ),
  ]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), server?.stop()]);
  await mail?.close();
});

async function signedIn(email?: string): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await openPage(browser, server.url);
  await signIn(opened.page, email ? { email, password: ADMIN_PASSWORD } : {});
  await opened.page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  return opened;
}

async function openTeam(page: Page): Promise<void> {
  await page.goto('/admin/users');
  await page.getByRole('heading', { name: 'Team Management' }).waitFor();
  await page.getByRole('table', { name: 'Members' }).waitFor();
}

function row(page: Page, email: string): Locator {
  return page.getByRole('row').filter({ hasText: email });
}

async function toast(page: Page, text: string): Promise<void> {
  await page.getByText(text, { exact: true }).first().waitFor();
}

/** Closes the toasts, so that a screenshot shows the screen under them. */
async function closeToasts(page: Page): Promise<void> {
  const buttons = page.locator('.mantine-Notification-closeButton');
  for (let left = await buttons.count(); left > 0; left--) await buttons.first().click();
  await page.locator('.mantine-Notification-root').first().waitFor({ state: 'detached' });
}

describe('Team Management', () => {
  it('invites two people by e-mail, cancels one invitation; the other receives a link to /invited/…', async () => {
    const { context, page } = await signedIn();
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Admin' }).click();
    await page.getByRole('tab', { name: 'Team' }).click();
    await page.getByRole('heading', { name: 'Team Management' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/users');
    expect(await row(page, 'admin@example.com').textContent()).toContain('(You)');
    expect(await row(page, EDITOR).getByText('Non-Production editor').isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Invite Users' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite Users' });
    await dialog.getByRole('button', { name: 'Send Invitations' }).click();
    await dialog.getByText('Required', { exact: true }).waitFor();
    await dialog.getByRole('textbox', { name: 'Email' }).fill('not an address');
    await dialog.getByText('Email must be valid').waitFor();
    await dialog.getByRole('textbox', { name: 'Email' }).fill('ada@example.com');
    await dialog.getByRole('textbox', { name: 'First name' }).fill('Ada');
    await dialog.getByRole('textbox', { name: 'Last name' }).fill('Lovelace');
    await dialog.getByRole('button', { name: 'Add another' }).click();
    await dialog.getByRole('textbox', { name: 'Email 2' }).fill('bob@example.com');
    await viewShot(page, 'team-invite-1440', 1440);
    await viewShot(page, 'team-invite-390', 390);
    await page.setViewportSize(DESKTOP);
    await dialog.getByRole('button', { name: 'Send Invitations' }).click();
    await toast(page, 'Invitations sent.');
    await dialog.waitFor({ state: 'detached' });
    await row(page, 'ada@example.com').getByText('Invitation Pending').waitFor();
    await row(page, 'bob@example.com').getByText('Invitation Pending').waitFor();
    expect(
      await row(page, 'ada@example.com')
        .getByRole('button', { name: /Edit Member/ })
        .count(),
    ).toBe(0);

    // Both e-mails arrived at the mail server, from MAIL_FROM, each with its own link.
    const received = await mail.waitFor(2);
    const ada = received.find((m) => m.to.includes('ada@example.com'))!;
    expect(ada.from).toBe(MAIL_FROM);
    expect(ada.message.subject).toBe('Demo Admin invited you to join Demo on Vexil');
    const link = /(http:\/\/localhost:\d+\/invited\/vxi_[A-Za-z0-9_-]+)/.exec(ada.message.text ?? '')?.[1];
    expect(link).toBeDefined();
    expect(link!.startsWith(`${server.url}/invited/`)).toBe(true);
    const bob = received.find((m) => m.to.includes('bob@example.com'))!;
    expect(bob.message.text).not.toContain(link!);

    // Bob's invitation is cancelled after a confirmation.
    await row(page, 'bob@example.com')
      .getByRole('button', { name: 'Cancel Invite to bob@example.com' })
      .click();
    const confirmDialog = page.getByRole('dialog', { name: 'Cancel Invite' });
    await confirmDialog.getByRole('button', { name: 'Cancel Invite' }).click();
    await toast(page, 'Invitation cancelled.');
    await row(page, 'bob@example.com').waitFor({ state: 'detached' });
    await closeToasts(page);
    await viewShot(page, 'team-1440', 1440);
    await viewShot(page, 'team-390', 390);
    await page.setViewportSize(DESKTOP);

    // The e-mail as Ada's mail client shows it: its button leads to the link (the page it opens
    // belongs to sign-up).
    const mailPage = await context.newPage();
    await mailPage.setContent(ada.message.html as string);
    expect(await mailPage.getByRole('link', { name: 'Accept the invitation' }).getAttribute('href')).toBe(
      link,
    );
    expect(await mailPage.getByText('Demo Admin invited you to join Demo on Vexil').isVisible()).toBe(true);
    await viewShot(mailPage, 'team-invitation-mail-1440', 1440);
    await context.close();
  });

  it('shows the link to copy when the e-mail could not be sent', async () => {
    const { context, page } = await signedIn();
    await openTeam(page);
    mail.refuseRecipients(true);
    try {
      await page.getByRole('button', { name: 'Invite Users' }).click();
      const dialog = page.getByRole('dialog', { name: 'Invite Users' });
      await dialog.getByRole('textbox', { name: 'Email' }).fill('carol@example.com');
      await dialog.getByRole('button', { name: 'Send Invitations' }).click();
      await dialog.getByText('Some invitations were not e-mailed').waitFor();
      expect(await dialog.getByRole('alert').textContent()).toContain(
        '1 of 1 invitation e-mail(s) could not be sent: the mail server refused the sender or the recipient (550).',
      );
      const link = await dialog
        .getByRole('textbox', { name: 'Invitation link for carol@example.com' })
        .inputValue();
      expect(link).toMatch(new RegExp(`^${server.url}/invited/vxi_`));
      await viewShot(page, 'team-invite-failed-1440', 1440);
      await dialog.getByRole('button', { name: 'Done' }).click();
      await row(page, 'carol@example.com').getByText('Invitation Pending').waitFor();
    } finally {
      mail.refuseRecipients(false);
    }
    // Sent again once the mail server takes it.
    const before = mail.received.length;
    await row(page, 'carol@example.com')
      .getByRole('button', { name: 'Resend Invite to carol@example.com' })
      .click();
    await toast(page, 'Invitation sent again to carol@example.com.');
    const [carol] = (await mail.waitFor(before + 1)).slice(before);
    expect(carol!.to).toEqual(['carol@example.com']);
    await context.close();
  });

  it("changes a member's role, and removes a member whose open session then ends", async () => {
    const viewer = await signedIn(VIEWER);
    // The editor's own dashboard: a production switch they may not use yet.
    const editor = await signedIn(EDITOR);
    const productionSwitch = editor.page.getByRole('switch', { name: 'New checkout on in Production' });
    await editor.page.goto('/projects/sp/environments/production/features');
    await productionSwitch.waitFor();
    expect(await productionSwitch.isDisabled()).toBe(true);
    const { context, page } = await signedIn();
    await openTeam(page);

    await row(page, EDITOR)
      .getByRole('button', { name: `Edit Member ${EDITOR}` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Update User' });
    expect(await dialog.getByRole('textbox', { name: 'Email' }).getAttribute('readonly')).not.toBeNull();
    await dialog.getByRole('textbox', { name: 'First name' }).fill('');
    await dialog.getByRole('button', { name: 'Update User' }).click();
    await dialog.getByText('First name is required').waitFor();
    await dialog.getByRole('textbox', { name: 'First name' }).fill('Grace');
    await dialog.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Production editor', exact: true }).click();
    await viewShot(page, 'team-update-1440', 1440);
    await viewShot(page, 'team-update-390', 390);
    await page.setViewportSize(DESKTOP);
    await dialog.getByRole('button', { name: 'Update User' }).click();
    await toast(page, 'Grace Editor saved.');
    await row(page, EDITOR).getByText('Production editor', { exact: true }).waitFor();
    // The promotion shows in the editor's dashboard at its next load: the switch is theirs now.
    await editor.page.reload();
    await productionSwitch.waitFor();
    expect(await productionSwitch.isEnabled()).toBe(true);
    await editor.context.close();

    // The admin's own role cannot be changed.
    await row(page, 'admin@example.com')
      .getByRole('button', { name: 'Edit Member admin@example.com' })
      .click();
    const own = page.getByRole('dialog', { name: 'Update User' });
    expect(await own.getByRole('combobox', { name: 'Role' }).isDisabled()).toBe(true);
    await own.getByText('You cannot change your own role.').waitFor();
    await own.getByRole('button', { name: 'Cancel' }).click();
    await own.waitFor({ state: 'detached' });

    await row(page, VIEWER)
      .getByRole('button', { name: `Remove ${VIEWER}` })
      .click();
    const confirmDialog = page.getByRole('dialog', { name: 'Remove Member' });
    await confirmDialog.getByRole('button', { name: 'Remove Member' }).click();
    await toast(page, 'User has been removed');
    await row(page, VIEWER).waitFor({ state: 'detached' });

    // The removed member's open dashboard is signed out on its next call.
    await viewer.page.goto('/admin/audit');
    await viewer.page.waitForURL(/\/login$/);
    await viewer.context.close();
    await context.close();
  });

  it('Sign out everywhere on the profile ends every session of the user', async () => {
    const other = await signedIn(EDITOR);
    const { context, page } = await signedIn(EDITOR);
    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
    await viewShot(page, 'profile-sessions-1440', 1440);
    await viewShot(page, 'profile-sessions-390', 390);
    await page.setViewportSize(DESKTOP);
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page
      .getByRole('dialog', { name: 'Sign out everywhere' })
      .getByRole('button', { name: 'Sign out everywhere' })
      .click();
    await page.waitForURL(/\/login$/);
    await other.page.goto('/home');
    await other.page.waitForURL(/\/login$/);
    await Promise.all([context.close(), other.context.close()]);
  });
});
