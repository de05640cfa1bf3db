import { readFileSync } from 'node:fs';

import type { TLearner } from '@ccp/schemas';

import { expect, test } from '../../fixtures/test.ts';
import { antdSelectOption } from '../../helpers/antd.ts';
import { apiData, apiPostData } from '../../requests/api.ts';

test.use({ account: 'creator' });

// An Italian HR sheet as it comes from the wild: semicolons, Italian headers, national mobile
// numbers, a column the matcher cannot know ("Recapito"), no channel column, one bad e-mail.
const hrSheet = (suffix: string) =>
  [
    'Nome;Cognome;Email;Recapito;Reparto',
    `Giulia;Bianchi;giulia.${suffix}@example.it;333 1234567;Vendite`,
    `Marco;Ferri;marco.${suffix}@example.it;347 7654321;Vendite`,
    `Sara;Conti;sara.${suffix}@example;;Logistica`,
  ].join('\n');

test('an Italian HR sheet: one mapping fixed, a default channel, imported into a list, its error report downloaded', async ({
  page,
  tokens,
}) => {
  test.slow();
  const suffix = Date.now().toString(36);
  const list = await apiPostData<{ uuid: string; name: string }>(
    page.request,
    tokens!.access_token,
    '/api/v1/learners-lists',
    { name: `HR ${suffix}` },
  );
  // antd puts a Select's aria-label on its box and on its input: the box shows the value.
  const combobox = (name: string) => page.getByRole('combobox', { name, exact: true });
  const select = (name: string) =>
    page.locator('.ant-select').filter({ has: page.getByRole('combobox', { name, exact: true }) });
  await page.goto('/learners/upload');
  await page.locator('input[type=file]').setInputFiles({
    name: 'dipendenti.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(hrSheet(suffix)),
  });

  // The matcher read the Italian names; "Recapito" it cannot know, and there is no channel.
  await expect(select('Learner field of the column Nome')).toContainText('First name');
  await expect(select('Learner field of the column Recapito')).toContainText('Do not import');
  await expect(page.getByRole('alert')).toContainText('The file has no column for: channels.');
  await expect(page.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();

  await antdSelectOption(page, combobox('Learner field of the column Recapito'), 'Phone');
  await antdSelectOption(page, combobox('Channels for rows without any'), 'WhatsApp');
  await page.keyboard.press('Escape');
  await antdSelectOption(page, combobox('Language for rows without one'), 'Italian');
  // The first rows, checked by the shared rules: two ready, the bad e-mail said in words.
  const check = page.locator('.ant-table').last();
  await expect(check.getByText('Ready')).toHaveCount(2);
  await expect(check).toContainText('The email must be valid.');
  // Issue 26: a country chosen beside the phone column reads its numbers there (these Italian
  // mobiles are no Irish numbers); cleared, the column is read in the file's country again.
  const recapitoCountry = 'Country of the numbers without + in the column Recapito';
  await antdSelectOption(page, combobox(recapitoCountry), 'Ireland +353');
  await expect(check.getByText('Ready')).toHaveCount(0);
  await expect(check).toContainText('The phone 333 1234567 is not a valid number of IE');
  await select(recapitoCountry).hover();
  await select(recapitoCountry).locator('.ant-select-clear').click();
  await expect(check.getByText('Ready')).toHaveCount(2);

  await antdSelectOption(page, combobox('Add the imported learners to a list'), list.name);
  await page.getByRole('button', { name: 'Import', exact: true }).click();

  await expect(page).toHaveURL(/\/learners\/upload\?job=[0-9a-f-]{36}$/);
  await expect(page.getByText('dipendenti.csv is imported')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('status')).toContainText('3 rows read, 1 failed.');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download the error report' }).click();
  const report = readFileSync(await (await download).path(), 'utf8');
  expect(report).toContain(`sara.${suffix}@example`);
  expect(report).toContain('The email must be valid.');

  // Coming back to the job's address shows it again.
  await page.reload();
  await expect(page.getByText('dipendenti.csv is imported')).toBeVisible();

  await page.getByRole('link', { name: `See the learners of ${list.name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/learners\\?list=${list.uuid}$`));
  await expect(page.getByText(`giulia.${suffix}@example.it`)).toBeVisible();
  const found = await apiData<TLearner[]>(page.request, tokens!.access_token, '/api/v1/learners', {
    search: `giulia.${suffix}`,
  });
  expect(found).toEqual([
    expect.objectContaining({
      phone: '+393331234567',
      locale: 'it',
      channels: [expect.objectContaining({ key: 'whatsapp' })],
    }),
  ]);
});

test('an old .xls is refused before any byte is sent, with what to do', async ({ page }) => {
  await page.goto('/learners/upload');
  await page.locator('input[type=file]').setInputFiles({
    name: 'old.xls',
    mimeType: 'application/vnd.ms-excel',
    buffer: Buffer.from('not really excel'),
  });
  await expect(page.getByRole('alert')).toHaveText(
    'Old Excel .xls files cannot be imported. Save the file as .xlsx or .csv and upload it again.',
  );
  await expect(page.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
});
