import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { newAccount, signIn } from './support/auth';
import { waitForMail } from './support/mail';
import { snapAtBothWidths } from './support/screenshots';

/**
 * Accounts that recover and alerts before the cap, as a buyer lives them: sign up,
 * find that an unconfirmed account cannot buy, confirm through the email that arrived at the run's SMTP server, buy in
 * test mode, get the 80% alert by email, forget the password and reset it, sign in with the new one. Every new page
 * is scanned with axe and photographed at 1366 and 390 px (e2e/artifacts/screenshots/recovery-*.png).
 */

test('sign up, confirm by email, buy, 80% alert arrives, reset the password, sign in', async ({ page }) => {
  test.setTimeout(300_000);
  const account = newAccount();
  const listing = await (await page.request.get('/api/marketplace/knowledge-bases?query=constitution&category=legal')).json();
  const kbId = (listing.items as { id: string; title: string }[]).find((i) => i.title === 'U.S. Constitution Companion')!.id;

  // Sign up: the answer is "check your inbox", and nobody is signed in yet.
  await page.goto(`/signup?callbackUrl=${encodeURIComponent(`/knowledge-bases/${kbId}`)}`);
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Check your inbox')).toBeVisible();
  await snapAtBothWidths(page, 'recovery-signup-sent');

  // An unconfirmed account can sign in and browse, but buying asks for the confirmation first, with "Resend".
  await signIn(page, account, `/knowledge-bases/${kbId}`);
  await page.getByRole('button', { name: /Buy Starter/ }).click();
  await expect(page).toHaveURL(/\/account\/settings\?error=verify_first/);
  await expect(page.getByText('Confirm your email address before buying')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'settings, unconfirmed');
  await snapAtBothWidths(page, 'recovery-settings-unconfirmed');
  const resentAt = Date.now();
  await page.getByRole('button', { name: 'Resend verification email' }).click();
  await expect(page.getByText('We sent a new verification link')).toBeVisible();

  // The newest link (the first one no longer works) confirms the address.
  const verification = await waitForMail(account.email, 'Confirm your email address', { after: resentAt - 1000 });
  expect(verification.link).toMatch(/\/verify-email\?token=/);
  await page.goto(verification.link!);
  await expectNoSeriousA11yViolations(page, 'verify email');
  await snapAtBothWidths(page, 'recovery-verify-email');
  await page.getByRole('button', { name: 'Confirm my email address' }).click();
  await expect(page.getByText('Your email address is confirmed')).toBeVisible();

  // Buy in test mode; a second (replacement) key shares the subscription's cap but has its own rate limit.
  await page.goto(`/knowledge-bases/${kbId}`);
  await page.getByRole('button', { name: /Buy Starter/ }).click();
  await page.getByRole('button', { name: 'Complete test purchase' }).click();
  await expect(page).toHaveURL(/\/checkout\/success\?handoff=/);
  const firstKey = (await page.getByTestId('api-key').textContent())!.trim();
  await page.getByRole('link', { name: 'Go to your subscription' }).click();
  await expect(page).toHaveURL(/\/account\/subscriptions\/sub_/);
  const subscriptionUrl = page.url();
  await page.getByRole('button', { name: 'Create replacement key' }).click();
  await expect(page).toHaveURL(/\/account\/keys\/reveal\?handoff=/);
  const secondKey = (await page.getByTestId('api-key').textContent())!.trim();

  // 80 counted searches of the Starter plan's 100 (60 a minute per key): the 80% alert arrives by email, once.
  const search = (key: string) =>
    page.request.post(`/kb/${kbId}/search`, { headers: { Authorization: `Bearer ${key}` }, data: { query: 'What does the First Amendment protect?' } });
  const statuses: number[] = [];
  for (const [key, count] of [
    [firstKey, 50],
    [secondKey, 30],
  ] as const) {
    for (let sent = 0; sent < count; sent += 10) {
      const batch = await Promise.all(Array.from({ length: 10 }, () => search(key)));
      for (const res of batch) {
        statuses.push(res.status());
        if (res.status() === 200) expect((await res.json()).results.length).toBeGreaterThan(0);
      }
    }
  }
  expect(statuses.filter((s) => s === 200)).toHaveLength(80);
  const alert = await waitForMail(account.email, 'You have used 80% of your U.S. Constitution Companion queries');
  expect(alert.text).toContain('has used 80 of its 100 queries this period (80%)');
  await page.goto(subscriptionUrl);
  await expect(page.getByRole('region', { name: 'Usage alerts' })).toContainText('This period: 80% on');
  await expectNoSeriousA11yViolations(page, 'subscription with usage alerts');
  await snapAtBothWidths(page, 'recovery-subscription-alerts');

  // Forgot the password: the reset link arrives, works once, and the new password signs in.
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await page.goto('/signin');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Email').fill(account.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText('Check your inbox')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'forgot password');
  await snapAtBothWidths(page, 'recovery-forgot-password-sent');

  const reset = await waitForMail(account.email, 'Reset your Almanac password');
  await page.goto(reset.link!);
  await page.waitForLoadState('networkidle');
  await page.getByLabel('New password').fill('password123');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('one of the most common ones')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'reset password');
  await snapAtBothWidths(page, 'recovery-reset-password');
  const newPassword = 'a new and rather long passphrase';
  await page.getByLabel('New password').fill(newPassword);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page).toHaveURL(/\/signin\?reset=1/);
  await expect(page.getByText('Your password was changed')).toBeVisible();

  // The link does not work twice; the old password no longer signs in; the new one does.
  await page.goto(reset.link!);
  await expect(page.getByText('This link cannot be used')).toBeVisible();
  await page.goto('/signin');
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('That email and password do not match an account.')).toBeVisible();
  await signIn(page, { email: account.email, password: newPassword }, '/account/settings');
  await expect(page.getByText('Confirmed', { exact: true })).toBeVisible();
  await snapAtBothWidths(page, 'recovery-settings');
});
