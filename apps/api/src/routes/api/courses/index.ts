import {
  MAX_IDS_PER_REQUEST,
  MESSAGES,
  ZClassroomCoursesParamsSchema,
  ZCourseParamsSchema,
  ZCourseResponseSchema,
  ZCourseUpdateRequestSchema,
  ZCreateCourseRequestSchema,
  ZDeletedCourseResponseSchema,
  ZListCoursesQuerySchema,
  ZListCoursesResponseSchema,
  ZShortCoursesResponseSchema,
  ZUpdateCourseIntroRequestSchema,
  cloneCourseName,
  publishCheck,
  publishProblemsToFieldErrors,
  toPublishCourse,
  EDITABLE_COURSE_STATUSES,
} from '@ccp/schemas';
import type { TCourseStatus, TFieldErrors } from '@ccp/schemas';
import type { FastifyInstance, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import type { CoursesTable } from '../../../db/types.ts';
import {
  archiveCourse,
  cancelCourse,
  restoreCourse,
  resumeCourse,
  syncCourseDelivery,
} from '../../../delivery/enrolment.ts';
import { AppError, validationError } from '../../../lib/app-error.ts';
import { sanitizeHtml } from '../../../lib/html.ts';
import {
  checkCoverImage,
  copyCoverImage,
  removeCoverImage,
  storeCoverImage,
} from '../../../lib/images.ts';
import type { CoverCheck, UploadedFile } from '../../../lib/images.ts';
import { newUuid } from '../../../lib/ids.ts';
import { offsetOf, pageRequest, paginated } from '../../../lib/pagination.ts';
import { withCompanyLock } from '../../../lib/company-lock.ts';
import { isMultipart } from '../../../lib/multipart.ts';
import { authOf } from '../../../plugins/auth.ts';
import { readCourseForm } from './multipart.ts';
import {
  companyHasLearnersLists,
  findClassroom,
  findCourse,
  foreignListUuids,
  insertDraftCourse,
  languagesByShortName,
  listUuidsOf,
  loadCourse,
  parseDistribution,
  replaceCourseContent,
  toCourseListItems,
} from '../../../courses/courses-repository.ts';
import {
  assertLessonDaysFree,
  assertRestorable,
  assertSaveWithinPlan,
  lessonDayStarts,
} from './usage.ts';

const TAGS = ['courses'];
const EDITABLE_STATUSES = EDITABLE_COURSE_STATUSES;
const CANCELABLE_STATUSES: readonly string[] = ['scheduled', 'active', 'paused'];

// These bodies are JSON or multipart: the handler validates them with the schema their content
// type calls for, and the route schema only documents them. Params and queries stay checked here.
type RouteSchemaDef<T> = Parameters<FastifySchemaCompiler<T>>[0];
const bodyCheckedInHandler = <T>(route: RouteSchemaDef<T>) =>
  route.httpPart === 'body'
    ? (data: unknown) => ({ value: data })
    : validatorCompiler(route as unknown as RouteSchemaDef<z.ZodType>);

const binaryFile = (description: string) =>
  z.any().optional().meta({ type: 'string', format: 'binary', description });

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Zod issues as the 422 body's `errors`, keyed by dotted path. */
const fieldErrorsOf = (error: z.ZodError): TFieldErrors => {
  const errors: TFieldErrors = {};
  for (const issue of error.issues) {
    (errors[issue.path.map(String).join('.') || 'body'] ??= []).push(issue.message);
  }
  return errors;
};

const assertEditable = (course: CoursesTable) => {
  if (course.deleted_at !== null) throw new AppError('VALIDATION_FAILED', MESSAGES.courseArchived);
  if (!EDITABLE_STATUSES.includes(course.status)) {
    throw new AppError('VALIDATION_FAILED', MESSAGES.courseNotEditable);
  }
};

// A cover is a file: in a JSON body any `image` value (true, 12345, a name) is refused, not ignored.
const imageInJson = (body: unknown): boolean =>
  isRecord(body) && body.image !== undefined && body.image !== null;

const checkUpload = (image: UploadedFile | null): CoverCheck | null =>
  image ? checkCoverImage(image) : null;

const companyOf = (request: FastifyRequest) => authOf(request).user.company_uuid;

export const coursesRoutes: FastifyPluginAsyncZod = async (app) => {
  const base = '/api/v1/classrooms/:classroomUuid/courses';

  app.get(
    base,
    {
      schema: {
        tags: TAGS,
        summary: 'List the classroom’s courses',
        description:
          'Newest first. `archived=false` (default) lists live courses, `archived=true` only archived ones. `paginate=false` answers every course as `{data}`; otherwise `{data, meta, links}`. Items are Courses without `lessons`.',
        params: ZClassroomCoursesParamsSchema,
        querystring: ZListCoursesQuerySchema,
        response: { 200: ZListCoursesResponseSchema },
      },
    },
    async (request) => {
      const companyUuid = companyOf(request);
      const { classroomUuid } = request.params;
      await findClassroom(app.db, companyUuid, classroomUuid);
      const { archived, paginate } = request.query;
      const scoped = app.db
        .selectFrom('courses')
        .where('classroom_uuid', '=', classroomUuid)
        .where('company_uuid', '=', companyUuid)
        .where('deleted_at', archived ? 'is not' : 'is', null);
      const ordered = scoped.selectAll().orderBy('created_at', 'desc').orderBy('uuid');
      if (!paginate) {
        return { data: await toCourseListItems(app.db, await ordered.execute()) };
      }
      const page = pageRequest(request.query);
      const [rows, count] = await Promise.all([
        ordered.limit(page.perPage).offset(offsetOf(page)).execute(),
        scoped.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      ]);
      return paginated(
        await toCourseListItems(app.db, rows),
        Number(count.total),
        page,
        request.url,
      );
    },
  );

  app.get(
    `${base}/short`,
    {
      schema: {
        tags: TAGS,
        summary: 'List the classroom’s live courses by name and status',
        params: ZClassroomCoursesParamsSchema,
        response: { 200: ZShortCoursesResponseSchema },
      },
    },
    async (request) => {
      const companyUuid = companyOf(request);
      const { classroomUuid } = request.params;
      await findClassroom(app.db, companyUuid, classroomUuid);
      const rows = await app.db
        .selectFrom('courses')
        .select(['uuid', 'name', 'status'])
        .where('classroom_uuid', '=', classroomUuid)
        .where('company_uuid', '=', companyUuid)
        .where('deleted_at', 'is', null)
        .orderBy('created_at', 'desc')
        .orderBy('uuid')
        .execute();
      return {
        data: rows.map((row) => ({ ...row, status: row.status as TCourseStatus })),
      };
    },
  );

  app.get(
    `${base}/:courseUuid`,
    {
      schema: {
        tags: TAGS,
        summary: 'Get a course with its lessons (archived courses too)',
        params: ZCourseParamsSchema,
        response: { 200: ZCourseResponseSchema },
      },
    },
    async (request) => {
      const { classroomUuid, courseUuid } = request.params;
      const course = await findCourse(app.db, companyOf(request), classroomUuid, courseUuid);
      return { data: await loadCourse(app.db, course.uuid) };
    },
  );

  app.post(
    base,
    {
      validatorCompiler: bodyCheckedInHandler,
      schema: {
        tags: TAGS,
        summary: 'Create a draft course (Intro step)',
        description:
          'multipart/form-data {name, description, category?, language?, image?} or JSON without the image. `language` (en, it, de; default en) is the primary language. The image is checked by its bytes: jpg, png, gif, bmp or svg, at most 500×500 px and 2 MB.',
        consumes: ['multipart/form-data', 'application/json'],
        params: ZClassroomCoursesParamsSchema,
        body: ZCreateCourseRequestSchema.extend({ image: binaryFile('The cover image.') }),
        'x-body': {
          'multipart/form-data': ZCreateCourseRequestSchema.extend({
            image: binaryFile('The cover image.'),
          }),
          'application/json': ZCreateCourseRequestSchema,
        },
        response: { 201: ZCourseResponseSchema },
      },
    },
    async (request, reply) => {
      const { user } = authOf(request);
      const { classroomUuid } = request.params;
      await findClassroom(app.db, user.company_uuid, classroomUuid);
      const raw: unknown = request.body;
      const form = isMultipart(request)
        ? await readCourseForm(request)
        : { fields: raw, image: null };
      const parsed = ZCreateCourseRequestSchema.safeParse(form.fields);
      const cover = checkUpload(form.image);
      const errors = parsed.success ? {} : fieldErrorsOf(parsed.error);
      if (cover && !cover.ok) errors.image = [cover.message];
      if (imageInJson(form.fields)) errors.image = [MESSAGES.imageMultipartOnly];
      if (!parsed.success || Object.keys(errors).length > 0) throw validationError(errors);

      const now = app.clock.now().toISOString();
      const uuid = newUuid();
      const image = cover?.ok
        ? await storeCoverImage(app.files, cover.bytes, cover.image.type)
        : null;
      const language = (await languagesByShortName(app.db)).get(parsed.data.language ?? 'en');
      if (!language) throw new Error('The languages reference data is missing.');
      try {
        await app.db.transaction().execute(async (trx) => {
          await insertDraftCourse(
            trx,
            {
              uuid,
              company_uuid: user.company_uuid,
              classroom_uuid: classroomUuid,
              name: parsed.data.name,
              description: parsed.data.description,
              image_path: image,
              category: parsed.data.category ?? null,
              distribution: null,
              creator_uuid: user.uuid,
            },
            now,
          );
          await trx
            .insertInto('course_languages')
            .values({ course_uuid: uuid, language_uuid: language.uuid, is_primary: 1, position: 0 })
            .execute();
        });
      } catch (error) {
        await removeCoverImage(app.files, image);
        throw error;
      }
      return reply.code(201).send({ data: await loadCourse(app.db, uuid) });
    },
  );

  app.post(
    `${base}/:courseUuid`,
    {
      validatorCompiler: bodyCheckedInHandler,
      schema: {
        tags: TAGS,
        summary: 'Save a course: the full course (JSON) or the Intro step (multipart)',
        description:
          'JSON: the whole course; languages and lessons are replaced (a lesson keeps its uuid while its day and language stay), `distribution` and `learners_lists` are replaced when present. `status: "scheduled"` runs the publish check and answers 422 "Please fix all errors before proceed." with every problem by field path. multipart/form-data: the Intro step {uuid?, name, description, category?, image?}; an image replaces the cover. Only draft, scheduled and paused courses can be saved.',
        consumes: ['application/json', 'multipart/form-data'],
        params: ZCourseParamsSchema,
        body: z.union([
          ZCourseUpdateRequestSchema,
          ZUpdateCourseIntroRequestSchema.extend({ image: binaryFile('A new cover image.') }),
        ]),
        'x-body': {
          'application/json': ZCourseUpdateRequestSchema,
          'multipart/form-data': ZUpdateCourseIntroRequestSchema.extend({
            image: binaryFile('A new cover image.'),
          }),
        },
        response: { 200: ZCourseResponseSchema },
      },
    },
    async (request) => {
      const { classroomUuid, courseUuid } = request.params;
      const course = await findCourse(app.db, companyOf(request), classroomUuid, courseUuid);
      assertEditable(course);
      if (isMultipart(request)) await saveIntro(app, request, course);
      else await saveFullCourse(app, request, course);
      // Publishing enrols and plans the lessons; a channel change applies from the next lesson.
      if (!isMultipart(request)) await syncCourseDelivery(app, course.uuid);
      return { data: await loadCourse(app.db, course.uuid) };
    },
  );

  app.post(
    `${base}/:courseUuid/clone`,
    {
      schema: {
        tags: TAGS,
        summary: 'Clone a course as a draft "<name> (copy)"',
        description:
          'Copies languages, lessons with their assessments, delivery settings without dates, learners lists and the cover image.',
        params: ZCourseParamsSchema,
        response: { 201: ZCourseResponseSchema },
      },
    },
    async (request, reply) => {
      const { user } = authOf(request);
      const { classroomUuid, courseUuid } = request.params;
      const source = await findCourse(app.db, user.company_uuid, classroomUuid, courseUuid);
      const starts = await lessonDayStarts(app.db, source.uuid);
      const uuid = newUuid();
      const now = app.clock.now().toISOString();
      const distribution = parseDistribution(source.distribution);
      const lists = await listUuidsOf(app.db, source.uuid);
      const image = await copyCoverImage(app.files, source.image_path);
      try {
        await withCompanyLock(app, user.company_uuid, async (trx) => {
          // The copy's days are all new this month.
          if (starts.size > 0) {
            await assertLessonDaysFree(trx, user.company_uuid, app.clock.now(), starts.size);
          }
          await insertDraftCourse(
            trx,
            {
              uuid,
              company_uuid: source.company_uuid,
              classroom_uuid: source.classroom_uuid,
              name: cloneCourseName(source.name),
              description: source.description,
              image_path: image,
              category: source.category,
              distribution: distribution
                ? JSON.stringify({ ...distribution, start_date: null, enrollment_close_time: null })
                : null,
              creator_uuid: user.uuid,
            },
            now,
          );
          const languages = await trx
            .selectFrom('course_languages')
            .selectAll()
            .where('course_uuid', '=', source.uuid)
            .execute();
          if (languages.length > 0) {
            await trx
              .insertInto('course_languages')
              .values(languages.map((row) => ({ ...row, course_uuid: uuid })))
              .execute();
          }
          const lessons = await trx
            .selectFrom('lessons')
            .selectAll()
            .where('course_uuid', '=', source.uuid)
            .execute();
          for (const lesson of lessons) {
            await trx
              .insertInto('lessons')
              .values({
                ...lesson,
                topic_content: sanitizeHtml(lesson.topic_content),
                uuid: newUuid(),
                course_uuid: uuid,
                created_at: now,
                updated_at: now,
              })
              .execute();
          }
          if (lists.length > 0) {
            await trx
              .insertInto('course_learners_lists')
              .values(lists.map((list) => ({ course_uuid: uuid, list_uuid: list })))
              .execute();
          }
        });
      } catch (error) {
        await removeCoverImage(app.files, image);
        throw error;
      }
      return reply.code(201).send({ data: await loadCourse(app.db, uuid) });
    },
  );

  app.delete(
    `${base}/:courseUuid`,
    {
      schema: {
        tags: TAGS,
        summary: 'Delete a course permanently, with its lessons and cover image',
        params: ZCourseParamsSchema,
        response: { 200: ZDeletedCourseResponseSchema },
      },
    },
    async (request) => {
      const { classroomUuid, courseUuid } = request.params;
      const course = await findCourse(app.db, companyOf(request), classroomUuid, courseUuid);
      await app.db.deleteFrom('courses').where('uuid', '=', course.uuid).execute();
      await removeCoverImage(app.files, course.image_path);
      return { data: { deleted: course.uuid } };
    },
  );

  // Archive, restore, resume and cancel: each refuses the statuses it does not apply to with
  // its own reason, then changes the course and its lesson plan in one step.
  for (const action of LIFECYCLE_ACTIONS) {
    app.route({
      method: action.method,
      url: `${base}/:courseUuid/${action.path}`,
      schema: {
        tags: TAGS,
        summary: action.summary,
        description: action.description,
        params: ZCourseParamsSchema,
        response: { 200: ZCourseResponseSchema },
      },
      handler: async (request) => {
        const { classroomUuid, courseUuid } = request.params;
        const course = await findCourse(app.db, companyOf(request), classroomUuid, courseUuid);
        const refused = action.refuse(course);
        if (refused) throw new AppError('VALIDATION_FAILED', refused);
        await action.run(app, course);
        return { data: await loadCourse(app.db, course.uuid) };
      },
    });
  }
};

type LifecycleAction = {
  method: 'POST' | 'DELETE';
  path: string;
  summary: string;
  description: string;
  /** The reason the course's state refuses the action, or null. */
  refuse: (course: CoursesTable) => string | null;
  run: (app: FastifyInstance, course: CoursesTable) => Promise<void>;
};

const LIFECYCLE_ACTIONS: readonly LifecycleAction[] = [
  {
    method: 'DELETE',
    path: 'soft',
    summary: 'Archive a course',
    description:
      'Sets `deleted_at`. A scheduled or active course is paused and its lessons still to send are canceled; other statuses are kept. Archived courses get no further lessons and are deleted permanently after 30 days.',
    refuse: (course) => (course.deleted_at !== null ? MESSAGES.courseAlreadyArchived : null),
    run: (app, course) => archiveCourse(app, course.uuid),
  },
  {
    method: 'POST',
    path: 'restore',
    summary: 'Restore an archived course',
    description:
      'Clears `deleted_at` and keeps the status: a course archived while running comes back paused, its remaining lessons intact, until it is resumed or canceled.',
    refuse: (course) => (course.deleted_at === null ? MESSAGES.courseNotArchived : null),
    // An archived course's days and channels count again once it is back (issue 30).
    run: (app, course) =>
      withCompanyLock(app, course.company_uuid, async (trx) => {
        await assertRestorable(trx, course, app.clock.now());
        await restoreCourse({ db: trx, clock: app.clock }, course.uuid);
      }),
  },
  {
    method: 'POST',
    path: 'resume',
    summary: 'Resume a paused course',
    description:
      'Only a paused course that is not archived. Every lesson not yet sent is planned again from the next slot after now, by the course’s own cadence, time (CET) and skipped weekdays; learners new in its lists are enrolled. The course is active again when a lesson already went out, scheduled otherwise.',
    refuse: (course) =>
      course.deleted_at !== null
        ? MESSAGES.courseArchived
        : course.status !== 'paused'
          ? MESSAGES.courseNotPaused
          : null,
    run: (app, course) => resumeCourse(app, course.uuid),
  },
  {
    method: 'POST',
    path: 'cancel',
    summary: 'Cancel a running or paused course for good',
    description:
      'Only a scheduled, active or paused course that is not archived. Its lessons still to send are canceled, learners who never opted in are dropped, and nobody is counted as having completed it.',
    refuse: (course) =>
      course.deleted_at !== null
        ? MESSAGES.courseArchived
        : !CANCELABLE_STATUSES.includes(course.status)
          ? MESSAGES.courseNotCancelable
          : null,
    run: (app, course) => cancelCourse(app, course.uuid),
  },
];

/** The Intro step as multipart: name, description, category and optionally a new cover. */
const saveIntro = async (app: FastifyInstance, request: FastifyRequest, course: CoursesTable) => {
  const form = await readCourseForm(request);
  const parsed = ZUpdateCourseIntroRequestSchema.safeParse(form.fields);
  const cover = checkUpload(form.image);
  const errors = parsed.success ? {} : fieldErrorsOf(parsed.error);
  if (cover && !cover.ok) errors.image = [cover.message];
  if (!parsed.success || (cover && !cover.ok)) throw validationError(errors);

  const image = cover?.ok ? await storeCoverImage(app.files, cover.bytes, cover.image.type) : null;
  try {
    await app.db
      .updateTable('courses')
      .set({
        name: parsed.data.name,
        description: parsed.data.description,
        ...(parsed.data.category !== undefined ? { category: parsed.data.category } : {}),
        ...(image ? { image_path: image } : {}),
        updated_at: app.clock.now().toISOString(),
      })
      .where('uuid', '=', course.uuid)
      .execute();
  } catch (error) {
    await removeCoverImage(app.files, image);
    throw error;
  }
  if (image) await removeCoverImage(app.files, course.image_path);
};

/**
 * The full course as JSON. Publishing (status scheduled, asked for or kept) runs the publish
 * check on the body merged with what it leaves unchanged, and answers every problem at once.
 */
const saveFullCourse = async (
  app: FastifyInstance,
  request: FastifyRequest,
  course: CoursesTable,
) => {
  const companyUuid = course.company_uuid;
  const raw: unknown = request.body;
  const body = isRecord(raw) ? raw : {};
  // Sanitised before any check, so the limits and the publish check see what will be stored.
  if (Array.isArray(body.lessons)) {
    for (const lesson of body.lessons as unknown[]) {
      if (isRecord(lesson) && typeof lesson.topic_content === 'string') {
        lesson.topic_content = sanitizeHtml(lesson.topic_content);
      }
    }
  }
  const now = app.clock.now();
  const requested = body.status;
  const publishing =
    requested === 'scheduled' || (requested === undefined && course.status === 'scheduled');

  let errors: TFieldErrors = {};
  if (publishing) {
    const effective = {
      ...body,
      distribution:
        'distribution' in body ? body.distribution : parseDistribution(course.distribution),
      learners_lists:
        'learners_lists' in body ? body.learners_lists : await listUuidsOf(app.db, course.uuid),
    };
    const problems = publishCheck(toPublishCourse(effective), {
      now,
      hasLearnersLists: await companyHasLearnersLists(app.db, companyUuid),
    });
    errors = publishProblemsToFieldErrors(problems);
  }
  const parsed = ZCourseUpdateRequestSchema.safeParse(raw);
  if (!parsed.success) {
    // When publishing, a path the publish check named keeps its day/language/option message.
    const named = new Set(Object.keys(errors));
    for (const [path, messages] of Object.entries(fieldErrorsOf(parsed.error))) {
      if (!named.has(path)) errors[path] = messages;
    }
  }
  if (imageInJson(body)) errors.image = [MESSAGES.imageMultipartOnly];
  // Over the limit the list is refused as a whole, not looked up id by id.
  if (Array.isArray(body.learners_lists) && body.learners_lists.length <= MAX_IDS_PER_REQUEST) {
    const given = body.learners_lists.filter(
      (value): value is string => typeof value === 'string' && z.uuid().safeParse(value).success,
    );
    const foreign = await foreignListUuids(app.db, companyUuid, given);
    body.learners_lists.forEach((value, index) => {
      if (typeof value === 'string' && foreign.has(value.toLowerCase())) {
        errors[`learners_lists.${index}`] = [MESSAGES.learnersListUnknown];
      }
    });
  }
  if (!parsed.success || Object.keys(errors).length > 0) {
    const first = Object.values(errors)[0]?.[0] ?? MESSAGES.invalidDataNoInfo;
    throw new AppError('VALIDATION_FAILED', publishing ? MESSAGES.fixAllErrors : first, {
      errors,
    });
  }
  const data = parsed.data;

  const status = data.status ?? course.status;
  const scheduledAt =
    status === 'scheduled'
      ? course.status === 'scheduled'
        ? (course.scheduled_at ?? now.toISOString())
        : now.toISOString()
      : status === 'draft'
        ? null
        : course.scheduled_at;
  const nowIso = now.toISOString();
  await withCompanyLock(app, companyUuid, async (trx) => {
    await assertSaveWithinPlan(trx, { companyUuid, course, data, now });
    await trx
      .updateTable('courses')
      .set({
        name: data.name,
        description: data.description,
        ...(data.category !== undefined ? { category: data.category } : {}),
        ...(data.distribution !== undefined
          ? { distribution: data.distribution ? JSON.stringify(data.distribution) : null }
          : {}),
        status,
        scheduled_at: scheduledAt,
        updated_at: nowIso,
      })
      .where('uuid', '=', course.uuid)
      .execute();
    await replaceCourseContent(trx, course.uuid, data, nowIso);
  });
};
