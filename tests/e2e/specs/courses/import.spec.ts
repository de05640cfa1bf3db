import { MESSAGES } from '@ccp/schemas';
import { Document, HeadingLevel, Packer, Paragraph } from 'docx';

import { expect, test } from '../../fixtures/test.ts';
import { CourseWizard } from '../../pom/course-wizard.ts';

// The AI import page (/courses/import): a .docx written by the test becomes a draft course through
// the offline generator (the e2e server has no AI key) in a background job whose id the address
// keeps, and opens in the wizard's Content step; a file over 700 MB is refused before any byte is
// sent; audio needs an AI provider.

test.use({ account: 'creator' });
test.describe.configure({ timeout: 60_000 });

const SECTIONS = [
  {
    heading: 'Preparing the first call',
    text: 'A sales call starts before the phone rings. Read the account notes, check the last order and write down the one question you want answered. Prospects notice when a caller has done the homework.',
  },
  {
    heading: 'Opening with a question',
    text: 'Open with a question about the customer, not with the product. An open question invites the prospect to talk, and listening tells you which benefit matters to this customer.',
  },
  {
    heading: 'Handling objections',
    text: 'An objection is a request for information. Acknowledge the concern, ask what is behind it and answer with a fact. Price objections usually hide a doubt about value.',
  },
];

const makeDocx = async (): Promise<Buffer> =>
  Packer.toBuffer(
    new Document({
      sections: [
        {
          children: SECTIONS.flatMap((section) => [
            new Paragraph({ text: section.heading, heading: HeadingLevel.HEADING_1 }),
            new Paragraph({ text: section.text }),
          ]),
        },
      ],
    }),
  );

test('a .docx becomes a draft course that opens in the Content step for review', async ({
  page,
}) => {
  await page.goto('/courses/import');
  await expect(page.getByRole('heading', { name: 'Transform existing content' })).toBeVisible();
  // No AI key on this server: the page says documents are handled offline, audio and video not.
  await expect(page.getByText(/Audio and video files need an AI service/)).toBeVisible();

  const name = `Sales calls ${Date.now().toString(36)}`;
  await page.getByLabel('Course name').fill(name);
  await page.getByLabel('Public description').fill('Three lessons on the first sales call.');
  await page.getByLabel('Number of lessons').fill('3');
  await page.getByLabel('Source file').setInputFiles({
    name: 'sales-calls.docx',
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    buffer: await makeDocx(),
  });
  await expect(page.getByText(/^sales-calls\.docx \(/)).toBeVisible();
  await page.getByRole('button', { name: 'Create the course' }).click();

  await expect(page).toHaveURL(/\/courses\/create\/[0-9a-f-]{36}\/content/);
  await expect(page.getByRole('heading', { name })).toBeVisible();
  const wizard = new CourseWizard(page);
  await expect(wizard.dayList.locator('li')).toHaveCount(3);
  // Titles come from the document's headings; the lesson is there to edit.
  await expect(wizard.dayList).toContainText('Preparing the first call');
  await expect(wizard.lessonForm.getByLabel('Lesson title')).toHaveValue(/\S/);
  await expect(wizard.editor).toContainText(/\w/);

  // Back on the import page, the job is found by its id: ended, it links to its course.
  await page.goBack();
  await expect(page).toHaveURL(/\/courses\/import\?job=[0-9a-f-]{36}$/);
  await expect(page.getByText(`“${name}” is ready with 3 lessons`)).toBeVisible();
  await page.getByRole('link', { name: 'Review the lessons' }).click();
  await expect(page.getByRole('heading', { name })).toBeVisible();
});

test('a file over 700 MB is refused before it is sent, and audio needs an AI service', async ({
  page,
}) => {
  let importRequests = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/courses/import'))
      importRequests += 1;
  });
  await page.goto('/courses/import');
  await page.getByLabel('Course name').fill('Too large');
  await page.getByLabel('Public description').fill('A file over the limit.');
  // A 700 MB + 1 byte file without reading 700 MB: a File of that size built in the page.
  await page.getByLabel('Source file').evaluate((input: HTMLInputElement) => {
    const big = new File([new Uint8Array(1)], 'huge.pdf', { type: 'application/pdf' });
    Object.defineProperty(big, 'size', { value: 700 * 1024 * 1024 + 1 });
    const transfer = new DataTransfer();
    transfer.items.add(big);
    input.files = transfer.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
  const fileError = new CourseWizard(page).errorUnder('Source file');
  await expect(fileError).toHaveText(MESSAGES.fileTooLarge);
  await page.getByRole('button', { name: 'Create the course' }).click();
  await expect(fileError).toHaveText(MESSAGES.fileTooLarge);

  await page.getByLabel('Source file').setInputFiles({
    name: 'talk.mp3',
    mimeType: 'audio/mpeg',
    buffer: Buffer.from('ID3 not really audio'),
  });
  await expect(fileError).toHaveText(MESSAGES.aiTranscriptionNotConfigured);
  expect(importRequests).toBe(0);
});

test('the upload shows its progress and can be canceled: nothing is imported', async ({ page }) => {
  // A slow uplink (64 KB/s) so the upload of 1.5 MB lasts long enough to watch and cancel.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 64 * 1024,
  });
  await page.goto('/courses/import');
  const name = `Canceled ${Date.now().toString(36)}`;
  await page.getByLabel('Course name').fill(name);
  await page.getByLabel('Public description').fill('An upload canceled halfway.');
  const line = 'Listening comes before answering in every sales conversation. ';
  await page.getByLabel('Source file').setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from(line.repeat(Math.ceil((1.5 * 1024 * 1024) / line.length))),
  });
  let answered = false;
  page.on('response', (response) => {
    if (response.url().includes('/courses/import')) answered = true;
  });
  await page.getByRole('button', { name: 'Create the course' }).click();
  const status = page.getByRole('status');
  await expect(status).toContainText(/Uploading: [\d.]+ of 1\.5 MB/);
  await expect(page.getByRole('progressbar', { name: 'Import progress' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel the upload' }).click();
  await expect(status).toContainText('The upload was canceled: nothing was imported.');
  await expect(page).toHaveURL(/\/courses\/import$/);
  expect(answered).toBe(false);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await page.goto('/dashboard');
  await expect(page.getByRole('article', { name })).toHaveCount(0);
});
