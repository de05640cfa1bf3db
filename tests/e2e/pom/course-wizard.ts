import { expect } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';

import { antdSelectOption } from '../helpers/antd.ts';

// The course wizard (/courses/create…): Intro, Content, Delivery, Finish, found by the labels a
// creator reads (English).

export type TLessonText = {
  title: string;
  intro: string;
  content: string;
  question: string;
  answers: string[];
};

export class CourseWizard {
  readonly steps: Locator;
  readonly lessonForm: Locator;
  readonly dayList: Locator;

  constructor(readonly page: Page) {
    this.steps = page.locator('.wizard-steps');
    this.lessonForm = page.locator('form.lesson-form');
    this.dayList = page.getByRole('navigation', { name: 'Days' });
  }

  /** A form field's error text under it, by the field's label (not one fading out). */
  errorUnder(label: string | RegExp): Locator {
    return this.page
      .locator('.ant-form-item')
      .filter({ has: this.page.getByText(label, { exact: true }) })
      .locator('.ant-form-item-explain-error:not(.ant-form-show-help-item-leave)');
  }

  /**
   * Opens a step of a course (with `search`, e.g. "?day=2&lang=it") and waits for it: the first
   * page of the app on a busy machine can take longer than an assertion's timeout.
   */
  async open(uuid: string, step: 'content' | 'delivery' | 'finish', search = '') {
    await this.page.goto(`/courses/create/${uuid}/${step}${search}`);
    const ready =
      step === 'content'
        ? this.editor
        : step === 'delivery'
          ? this.page.getByLabel('First delivery date')
          : this.page.getByRole('button', { name: /Schedule the course|Save the changes/ });
    await expect(ready).toBeVisible({ timeout: 30_000 });
  }

  step(name: 'Intro' | 'Content' | 'Delivery' | 'Finish'): Locator {
    return this.steps.locator('.ant-steps-item').filter({ hasText: name });
  }

  /** Intro: name and description, then "Save and continue" (a new course is created). */
  async fillIntro(name: string, description: string) {
    await this.page.getByLabel('Course name').fill(name);
    await this.page.getByLabel('Public description').fill(description);
    await this.page.getByRole('button', { name: 'Save and continue' }).click();
    await expect(this.page).toHaveURL(/\/courses\/create\/[0-9a-f-]{36}\/content/);
  }

  /** The course's uuid, from the wizard's address. */
  courseUuid(): string {
    const match = /\/courses\/create\/([0-9a-f-]{36})/.exec(this.page.url());
    if (!match?.[1]) throw new Error(`Not in the wizard: ${this.page.url()}`);
    return match[1];
  }

  /** The rich-text editor of the topic content. */
  get editor(): Locator {
    return this.lessonForm.getByRole('textbox', { name: 'Topic content' });
  }

  /** The text of answer `option` (1-based). */
  answer(option: number): Locator {
    return this.lessonForm.getByLabel(`Answer ${option}`, { exact: true });
  }

  /** Writes the current day's lesson: texts, a multiple-choice question, answer 1 correct. */
  async fillLesson(lesson: TLessonText) {
    const form = this.lessonForm;
    await form.getByLabel('Lesson title').fill(lesson.title);
    await form.getByLabel('Topic introduction').fill(lesson.intro);
    await this.editor.click();
    await this.page.keyboard.type(lesson.content);
    await form.getByLabel('Question').fill(lesson.question);
    for (const [index, text] of lesson.answers.entries()) {
      if ((await this.answer(index + 1).count()) === 0) {
        await form.getByRole('button', { name: 'Add an answer' }).click();
      }
      await this.answer(index + 1).fill(text);
    }
  }

  /** The marker of a day in a language (valid, invalid, empty). */
  marker(day: number, language: string): Locator {
    return this.dayList
      .locator('li')
      .nth(day - 1)
      .locator(`.day-marker[data-language="${language}"]`);
  }

  async openDay(day: number) {
    await this.dayList.getByRole('button', { name: new RegExp(`^Day ${day}\\b`) }).click();
    await expect(this.page.getByRole('form', { name: new RegExp(`^Day ${day} ·`) })).toBeVisible();
  }

  async next() {
    await this.page.getByRole('button', { name: 'Next', exact: true }).click();
  }

  /** Delivery: the channel, the first list reachable on it, and a first date (DD-MM-YYYY). */
  async fillDelivery(channel: string, startDate: string) {
    await antdSelectOption(this.page, this.page.getByLabel('Channel', { exact: true }), channel);
    await this.page.locator('.list-choices').getByRole('checkbox').first().check();
    await this.setStartDate(startDate);
  }

  async setStartDate(date: string) {
    const input = this.page.getByLabel('First delivery date');
    await input.click();
    await input.fill(date);
    await input.press('Enter');
    await expect(input).toHaveValue(date);
  }
}
