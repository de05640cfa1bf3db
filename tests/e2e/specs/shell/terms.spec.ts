import { expect, test } from '../../fixtures/test.ts';

// The variant for users who may not accept (the administrator's variant is in onboarding.spec.ts).
test.use({ account: 'member', freshSession: true });

test('a member sees who must accept, cannot close it, and can only log out', async ({
  page,
  termsModal,
  loginPage,
}) => {
  await page.goto('/dashboard');
  await expect(termsModal.dialog).toBeVisible();
  await expect(termsModal.dialog).toContainText(
    "New terms must be accepted for your organization before you can continue. Please ask your organization's administrator to accept them.",
  );
  await expect(
    termsModal.alert('Only an administrator of your organization can accept these terms.'),
  ).toBeVisible();
  await expect(termsModal.dialog.getByRole('checkbox')).toHaveCount(0);
  await expect(termsModal.accept).toHaveCount(0);
  await expect(termsModal.closeIcon).toHaveCount(0);

  // Neither Escape nor a click beside it closes it.
  await page.keyboard.press('Escape');
  await page.mouse.click(5, 5);
  await expect(termsModal.dialog).toBeVisible();

  await termsModal.logOut.click();
  await expect(page).toHaveURL('/login');
  await expect(loginPage.email).toBeVisible();
});
