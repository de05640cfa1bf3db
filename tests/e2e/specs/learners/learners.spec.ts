import type { TLearner } from '@ccp/schemas';

import { expect, test } from '../../fixtures/test.ts';
import { antdSelectOption } from '../../helpers/antd.ts';
import { LearnersPage } from '../../pom/learners-page.ts';
import { apiClassrooms, apiData, apiPostData } from '../../requests/api.ts';

test.use({ account: 'creator' });

test('a new learner with an Italian national phone is stored as +39…, then edited and seen', async ({
  page,
  tokens,
}) => {
  const suffix = Date.now().toString(36).replace(/\d/g, '');
  const last = `Verdi${suffix.slice(0, 6)}`;
  await page.goto('/learners/mode/new');
  await page.getByLabel('First name').fill('Giulia');
  await page.getByLabel('Last name').fill(last);
  await antdSelectOption(page, page.getByLabel('Channels'), 'WhatsApp');
  await page.keyboard.press('Escape');
  await page.getByLabel('Phone', { exact: true }).fill('333 123 4567');
  await page.getByRole('button', { name: 'Create learner' }).click();
  await expect(
    page.locator('.ant-notification-notice').filter({ hasText: 'Learner created.' }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/learners\/view\/[0-9a-f-]{36}$/);
  const uuid = page.url().split('/').pop()!;
  const read = () =>
    apiData<TLearner>(page.request, tokens!.access_token, `/api/v1/learners/${uuid}`);
  expect((await read()).phone).toBe('+393331234567');
  await expect(page.getByText('+393331234567')).toBeVisible();

  // The record round-trips through the form: channels and lists as the API answers them.
  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByLabel('Phone', { exact: true })).toHaveValue('333 123 4567');
  await page.getByLabel('E-mail').fill(`giulia.${suffix}@example.test`);
  await antdSelectOption(page, page.getByLabel('Channels'), 'Slack');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(
    page.locator('.ant-notification-notice').filter({ hasText: 'Learner updated.' }),
  ).toBeVisible();
  const updated = await read();
  expect(updated.channels.map((channel) => channel.key).sort()).toEqual(['slack', 'whatsapp']);
  expect(updated.phone).toBe('+393331234567');

  // An e-mail channel without an e-mail: the shared rule under its field, nothing sent.
  await page.goto(`/learners/mode/${uuid}`);
  await page.getByLabel('E-mail').fill('');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(
    page
      .locator('.ant-form-item')
      .filter({ has: page.getByLabel('E-mail') })
      .locator('.ant-form-item-explain-error'),
  ).toHaveText('The email is required for this channel.');
});

test('archive is refused while the learner is in a course; archive and restore otherwise', async ({
  page,
  tokens,
}) => {
  const learners = new LearnersPage(page);
  const token = tokens!.access_token;
  // A learner of a list the active course delivers to cannot be archived: the spec's message.
  const [room] = await apiClassrooms(page.request, token);
  const courses = await apiData<
    { uuid: string; status: string; learners_lists: { uuid: string }[] }[]
  >(page.request, token, `/api/v1/classrooms/${room!.uuid}/courses`, { paginate: 'false' });
  const running = courses.find((course) => course.status === 'active')!;
  const [busy] = await apiData<TLearner[]>(
    page.request,
    token,
    `/api/v1/learners/learners-lists/${running.learners_lists[0]!.uuid}`,
  );
  const busyName = `${busy!.first_name} ${busy!.last_name}`;
  await learners.goto(`?q=${encodeURIComponent(busy!.email ?? busy!.last_name)}`);
  await learners
    .row(busyName)
    .getByRole('button', { name: `Archive ${busyName}` })
    .click();
  await expect(learners.toast(`${busyName} could not be archived.`)).toBeVisible();
  // The refusal names the course (the first of the learner's active courses by name).
  await expect(learners.toast(/The learner is taking “.+” and cannot be archived\./)).toBeVisible();

  // A learner made for this test, in no list: archived, then restored from the archive.
  const stamp = Date.now();
  const created = await apiPostData<TLearner>(page.request, token, '/api/v1/learners', {
    first_name: 'Archivable',
    last_name: 'Tester',
    email: `archivable.${stamp}@example.test`,
    channels: ['slack'],
  });
  const name = 'Archivable Tester';
  await learners.goto(`?q=${encodeURIComponent(created.email!)}`);
  await learners
    .row(name)
    .getByRole('button', { name: `Archive ${name}` })
    .click();
  await expect(learners.toast(`${name} was archived.`)).toBeVisible();
  await expect(learners.row(name)).toHaveCount(0);

  await page.getByText('Archive', { exact: true }).click();
  await expect(page).toHaveURL(/archived=1/);
  await learners
    .row(name)
    .getByRole('button', { name: `Restore ${name}` })
    .click();
  await expect(learners.toast(`${name} was restored.`)).toBeVisible();
  await expect(learners.row(name)).toHaveCount(0);
});

test('lists: a new list, its learners, the one-second modal when deleted; load more and search', async ({
  page,
}) => {
  const learners = new LearnersPage(page);
  await learners.goto();
  await expect(learners.shown()).toHaveText(/^25 of \d+ learners$/);
  await learners.loadMore.click();
  await expect(learners.shown()).toHaveText(/^50 of \d+ learners$/);
  await expect(learners.rows()).toHaveCount(50);

  const first = (await learners.rows().first().getByRole('link').first().innerText()).trim();
  await learners.search.fill(first.split(' ')[0]!);
  await expect(learners.row(first)).toBeVisible();
  await expect(page).toHaveURL(/q=/);

  const listName = `Pilot ${Date.now()}`;
  await page.goto('/learners/list/create');
  await page.getByLabel('Name').fill(listName);
  await page.getByRole('button', { name: 'Create list' }).click();
  await expect(page).toHaveURL(/\/learners\?list=[0-9a-f-]{36}$/);
  await expect(learners.list(listName)).toBeVisible();
  await expect(page.getByText('No learner here yet.', { exact: false })).toBeVisible();

  await learners.lists.getByRole('button', { name: `Delete the list ${listName}` }).click();
  await learners
    .confirm(`Delete the list “${listName}”?`)
    .getByRole('button', { name: 'Delete list' })
    .click();
  const gone = page.getByRole('dialog').filter({ hasText: `The list “${listName}” was deleted.` });
  await expect(gone).toBeVisible();
  // It closes by itself after a second (spec §9).
  await expect(gone).toBeHidden({ timeout: 3_000 });
  await expect(learners.list(listName)).toHaveCount(0);
});

test('a learner’s page shows each course day: answered right, wrong, missed, with the answer', async ({
  page,
  tokens,
}) => {
  // A demo learner with a right, a wrong and a missed answer (the demo has a few dozen).
  let chosen: string | null = null;
  for (let pageNumber = 1; pageNumber <= 5 && !chosen; pageNumber += 1) {
    const list = await apiData<TLearner[]>(page.request, tokens!.access_token, '/api/v1/learners', {
      per_page: '100',
      page: String(pageNumber),
    });
    for (const learner of list) {
      const insights = await apiData<{ courses: { days: { state: string }[] }[] }>(
        page.request,
        tokens!.access_token,
        `/api/v1/analytics/learners/${learner.uuid}`,
      );
      const states = new Set(
        insights.courses.flatMap((course) => course.days.map((day) => day.state)),
      );
      if (states.has('correct') && states.has('wrong') && states.has('not_answered')) {
        chosen = learner.uuid;
        break;
      }
    }
  }
  expect(chosen).not.toBeNull();
  await page.goto(`/learners/view/${chosen}`);
  await expect(page.locator('[data-state="correct"]').first()).toHaveText('Answered correctly');
  await expect(page.locator('[data-state="wrong"]').first()).toHaveText('Answered wrongly');
  await expect(page.locator('[data-state="not_answered"]').first()).toHaveText('Not answered');
  // The answer a learner tapped shows on its day.
  const answered = page
    .locator('tr')
    .filter({ has: page.locator('[data-state="wrong"]') })
    .first();
  await expect(answered.locator('td').nth(4)).not.toHaveText('—');
});
