import type { TPaginationLinks, TPaginationMeta } from '@ccp/schemas';
import type { CustomParams } from '@refinedev/core';

import { apiData, fillPath, paginatedResult, quietFor, segment, wholeList } from '../utils/api.ts';
import {
  isServerPagination,
  pageQuery,
  readFilters,
  rejectSorters,
  toBoolean,
} from '../utils/query.ts';
import type { ResourceContext, ResourceHandlers } from './types.ts';

/** Paths with `{classroomUuid}` get the current classroom, or `meta.classroomUuid`. */
export const COURSES_PATH = '/api/v1/classrooms/{classroomUuid}/courses';

type ActionRequest = Pick<CustomParams, 'url' | 'method'>;

const coursesPath = (context: ResourceContext) => fillPath(COURSES_PATH, context);
/** A named classroom's courses (a learner's courses may be in any), else the current one's. */
const coursesOf = (classroomUuid: string | undefined) =>
  classroomUuid ? `/api/v1/classrooms/${segment(classroomUuid)}/courses` : COURSES_PATH;

/** Multipart for the course Intro step; the cover goes as image.png (spec §5). */
const introForm = (fields: Record<string, unknown>, image: unknown): FormData => {
  const form = new FormData();
  for (const name of ['uuid', 'name', 'description', 'category', 'language']) {
    const value = fields[name];
    if (value === undefined) continue;
    if (value !== null && typeof value !== 'string' && typeof value !== 'number') {
      throw new Error(`The course Intro field "${name}" must be text, got ${typeof value}.`);
    }
    // An empty category clears it; FormData has no null.
    form.append(name, value === null ? '' : String(value));
  }
  if (image instanceof Blob) form.append('image', image, 'image.png');
  return form;
};

/**
 * courses: GET …/courses (archived, page, per_page; paginate=false for client/off pagination),
 * GET …/courses/{id}, POST …/courses (JSON, or multipart with an `image` Blob), POST
 * …/courses/{id} (JSON course, or the multipart Intro with an `image` Blob or `meta.intro`),
 * DELETE …/courses/{id} (permanent). Filter: `archived eq`.
 */
export const coursesResource: ResourceHandlers = {
  getList: async (params, context) => {
    rejectSorters('courses', params.sorters);
    const filters = readFilters('courses', params.filters, {
      archived: { operators: ['eq'], param: 'archived' },
    });
    const { meta } = context;
    const quiet = quietFor(meta);
    const archived = toBoolean('archived', filters.archived ?? meta.archived ?? false);
    // Client-side or no pagination needs every course: the API's paginate=false.
    const paginate =
      meta.paginate !== undefined
        ? toBoolean('paginate', meta.paginate)
        : params.pagination === undefined || isServerPagination(params.pagination);
    const query = paginate
      ? { archived, ...pageQuery('courses', params.pagination) }
      : { archived, paginate: false };
    const body = await context.client.get<{
      data: unknown[];
      meta?: TPaginationMeta;
      links?: TPaginationLinks;
    }>(await coursesPath(context), {
      query,
      signal: context.signal,
      // A caller that tells the user itself (meta.errorFeedback 'caller') is told nothing here.
      ...(quiet ? { quiet } : {}),
    });
    return paginate ? paginatedResult('courses', body) : wholeList(body.data);
  },
  getOne: async (id, context) =>
    apiData(context, 'GET', `${await coursesPath(context)}/${segment(id)}`),
  create: async ({ image, ...fields }, context) => {
    const path = await coursesPath(context);
    return image instanceof Blob
      ? apiData(context, 'POST', path, { form: introForm(fields, image) })
      : apiData(context, 'POST', path, { body: fields });
  },
  update: async (id, { image, ...fields }, context) => {
    const path = `${await coursesPath(context)}/${segment(id)}`;
    if (image instanceof Blob || context.meta.intro === true) {
      return apiData(context, 'POST', path, { form: introForm({ uuid: id, ...fields }, image) });
    }
    return apiData(context, 'POST', path, { body: fields });
  },
  deleteOne: async (id, context) =>
    apiData(context, 'DELETE', `${await coursesPath(context)}/${segment(id)}`),
};

/** courses-short: GET …/courses/short, every live course by name and status. */
export const coursesShortResource: ResourceHandlers = {
  getList: async (params, context) => {
    rejectSorters('courses-short', params.sorters);
    readFilters('courses-short', params.filters, {});
    return wholeList(await apiData(context, 'GET', `${await coursesPath(context)}/short`));
  },
};

/** The course actions that are not CRUD calls (spec §7), as `{url, method}` for `custom`. */
export const courseActionRequests = {
  cloneCourse: (uuid: string) =>
    ({ url: `${COURSES_PATH}/${segment(uuid)}/clone`, method: 'post' }) satisfies ActionRequest,
  /** Soft delete; `deleteOne` is the permanent one. */
  archiveCourse: (uuid: string) =>
    ({ url: `${COURSES_PATH}/${segment(uuid)}/soft`, method: 'delete' }) satisfies ActionRequest,
  restoreCourse: (uuid: string) =>
    ({ url: `${COURSES_PATH}/${segment(uuid)}/restore`, method: 'post' }) satisfies ActionRequest,
  /** A paused course goes on: its unsent lessons planned from the next slot. */
  resumeCourse: (uuid: string) =>
    ({ url: `${COURSES_PATH}/${segment(uuid)}/resume`, method: 'post' }) satisfies ActionRequest,
  /** A running or paused course stops for good. */
  cancelCourse: (uuid: string) =>
    ({ url: `${COURSES_PATH}/${segment(uuid)}/cancel`, method: 'post' }) satisfies ActionRequest,
  /** The course's lessons and invitations that did not go; `classroomUuid`: else the current one. */
  courseDeliveryFailures: (uuid: string, classroomUuid?: string) =>
    ({
      url: `${coursesOf(classroomUuid)}/${segment(uuid)}/delivery-failures`,
      method: 'get',
    }) satisfies ActionRequest,
  /** Payload `{ lessons?, invitations? }` or `{ all_failed: true }`. */
  resendCourseSends: (uuid: string, classroomUuid?: string) =>
    ({
      url: `${coursesOf(classroomUuid)}/${segment(uuid)}/resend`,
      method: 'post',
    }) satisfies ActionRequest,
};
