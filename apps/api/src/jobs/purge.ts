import { rm } from 'node:fs/promises';
import path from 'node:path';

import { ARCHIVE_RETENTION_DAYS } from '@ccp/schemas';
import type { FastifyInstance } from 'fastify';

import { DAY_MS } from '../lib/clock.ts';

export type PurgeResult = { courses: number; learners: number };

/** Permanently deletes courses and learners archived more than 30 days ago (spec §4). */
export const purgeArchived = async (
  app: Pick<FastifyInstance, 'db' | 'clock' | 'dataDir'>,
): Promise<PurgeResult> => {
  const cutoff = new Date(
    app.clock.now().getTime() - ARCHIVE_RETENTION_DAYS * DAY_MS,
  ).toISOString();
  const courses = await app.db
    .deleteFrom('courses')
    .where('deleted_at', 'is not', null)
    .where('deleted_at', '<', cutoff)
    .returning(['uuid', 'image_path'])
    .execute();
  await Promise.all(
    courses
      .filter((course) => course.image_path)
      .map((course) =>
        rm(path.join(app.dataDir, course.image_path!.replace(/^\/+/, '')), { force: true }),
      ),
  );
  const learners = await app.db
    .deleteFrom('learners')
    .where('deleted_at', 'is not', null)
    .where('deleted_at', '<', cutoff)
    .returning('uuid')
    .execute();
  return { courses: courses.length, learners: learners.length };
};

/** Runs the purge now and then every hour; the timer never keeps the process alive. */
export const schedulePurge = (app: FastifyInstance, everyMs = 60 * 60 * 1000): (() => void) => {
  const run = () => {
    purgeArchived(app)
      .then((result) => {
        if (result.courses + result.learners > 0) app.log.info(result, 'purged archived items');
      })
      .catch((error: unknown) => app.log.error({ err: error }, 'purge failed'));
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => clearInterval(timer);
};
