import { describe, expect, it } from 'vitest';

import { seedLearnersList, validCourseBody } from '../fixtures/courses.ts';
import { uploadImport } from '../fixtures/imports.ts';
import { learnerBody } from '../fixtures/learners.ts';
import { buildTestApp, call, createSignedInUser } from '../helper.ts';

// Error answers in the language the request asks for (Accept-Language), with the same code; no
// header or a language we do not have answers English, as before.

describe('error answers in the request language', async () => {
  const app = await buildTestApp();
  const { company, headers } = await createSignedInUser(app);
  const classroom = company.classrooms[0]!.uuid;
  const courses = `/api/v1/classrooms/${classroom}/courses`;
  const unknownCourse = `${courses}/00000000-0000-4000-8000-000000000000`;

  const get = (url: string, language?: string) =>
    call(app, {
      method: 'GET',
      url,
      headers: { ...headers, ...(language ? { 'accept-language': language } : {}) },
    });
  const post = (url: string, payload: object, language: string) =>
    call(app, {
      method: 'POST',
      url,
      headers: { ...headers, 'accept-language': language },
      payload,
    });

  it.each([
    ['it-IT,it;q=0.9,en;q=0.8', 'Non trovato.'],
    ['de', 'Nicht gefunden.'],
    ['fr-FR,de;q=0.5', 'Nicht gefunden.'],
    ['fr', 'Not found.'],
    ['', 'Not found.'],
  ])('a 404 for %j says %j', async (language, message) => {
    const response = await get(unknownCourse, language);
    expect(response.statusCode).toBe(404);
    expect(response.json).toEqual({ error: { status: 404, code: 'NOT_FOUND', message } });
    expect(response.headers.vary).toContain('Accept-Language');
  });

  it('answers English without Accept-Language', async () => {
    const response = await get(unknownCourse);
    expect(response.json.error.message).toBe('Not found.');
  });

  it('says an unknown route and a missing token in the language too', async () => {
    const route = await get('/api/v1/nothing-here', 'de');
    expect(route.json.error).toEqual({
      status: 404,
      code: 'ROUTE_NOT_FOUND',
      message: 'Die angeforderte Ressource wurde nicht gefunden.',
    });
    const anonymous = await call(app, {
      method: 'GET',
      url: '/api/v1/company',
      headers: { 'accept-language': 'it' },
    });
    expect(anonymous.json.error).toEqual({
      status: 401,
      code: 'UNAUTHENTICATED',
      message: 'Non autenticato.',
    });
  });

  it('translates zod field errors of a 422, keeping the field paths', async () => {
    const body = learnerBody({ email: 'not-an-email' });
    const italian = await post('/api/v1/learners', body, 'it');
    expect(italian.statusCode).toBe(422);
    expect(italian.json.error).toEqual({
      status: 422,
      code: 'VALIDATION_FAILED',
      message: "L'indirizzo e-mail deve essere valido.",
      errors: { email: ["L'indirizzo e-mail deve essere valido."] },
    });
    const english = await post('/api/v1/learners', body, 'en-GB');
    expect(english.json.error.errors).toEqual({ email: ['The email must be valid.'] });
  });

  it("says zod's own texts (a body that is not an object) with zod's translations", async () => {
    const response = await call(app, {
      method: 'POST',
      url: '/api/v1/learners-lists',
      headers: { ...headers, 'accept-language': 'it', 'content-type': 'application/json' },
      payload: '[1]',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json.error.code).toBe('VALIDATION_FAILED');
    expect(response.json.error.message).toBe('Input non valido: atteso object, ricevuto vettore');
  });

  it("says Fastify's own failures (broken JSON) in the product's words, nothing of the request echoed", async () => {
    const broken = (language: string) =>
      call(app, {
        method: 'POST',
        url: '/api/v1/learners-lists',
        headers: { ...headers, 'accept-language': language, 'content-type': 'application/json' },
        payload: '{"name": ',
      });
    const german = await broken('de');
    expect(german.statusCode).toBe(400);
    expect(german.json.error).toEqual({
      status: 400,
      code: 'BAD_REQUEST',
      message: 'Die Anfrage konnte nicht verstanden werden: Prüfen Sie Adresse, Header und Inhalt.',
    });
    const english = await broken('en');
    expect(english.json.error.code).toBe('BAD_REQUEST');
    expect(english.json.error.message).toBe(
      'The request could not be understood: check its address, headers and body.',
    );
    expect(english.json.error.message).not.toContain('{"name"');
  });

  it('fills the values of a template message in the translation', async () => {
    const file = {
      name: 'people.csv',
      content: 'first_name,last_name,E-mail,email,channels\nAda,Lovelace,a@x.test,a@x.test,slack\n',
    };
    const response = await uploadImport(app, { ...headers, 'accept-language': 'de' }, file);
    expect(response.statusCode).toBe(422);
    expect(response.json.error.errors).toEqual({
      file: ['Die Spalte email kommt in der ersten Zeile mehrfach vor.'],
    });
  });

  it('says the publish check in the language, naming day, language and option', async () => {
    const list = await seedLearnersList(app, company.uuid, { name: 'Team', learners: 1 });
    const created = await post(courses, { name: 'Draft', description: 'To be filled.' }, 'en');
    const uuid = created.json.data.uuid as string;
    const body = validCourseBody({ days: 3, lists: [list.uuid], status: 'scheduled' });
    body.lessons = body.lessons.filter((lesson) => !(lesson.day === 2 && lesson.language === 'it'));
    body.lessons[3]!.assessment.answers[1]!.text = '';
    body.lessons[4]!.title = '';

    const italian = await post(`${courses}/${uuid}`, body, 'it');
    expect(italian.statusCode).toBe(422);
    expect(italian.json.error).toEqual({
      status: 422,
      code: 'VALIDATION_FAILED',
      message: 'Correggi tutti gli errori prima di procedere.',
      errors: {
        'lessons.3.assessment.answers.1.text': [
          'Giorno 3 (en), opzione 2: il testo della risposta è obbligatorio.',
        ],
        'lessons.4.title': ['Giorno 3 (it): il titolo della lezione è obbligatorio.'],
        lessons: ['Giorno 2 (it): la lezione manca.'],
      },
    });

    const german = await post(`${courses}/${uuid}`, body, 'de-DE');
    expect(german.json.error.errors).toEqual({
      'lessons.3.assessment.answers.1.text': [
        'Tag 3 (en), Option 2: Der Antworttext ist erforderlich.',
      ],
      'lessons.4.title': ['Tag 3 (it): Der Titel der Lektion ist erforderlich.'],
      lessons: ['Tag 2 (it): Die Lektion fehlt.'],
    });
  });

  it('says the 402 of a plan limit in the language, with the same code and payload', async () => {
    const free = await createSignedInUser(app, { plan: 'free' });
    const add = (language: string) =>
      call(app, {
        method: 'POST',
        url: '/api/v1/learners',
        headers: { ...free.headers, 'accept-language': language },
        payload: learnerBody(),
      });
    for (let index = 0; index < 6; index += 1) expect((await add('en')).statusCode).toBe(201);
    const italian = await add('it');
    expect(italian.statusCode).toBe(402);
    expect(italian.json.error).toEqual({
      status: 402,
      code: 'PLAN_LIMIT_REACHED',
      message: 'Limite di discenti raggiunto.',
      limit: { feature: 'learners', required: 7, limit: 6 },
    });
    expect((await add('xx')).json.error.message).toBe('Learners limit reached.');
  });
});
