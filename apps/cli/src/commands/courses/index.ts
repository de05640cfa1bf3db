import { createActions, dataProvider } from '@ccp/data-provider';
import { COURSE_COPY_SUFFIX, cloneCourseName } from '@ccp/schemas';
import type { TCourse, TCourseListItem } from '@ccp/schemas';

import type { GlobalOptions } from '../../lib/client.ts';
import { requireSession, useClassroom } from '../../lib/client.ts';
import type { CliIo } from '../../lib/io.ts';
import { printErr, printJson } from '../../lib/io.ts';
import { confirmOrYes, resolveCourse } from '../../lib/resolve.ts';

export type CourseActionOptions = GlobalOptions & { json?: boolean; yes?: boolean; name?: string };

/** "X (copy)", else "X (copy 2)", "X (copy 3)"…: the first name no course of the classroom has. */
export const uniqueCloneName = (name: string, taken: readonly string[]): string => {
  const used = new Set(taken.map((one) => one.toLowerCase()));
  const first = cloneCourseName(name);
  const base = first.slice(0, -COURSE_COPY_SUFFIX.length);
  let candidate = first;
  for (let number = 2; used.has(candidate.toLowerCase()); number += 1) {
    candidate = `${base} (copy ${number})`;
  }
  return candidate;
};

/**
 * `ccp courses clone <course> [--name]`: a draft copy with all languages and assessments, under a
 * name no course of the classroom has (cloning twice made two "X (copy)").
 */
export async function coursesClone(wanted: string, options: CourseActionOptions, io: CliIo) {
  const session = requireSession(options, io);
  await useClassroom(session, options, io);
  const course = await resolveCourse(session, wanted);
  const provider = dataProvider(session.client);
  const taken = (
    await provider.getList<Pick<TCourseListItem, 'name'>>({ resource: 'courses-short' })
  ).data.map((one) => one.name);
  const wantedName = options.name ?? uniqueCloneName(course.name, taken);
  let clone = await createActions(provider).cloneCourse(course.uuid);
  if (wantedName !== clone.name) {
    clone = (
      await provider.update<TCourse>({
        resource: 'courses',
        id: clone.uuid,
        // The Intro step (multipart): the name and description alone, lessons untouched.
        variables: { name: wantedName, description: clone.description },
        meta: { intro: true },
      })
    ).data;
  }
  if (options.json) printJson(io, clone);
  else printErr(io, `Cloned "${course.name}" as "${clone.name}" (${clone.uuid}).`);
}

/** `ccp courses archive|restore|resume|cancel|delete <course>`. */
export async function coursesAction(
  action: 'archive' | 'restore' | 'resume' | 'cancel' | 'delete',
  wanted: string,
  options: CourseActionOptions,
  io: CliIo,
): Promise<void> {
  const session = requireSession(options, io);
  await useClassroom(session, options, io);
  const course = await resolveCourse(session, wanted);
  const provider = dataProvider(session.client);
  const actions = createActions(provider);
  let result: unknown;
  if (action === 'archive') result = await actions.archiveCourse(course.uuid);
  else if (action === 'restore') result = await actions.restoreCourse(course.uuid);
  else if (action === 'resume') result = await actions.resumeCourse(course.uuid);
  else if (action === 'cancel') {
    await confirmOrYes(io, options, `Cancel the course "${course.name}" for good?`);
    result = await actions.cancelCourse(course.uuid);
  } else {
    await confirmOrYes(io, options, `Delete the course "${course.name}" permanently?`);
    result = (await provider.deleteOne({ resource: 'courses', id: course.uuid })).data;
  }
  if (options.json) printJson(io, result);
  else {
    const done = {
      archive: 'Archived',
      restore: 'Restored',
      resume: 'Resumed',
      cancel: 'Canceled',
      delete: 'Deleted',
    }[action];
    printErr(io, `${done} "${course.name}".`);
  }
}
