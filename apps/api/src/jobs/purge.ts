import { ARCHIVE_RETENTION_DAYS, IMPORT_ERROR_REPORT_RETENTION_DAYS } from '@ccp/schemas';
import type { FastifyInstance } from 'fastify';

import { removeErrorReport } from '../imports/error-report.ts';
import { DAY_MS } from '../lib/clock.ts';
import { removeCoverImage } from '../lib/images.ts';
import { purgeArchivedLearners } from '../learners/learners-repository.ts';

export type PurgeResult = { courses: number; learners: number };

type PurgeApp = Pick<FastifyInstance, 'db' | 'clock' | 'files'>;

const REPORTS_PER_PAGE = 500;

const daysAgo = (app: PurgeApp, days: number) =>
  new Date(app.clock.now().getTime() - days * DAY_MS).toISOString();

/** Permanently deletes courses and learners archived more than 30 days ago (spec §4). */
export const purgeArchived = async (app: PurgeApp): Promise<PurgeResult> => {
  const cutoff = daysAgo(app, ARCHIVE_RETENTION_DAYS);
  const courses = await app.db
    .deleteFrom('courses')
    .where('deleted_at', 'is not', null)
    .where('deleted_at', '<', cutoff)
    .returning(['uuid', 'image_path'])
    .execute();
  await Promise.all(
    courses
      .filter((course) => course.image_path)
      .map((course) => removeCoverImage(app.files, course.image_path)),
  );
  const learners = await purgeArchivedLearners(app.db, cutoff);
  return { courses: courses.length, learners };
};

/**
 * Deletes the error reports of jobs that ended more than IMPORT_ERROR_REPORT_RETENTION_DAYS ago
 * and clears their path, which is how GET …/errors tells a purged report from none. Answers how
 * many were deleted.
 */
export const purgeJobReports = async (app: PurgeApp): Promise<number> => {
  const cutoff = daysAgo(app, IMPORT_ERROR_REPORT_RETENTION_DAYS);
  let purged = 0;
  for (;;) {
    // A page at a time, so the update's list of uuids stays short.
    const jobs = await app.db
      .selectFrom('jobs')
      .select(['uuid', 'error_report_path'])
      .where('error_report_path', 'is not', null)
      .where('finished_at', 'is not', null)
      .where('finished_at', '<', cutoff)
      .limit(REPORTS_PER_PAGE)
      .execute();
    if (jobs.length === 0) return purged;
    // Files first: a crash in between leaves the path set, and the next run deletes again.
    await Promise.all(jobs.map((job) => removeErrorReport(app.files, job)));
    await app.db
      .updateTable('jobs')
      .set({ error_report_path: null })
      .where(
        'uuid',
        'in',
        jobs.map((job) => job.uuid),
      )
      .execute();
    purged += jobs.length;
  }
};

/** Runs the purges now and then every hour; the timer never keeps the process alive. */
export const schedulePurge = (app: FastifyInstance, everyMs = 60 * 60 * 1000): (() => void) => {
  const purge = async () => {
    const result = await purgeArchived(app);
    if (result.courses + result.learners > 0) app.log.info(result, 'purged archived items');
    const reports = await purgeJobReports(app);
    if (reports > 0) app.log.info({ reports }, 'purged job error reports');
  };
  const run = () => {
    purge().catch((error: unknown) => app.log.error({ err: error }, 'purge failed'));
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => clearInterval(timer);
};
