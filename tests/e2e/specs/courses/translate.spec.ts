import { MESSAGES } from '@ccp/schemas';

import { expect, test } from '../../fixtures/ai-server.ts';
import {
  FAIL_WITH_MISSING_TEXT,
  FAIL_WITH_SERVER_ERROR,
  FAIL_WITH_SIZE_MISMATCH,
} from '../../support/fake-openai.ts';
import { CourseWizard } from '../../pom/course-wizard.ts';
import { apiCourse, apiLesson } from '../../requests/courses.ts';

// "Translate with AI" in the Content step, against a server whose AI provider is the local fake
// OpenAI (fixtures/ai-server.ts): a complete English day fills the Italian one, lesson and
// assessment; the provider's server error, a size mismatch and a text answered with nothing show
// the spec §8 texts.

test.use({ account: 'creator' });
test.describe.configure({ timeout: 120_000 });

const bilingual = [
  { short_name: 'en', is_primary: true },
  { short_name: 'it', is_primary: false },
];

test('a complete English day is translated into Italian through the AI provider', async ({
  page,
  tokens,
}) => {
  const { uuid } = await apiCourse(page.request, tokens!.access_token, {
    name: `Translated ${Date.now().toString(36)}`,
    languages: bilingual,
    lessons: [apiLesson(1), apiLesson(2)],
  });
  await new CourseWizard(page).open(uuid, 'content', '?day=2&lang=it');
  const wizard = new CourseWizard(page);
  // The first page of a server just started: its first answers take longer.
  await expect(page.getByRole('form', { name: /^Day 2 · Italiano/ })).toBeVisible({
    timeout: 20_000,
  });
  await expect(wizard.marker(2, 'it')).toHaveAttribute('data-state', 'empty');
  await page.getByRole('button', { name: 'Translate with AI from English' }).click();
  await expect(
    page.getByText('Day 2 was translated into Italiano. Check it before publishing.'),
  ).toBeVisible();
  await expect(wizard.lessonForm.getByLabel('Lesson title')).toHaveValue(
    '[IT] Day 2 (en): the first call',
  );
  await expect(wizard.editor).toContainText('[IT] Open the call of day 2');
  await expect(wizard.answer(1)).toHaveValue('[IT] Option number 1 of day 2');
  await expect(wizard.marker(2, 'it')).toHaveAttribute('data-state', 'valid');
  // Day 1 in Italian was not asked for.
  await expect(wizard.marker(1, 'it')).toHaveAttribute('data-state', 'empty');
});

test('the provider failing, a translation of the wrong size or a missing text show their spec texts', async ({
  page,
  tokens,
}) => {
  const { uuid } = await apiCourse(page.request, tokens!.access_token, {
    name: `Failing translation ${Date.now().toString(36)}`,
    languages: bilingual,
    lessons: [
      { ...apiLesson(1), topic_intro: `An intro ${FAIL_WITH_SERVER_ERROR}.` },
      { ...apiLesson(2), topic_intro: `An intro ${FAIL_WITH_SIZE_MISMATCH}.` },
      { ...apiLesson(3), topic_intro: `An intro ${FAIL_WITH_MISSING_TEXT}.` },
    ],
  });
  const translate = page.getByRole('button', { name: 'Translate with AI from English' });
  await new CourseWizard(page).open(uuid, 'content', '?day=1&lang=it');
  await translate.click();
  await expect(page.locator('.translate-alert')).toHaveText(MESSAGES.translationServerError);

  await new CourseWizard(page).open(uuid, 'content', '?day=2&lang=it');
  await translate.click();
  const texts = 3 + 1 + 2 * 2;
  await expect(page.locator('.translate-alert')).toHaveText(
    MESSAGES.translationSizeMismatch
      .replace('{{received}}', String(texts - 1))
      .replace('{{sent}}', String(texts)),
  );
  await expect(new CourseWizard(page).marker(2, 'it')).toHaveAttribute('data-state', 'empty');

  await new CourseWizard(page).open(uuid, 'content', '?day=3&lang=it');
  await translate.click();
  await expect(page.locator('.translate-alert')).toHaveText('Translation not found');
  await expect(new CourseWizard(page).marker(3, 'it')).toHaveAttribute('data-state', 'empty');
});
