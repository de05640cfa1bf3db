import {
  MESSAGES,
  SUBSCRIPTION_FUNCTION_KEYS,
  fillMessage,
  limitReachedMessage,
  publishMessage,
} from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { localizeMessage, localizeReason } from '../../src/i18n/messages.ts';
import { t } from '../../src/i18n/texts.ts';
import { analyticsCourse } from '../fixtures/analytics.ts';
import { csv, HEADER, importFile } from '../fixtures/imports.ts';
import { buildTestApp, call, createSignedInUser } from '../helper.ts';

// Server texts from locales/: the English ones say exactly what the API said before they moved
// there, the others are found again from the English and said in the asked language; mails and
// the import error report follow the language of the request that started them.

describe('server texts (locales/server)', () => {
  it('has the English 402 text of every plan function', () => {
    for (const feature of SUBSCRIPTION_FUNCTION_KEYS) {
      expect(t('en', `server.limitReached.${feature}`)).toBe(limitReachedMessage(feature));
    }
  });

  it("words the publish check's subjects in English as publishMessage does", () => {
    const message = 'the answer text is required.';
    const en = (key: Parameters<typeof t>[1], params: Record<string, string | number>) =>
      t('en', key, { ...params, message });
    const text = MESSAGES.answerRequired;
    expect(en('server.publish.day', { day: 2, language: 'it' })).toBe(
      publishMessage(text, { day: 2, language: 'it' }),
    );
    expect(en('server.publish.dayOption', { day: 3, language: 'en', option: 2 })).toBe(
      publishMessage(text, { day: 3, language: 'en', option: 2 }),
    );
    expect(en('server.publish.lesson', { lesson: 4 })).toBe(publishMessage(text, { lesson: 4 }));
    expect(en('server.publish.lessonOption', { lesson: 4, option: 1 })).toBe(
      publishMessage(text, { lesson: 4, option: 1 }),
    );
  });

  it('finds a filled template again, a repeated value included', () => {
    const english = fillMessage(MESSAGES.aiWarningFewerLessons, { count: 3, requested: 5 });
    expect(localizeMessage(english, 'de')).toBe(
      'Die Quelle enthielt nur genug Text für 3 Lektionen, daher wurden 3 statt 5 erstellt.',
    );
    expect(localizeMessage(english, 'en')).toBe(english);
  });

  it('fills values once: a value that looks like a placeholder stays as it is', () => {
    expect(t('it', 'server.channel.invitationTitle', { course: '{{course}} {{x}}' })).toBe(
      'Sei invitato a {{course}} {{x}}',
    );
  });

  it('keeps a text it does not know as it is', () => {
    expect(localizeMessage('Something the locale files never heard of.', 'it')).toBe(
      'Something the locale files never heard of.',
    );
  });

  it("says an import report's reasons, `field: message` ones included", () => {
    expect(localizeReason('email: The email must be valid.', 'it')).toBe(
      "email: L'indirizzo e-mail deve essere valido.",
    );
    expect(localizeReason(MESSAGES.importRowTooManyFields, 'de')).toBe(
      'Die Zeile hat mehr Felder, als die erste Zeile Spalten hat.',
    );
    expect(localizeReason('email: The email must be valid.', 'en')).toBe(
      'email: The email must be valid.',
    );
  });
});

describe('mails and reports in the language of the request that started them', async () => {
  const app = await buildTestApp();
  const { user, headers } = await createSignedInUser(app);
  const mailsTo = (email: string) =>
    app.db
      .selectFrom('outbox_messages')
      .select(['subject', 'body'])
      .where('recipient', '=', email)
      .orderBy('created_at')
      .execute();

  it('writes the import summary mail, the error report and the job in Italian', async () => {
    const italian = { ...headers, 'accept-language': 'it-IT,it;q=0.9' };
    const job = await importFile(app, italian, {
      name: 'persone.csv',
      content: csv([
        HEADER,
        ['Ada', 'Lovelace', 'ada@example.test', '', 'slack', 'it'],
        ['Bob', 'Broken', 'not-an-email', '', 'slack', 'it'],
      ]),
    });
    expect(job).toMatchObject({ status: 'completed', created: 1, failed: 1 });

    const report = await call(app, {
      method: 'GET',
      url: `/api/v1/learners/imports/${job.uuid}/errors`,
      headers,
    });
    expect(report.body.trim().split('\r\n').at(-1)).toBe(
      `3,email: L'indirizzo e-mail deve essere valido.,Bob,Broken,not-an-email,,slack,it`,
    );

    const [mail] = await mailsTo(user.email);
    expect(mail?.subject).toBe("L'importazione dei tuoi discenti è completata: persone.csv");
    const text = (JSON.parse(mail!.body) as { text: string }).text;
    expect(text).toContain('Ciao Test,');
    expect(text).toContain(`L'importazione di "persone.csv" è terminata.`);
    expect(text).toContain('Righe: 2\nCreati: 1\nAggiornati: 0\nSaltati (invariati): 0');
    expect(text).toContain('conservato per 30 giorni');
  });

  it('mails an export in German and names its type in the asked language', async () => {
    const other = await createSignedInUser(app);
    const course = await analyticsCourse(app, other.company, { name: 'Verhandeln' });
    const response = await call(app, {
      method: 'POST',
      url: `/api/v1/analytics/courses/${course.uuid}/export-delivery-statistics`,
      headers: { ...other.headers, 'accept-language': 'de' },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json.data.type_display_name).toBe('Versandstatistik');
    const [mail] = await mailsTo(other.user.email);
    expect(mail?.subject).toBe('Ihr Export ist fertig');
    expect((JSON.parse(mail!.body) as { text: string }).text).toMatch(
      /^Hallo Test,\n\nIhr Export "Versandstatistik" des Kurses "Verhandeln" ist fertig\./,
    );
    const download = await call(app, {
      method: 'GET',
      url: `/api/v1/analytics/exports/${response.json.data.export_id as string}/download`,
      headers: { ...other.headers, 'accept-language': 'it' },
    });
    expect(download.json.data.type_display_name).toBe('Statistiche di erogazione');
  });

  it('answers GET /translations from locales/server', async () => {
    const response = await call(app, {
      method: 'GET',
      url: '/api/v1/translations?locale=it',
      headers,
    });
    expect(response.json.data).toContainEqual({
      locale: 'it',
      key: 'upgrade.learners_limit_reached.title',
      value: t('it', 'server.translations.upgrade.learners_limit_reached.title'),
    });
  });
});
