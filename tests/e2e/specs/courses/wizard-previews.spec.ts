import type { TCourse } from '@ccp/schemas';

import { expect, test } from '../../fixtures/test.ts';
import { antdSelectOption } from '../../helpers/antd.ts';
import { CourseWizard } from '../../pom/course-wizard.ts';
import { apiClassrooms, apiData } from '../../requests/api.ts';
import { apiCourse, apiLesson } from '../../requests/courses.ts';

// What the wizard shows before anything is sent: the calendar of every send (weekends skipped,
// the October clock change), the channel preview's warnings, a scheduled course's channel change
// notice, the plan's lessons limit, and hostile lesson HTML kept out of the page.

const unique = () => Date.now().toString(36);
const CHANNEL_CHANGE_NOTICE =
  'The new channel takes effect from the next training: lessons already sent stay where they went.';

test.describe('as Acme (Business plan)', () => {
  test.use({ account: 'creator' });
  test.describe.configure({ timeout: 60_000 });

  test.describe('seen from New York', () => {
    test.use({ timezoneId: 'America/New_York' });

    test('the calendar skips a weekend and crosses the October clock change', async ({
      page,
      tokens,
    }) => {
      const wizard = new CourseWizard(page);
      const { uuid } = await apiCourse(page.request, tokens!.access_token, {
        name: `Calendar ${unique()}`,
        lessons: [1, 2, 3].map((day) => apiLesson(day)),
      });
      // The browser's today is Monday 19 October 2026: Friday the 23rd is in the date window.
      await page.clock.setFixedTime(new Date('2026-10-19T10:00:00+02:00'));
      await new CourseWizard(page).open(uuid, 'delivery');
      await wizard.fillDelivery('Slack', '23-10-2026');
      await page.getByRole('switch', { name: 'Skip weekends' }).click();

      const calendar = page.getByRole('region', { name: 'Calendar of every send' });
      const day = (n: number) => calendar.locator(`tr[data-day="${n}"]`);
      await expect(day(1)).toContainText('23-10-2026 08:00');
      await expect(day(1)).toContainText('CEST');
      // Saturday 24 and Sunday 25 October (the night of the change) are skipped.
      await expect(calendar.locator('tr[data-skipped]')).toHaveCount(2);
      await expect(calendar.locator('tr[data-skipped="2026-10-24"]')).toContainText(
        'weekend skipped',
      );
      await expect(calendar.locator('tr[data-skipped="2026-10-25"]')).toBeVisible();
      // Monday 26: still 08:00 in Italy, now CET, one hour later for New York (summer time
      // there lasts until 1 November).
      await expect(day(2)).toContainText('26-10-2026 08:00');
      await expect(day(2)).toContainText('CET');
      await expect(day(2)).toContainText('clock change');
      await expect(day(1).locator('td').nth(1)).toHaveText(/23-10 02:00/);
      await expect(day(2).locator('td').nth(1)).toHaveText(/26-10 03:00/);
      await expect(day(3)).toContainText('27-10-2026 08:00');
      await expect(day(3)).not.toContainText('clock change');
    });
  });

  test('a scheduled course’s new channel is said to take effect from the next training', async ({
    page,
    tokens,
  }) => {
    // The demo's scheduled course on Slack; nothing is saved.
    const [classroom] = await apiClassrooms(page.request, tokens!.access_token);
    const courses = await apiData<TCourse[]>(
      page.request,
      tokens!.access_token,
      `/api/v1/classrooms/${classroom!.uuid}/courses`,
      { paginate: 'false' },
    );
    const scheduled = courses.find((course) => course.name === 'Objection Handling');
    expect(scheduled?.status).toBe('scheduled');
    await new CourseWizard(page).open(scheduled!.uuid, 'delivery');
    const notice = page.getByText(CHANNEL_CHANGE_NOTICE);
    await expect(notice).toHaveCount(0);
    await antdSelectOption(page, page.getByLabel('Channel', { exact: true }), 'MS Teams');
    await expect(notice).toBeVisible();
    await antdSelectOption(page, page.getByLabel('Channel', { exact: true }), 'Slack');
    await expect(notice).toHaveCount(0);
  });

  test('the channel preview says WhatsApp cannot carry 11 answers as buttons', async ({
    page,
    tokens,
  }) => {
    const { uuid } = await apiCourse(page.request, tokens!.access_token, {
      name: `Eleven answers ${unique()}`,
      lessons: [apiLesson(1, 'en', 11)],
    });
    await new CourseWizard(page).open(uuid, 'content');
    await page.getByRole('button', { name: 'Preview in…' }).click();
    const panel = page.getByRole('dialog', { name: /Day 1 · English as learners receive it/ });
    const whatsapp = panel.getByRole('tab', { name: /WhatsApp/ });
    await expect(
      whatsapp.getByLabel('This channel cannot carry the lesson as written'),
    ).toBeVisible();
    // Slack carries 25 buttons: no warning there.
    await expect(
      panel
        .getByRole('tab', { name: /Slack/ })
        .getByLabel('This channel cannot carry the lesson as written'),
    ).toHaveCount(0);
    await whatsapp.click();
    await expect(panel.getByRole('tabpanel')).toContainText(
      'WhatsApp shows at most 3 answer buttons; this question has 11',
    );
  });

  test('lesson HTML with scripts, event handlers and javascript: links is stored clean and never runs', async ({
    page,
    tokens,
  }) => {
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const hostile =
      '<p>Read <strong>this</strong><script>alert("script")</script>' +
      '<img src="x" onerror="alert(\'onerror\')">' +
      ' <a href="javascript:alert(\'link\')" onclick="alert(\'click\')">here</a>' +
      ' <a href="https://example.com/guide" onmouseover="alert(\'over\')">guide</a></p>';
    const { uuid, classroomUuid } = await apiCourse(page.request, tokens!.access_token, {
      name: `Hostile ${unique()}`,
      lessons: [{ ...apiLesson(1), topic_content: hostile }],
    });
    const stored = await apiData<TCourse>(
      page.request,
      tokens!.access_token,
      `/api/v1/classrooms/${classroomUuid}/courses/${uuid}`,
    );
    const html = stored.lessons[0]!.topic_content;
    expect(html).not.toMatch(/<script|onerror|onclick|onmouseover|javascript:/i);
    expect(html).toContain('<strong>this</strong>');
    expect(html).toContain('https://example.com/guide');

    await new CourseWizard(page).open(uuid, 'content');
    const wizard = new CourseWizard(page);
    await expect(wizard.editor).toContainText('Read this');
    await wizard.editor.getByText('here').click();
    await wizard.editor.getByText('guide').hover();
    await page.getByRole('button', { name: 'Preview in…' }).click();
    const panel = page.getByRole('dialog', { name: /as learners receive it/ });
    await panel.getByRole('tab', { name: /Slack/ }).click();
    await expect(panel.getByRole('tabpanel')).toContainText('Read');
    const links = panel.getByRole('tabpanel').locator('a');
    for (const href of await links.evaluateAll((nodes) =>
      nodes.map((node) => node.getAttribute('href') ?? ''),
    )) {
      expect(href).not.toMatch(/^javascript:/i);
    }
    expect(dialogs).toEqual([]);
  });
});

test.describe('as Freelance Trainer (Free plan, 10 lessons a month)', () => {
  test.use({ account: 'free' });
  // In this order: the limit test uses up the month's lessons.
  test.describe.configure({ timeout: 90_000, mode: 'serial' });

  test('skipping weekends is not in the plan: the switch opens the upgrade modal', async ({
    page,
    tokens,
    upgradeModal,
  }) => {
    const { uuid } = await apiCourse(page.request, tokens!.access_token, {
      name: `Weekends ${unique()}`,
      lessons: [apiLesson(1)],
    });
    await new CourseWizard(page).open(uuid, 'delivery');
    await expect(page.getByText('Your plan does not include skipping weekends.')).toBeVisible();
    await page.getByRole('switch', { name: 'Skip weekends' }).click();
    await expect(upgradeModal.dialog).toHaveAccessibleName('Exclusion days limit reached');
    await expect(upgradeModal.fact("Your plan's limit")).toHaveText('0');
    await upgradeModal.dialog.getByRole('button', { name: 'Not now' }).click();
    await expect(page.getByRole('switch', { name: 'Skip weekends' })).not.toBeChecked();
  });

  test('a save over the lessons limit opens the upgrade modal with the limit', async ({
    page,
    tokens,
    upgradeModal,
  }) => {
    const token = tokens!.access_token;
    // Lesson days up to the month's limit, through the API: the save of one more is refused.
    const name = `Limit ${unique()}`;
    const { uuid, classroomUuid } = await apiCourse(page.request, token, {
      name,
      lessons: [apiLesson(1)],
    });
    let days = 1;
    for (; days < 12; days += 1) {
      const response = await page.request.post(
        `/api/v1/classrooms/${classroomUuid}/courses/${uuid}`,
        {
          headers: { authorization: `Bearer ${token}` },
          data: {
            name,
            description: 'A course made by a browser test.',
            languages: [{ short_name: 'en', is_primary: true }],
            lessons: Array.from({ length: days + 1 }, (_, index) => apiLesson(index + 1)),
          },
        },
      );
      if (response.status() === 402) break;
      expect(response.status()).toBe(200);
    }
    expect(days).toBeLessThan(12);

    const wizard = new CourseWizard(page);
    await new CourseWizard(page).open(uuid, 'content');
    await expect(wizard.dayList.locator('li')).toHaveCount(days);
    await page.getByRole('button', { name: 'Add a day' }).click();
    await wizard.fillLesson({
      title: 'One lesson too many',
      intro: 'This day goes over the plan.',
      content: 'The plan allows ten lessons a month.',
      question: 'Is this lesson saved?',
      answers: ['Not on this plan', 'Yes, always'],
    });
    await page.getByRole('button', { name: 'Save progress' }).click();
    await expect(upgradeModal.dialog).toBeVisible();
    await expect(upgradeModal.fact('Feature')).toHaveText('Lessons');
    await expect(upgradeModal.fact("Your plan's limit")).toHaveText('10');
    await upgradeModal.dialog.getByRole('button', { name: 'Not now' }).click();
    await expect(upgradeModal.dialog).toBeHidden();
    // Nothing typed is lost: the day is still there to save later.
    await expect(wizard.lessonForm.getByLabel('Lesson title')).toHaveValue('One lesson too many');
  });
});
