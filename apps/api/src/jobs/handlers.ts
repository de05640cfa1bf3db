import { aiImportHandler } from '../ai/import-job.ts';
import { AI_IMPORT_KIND } from '../ai/plan.ts';
import { learnersImportHandler } from '../imports/learners-import.ts';
import { LEARNERS_IMPORT_KIND } from '../imports/options.ts';
import type { JobHandlers } from './types.ts';

// Every job kind the runner knows. A new kind adds its handler here.
export const defaultJobHandlers: JobHandlers = {
  [LEARNERS_IMPORT_KIND]: learnersImportHandler,
  [AI_IMPORT_KIND]: aiImportHandler,
};
