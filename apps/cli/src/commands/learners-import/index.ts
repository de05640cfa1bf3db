import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

import { ApiError, currentUser, dataProvider, uploadLearnersImport } from '@ccp/data-provider';
import {
  FINISHED_JOB_STATUSES,
  CHANNEL_KEYS,
  LOCALES,
  IMPORT_ENCODINGS,
  ZImportUploadFieldsSchema,
  applyImportPhoneCountries,
  importEncodingOf,
  isKnownCountry,
  matchImportHeader,
  parseImportColumnOverrides,
  parseImportPhoneCountries,
} from '@ccp/schemas';
import type {
  TChannelKey,
  TImportColumn,
  TImportColumnOverrides,
  TImportJob,
  TImportPhoneCountries,
  TImportPreviewRow,
  TLearnersList,
  TLocale,
} from '@ccp/schemas';

import type { CliSession, GlobalOptions } from '../../lib/client.ts';
import { clientTuning, requireSession } from '../../lib/client.ts';
import { CliError, EXIT, UsageError } from '../../lib/errors.ts';
import { idleTimeout } from '../../lib/idle-timeout.ts';
import type { ImportStateEntry } from '../../lib/import-state.ts';
import { openImportSource } from '../../lib/import-file.ts';
import type { ImportSource } from '../../lib/import-file.ts';
import { isCi } from '../../lib/interactive.ts';
import { parkWhileInterrupted } from '../../lib/interrupt.ts';
import type { CliIo } from '../../lib/io.ts';
import { printErr, printJson, printOut } from '../../lib/io.ts';
import { multipartBody } from '../../lib/multipart.ts';
import { createProgress, formatBytes, formatCount } from '../../lib/progress.ts';
import type { Progress } from '../../lib/progress.ts';
import { checkImportFile } from './check.ts';
import type { TCheckResult } from './check.ts';
import {
  cancelOnInterrupt,
  fetchReport,
  importStateOf,
  jobUuidOf,
  printReasons,
  reportReasons,
} from './jobs.ts';

export type LearnersImportOptions = GlobalOptions & {
  list?: string;
  defaultCountry?: string;
  defaultChannels?: string;
  defaultLanguage?: string;
  encoding?: string;
  map?: string[];
  /** `HEADER=COUNTRY`, repeatable: the country of national numbers of one phone column. */
  phoneCountry?: string[];
  dryRun?: boolean;
  errorsOut?: string;
  /** False with --no-wait. */
  wait?: boolean;
  json?: boolean;
  /** Import a file again although an import of it already finished. */
  again?: boolean;
  /** Off a terminal, Ctrl-C stops the job on the server too. */
  cancelOnInterrupt?: boolean;
};

export type ImportStatusOptions = GlobalOptions & {
  errorsOut?: string;
  wait?: boolean;
  json?: boolean;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Progress is for people: on stderr, a bar on a terminal, plain lines in CI, none with --json. */
const progressFor = (io: CliIo, options: { json?: boolean }): Progress =>
  createProgress(io, {
    tty: io.stderrIsTTY && !isCi(io.env) && io.env.TERM !== 'dumb',
    enabled: !options.json,
  });

/** `-`: stdin is kept in a temporary CSV first, so it can be checked, hashed and uploaded. */
const spoolStdin = async (io: CliIo): Promise<{ file: string; cleanup: () => void }> => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ccp-import-'));
  const file = path.join(dir, 'stdin.csv');
  await pipeline(io.stdin, createWriteStream(file));
  return { file, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
};

const overridesOf = (options: LearnersImportOptions): TImportColumnOverrides => {
  try {
    return parseImportColumnOverrides(options.map ?? []);
  } catch (error) {
    throw new UsageError(`--map: ${(error as Error).message}`);
  }
};

/** --phone-country, checked: the country of national numbers per phone column, by header. */
const phoneCountriesOf = (options: LearnersImportOptions): TImportPhoneCountries => {
  try {
    return parseImportPhoneCountries(options.phoneCountry ?? []);
  } catch (error) {
    throw new UsageError(`--phone-country: ${(error as Error).message}`);
  }
};

/** --encoding, checked: it wins over the guess, here and on the server. */
const encodingOf = (options: LearnersImportOptions) => {
  if (options.encoding === undefined) return undefined;
  const encoding = importEncodingOf(options.encoding);
  if (!encoding) {
    throw new UsageError(
      `--encoding: expected one of ${IMPORT_ENCODINGS.join(', ')}, got "${options.encoding}".`,
    );
  }
  return encoding;
};

/** The row defaults (--default-country, --default-channels, --default-language), checked. */
const rowDefaultsOf = (options: LearnersImportOptions): TImportRowDefaults => {
  const country = options.defaultCountry?.trim().toUpperCase();
  if (country && !isKnownCountry(country)) {
    throw new UsageError(
      `--default-country: expected a two-letter country code such as IT, got "${options.defaultCountry}".`,
    );
  }
  const fields = ZImportUploadFieldsSchema.safeParse({
    default_channels: options.defaultChannels,
    default_locale: options.defaultLanguage,
  });
  if (!fields.success) {
    const flag = fields.error.issues[0]?.path[0] === 'default_locale' ? 'language' : 'channels';
    throw new UsageError(
      flag === 'language'
        ? `--default-language: expected one of ${LOCALES.join(', ')}, got "${options.defaultLanguage}".`
        : `--default-channels: expected channels among ${CHANNEL_KEYS.join(', ')}, got "${options.defaultChannels}".`,
    );
  }
  return {
    defaultCountry: country || undefined,
    defaultChannels: fields.data.default_channels,
    defaultLocale: fields.data.default_locale,
  };
};

type TImportRowDefaults = {
  defaultCountry: string | undefined;
  defaultChannels: TChannelKey[] | undefined;
  defaultLocale: TLocale | undefined;
};

/** Columns the defaults stand in for: a default channel makes a channels column optional. */
const defaultedColumns = (defaults: TImportRowDefaults): TImportColumn[] =>
  defaults.defaultChannels?.length ? ['channels'] : [];

/** `Mobile (Ireland) → phone (--map, IE)`: each read header, with a phone column's country. */
const describeMapping = (check: Pick<TCheckResult, 'matched'>): string =>
  `Columns: ${check.matched.matches
    .map((match) => {
      const notes = [
        match.by === 'override' ? '--map' : null,
        check.matched.columns.phoneCountries?.[match.index] ?? null,
      ].filter(Boolean);
      return `${match.header.trim()} → ${match.column}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`;
    })
    .join(', ')}`;

/** The chosen phone countries by header as the file writes it (for --json). */
const phoneCountriesShown = (check: Pick<TCheckResult, 'matched'>): TImportPhoneCountries =>
  Object.fromEntries(
    check.matched.matches.flatMap((match) => {
      const country = check.matched.columns.phoneCountries?.[match.index];
      return country ? [[match.header, country]] : [];
    }),
  );

/** `line 2: Anna Verdi <anna@x.it> +393475550101 (IT, mobile) whatsapp,slack en` and warnings. */
const describePreviewRow = (row: TImportPreviewRow): string =>
  [
    `line ${row.line}: ${row.first_name} ${row.last_name}`,
    row.email ? `<${row.email}>` : null,
    row.phone ? `${row.phone.e164} (${row.phone.country ?? '?'}, ${row.phone.type})` : null,
    row.channels.join(','),
    row.locale,
    ...row.warnings.map((warning) => `⚠ ${warning}`),
  ]
    .filter(Boolean)
    .join(' ');

const warnUnusedOverrides = (io: CliIo, check: Pick<TCheckResult, 'matched'>) => {
  for (const key of check.matched.unusedOverrides) {
    printErr(io, `Warning: --map names "${key}", which is not a column of the file.`);
  }
};

// ---------------------------------------------------------------------------------------------
// Dry run: everything on this machine.

const dryRun = async (
  io: CliIo,
  source: ImportSource,
  fileName: string,
  options: LearnersImportOptions,
): Promise<void> => {
  const progress = progressFor(io, options);
  const started = Date.now();
  const result = await checkImportFile(source, {
    overrides: overridesOf(options),
    phoneCountries: phoneCountriesOf(options),
    defaults: rowDefaultsOf(options),
    errorsOut: options.errorsOut,
    // An .xlsx is read unzipped, so its bytes say nothing of how far the check is.
    onProgress: (rows, bytes) =>
      progress.update(
        `Checked ${formatCount(rows)} rows${source.format === 'csv' ? ` (${formatBytes(bytes)})` : ''}`,
      ),
  });
  progress.done(options.json ? undefined : `Checked ${formatCount(result.rows)} rows.`);
  const seconds = (Date.now() - started) / 1000;
  if (options.json) {
    printJson(io, {
      file: fileName,
      dry_run: true,
      encoding: source.format === 'csv' ? source.encoding : null,
      delimiter: source.format === 'csv' ? source.delimiter : null,
      columns: result.matched.columns,
      phone_countries: phoneCountriesShown(result),
      problems: result.problems,
      total_rows: result.rows,
      valid: result.valid,
      failed: result.failed,
      warned: result.warned,
      errors: result.errors,
      preview: result.preview,
    });
  } else {
    if (result.matched.matches.length > 0) printErr(io, describeMapping(result));
    warnUnusedOverrides(io, result);
    for (const row of result.preview.slice(0, 10)) printErr(io, describePreviewRow(row));
    printReasons(
      io,
      result.errors,
      result.failed,
      options.errorsOut ? `in ${options.errorsOut}` : '(--errors-out FILE lists them all)',
    );
    printErr(
      io,
      `Dry run of ${fileName}: ${formatCount(result.rows)} rows, ${formatCount(result.valid)} valid, ${formatCount(result.failed)} with errors (${seconds.toFixed(1)} s). Nothing was sent.`,
    );
  }
  if (result.problems.length > 0) {
    throw new CliError(options.json ? '' : result.problems.join('\n'), EXIT.error);
  }
  if (result.failed > 0) throw new CliError('', EXIT.incomplete);
};

// ---------------------------------------------------------------------------------------------
// The real run: upload, then wait for the job.

/** An upload answered 202 up to this long after it started is one we may have missed. */
const UPLOAD_WINDOW_MS = 15 * 60 * 1000;

/** The user's job for this file started by an interrupted upload, if the server made one. */
const jobOfLostAnswer = async (
  session: CliSession,
  entry: ImportStateEntry,
): Promise<TImportJob | null> => {
  const me = await currentUser(session.client);
  const { data } = await session.client.get<{ data: TImportJob[] }>('/api/v1/learners/imports', {
    query: { per_page: 20 },
  });
  const from = Date.parse(entry.started_at) - 60_000;
  return (
    data.find(
      (job) =>
        job.user_uuid === me.uuid &&
        job.file_name === entry.file_name &&
        !job.dry_run &&
        !FINISHED_JOB_STATUSES.includes(job.status) &&
        Date.parse(job.created_at) >= from &&
        Date.parse(job.created_at) <= from + UPLOAD_WINDOW_MS,
    ) ?? null
  );
};

const fileHash = async (file: string): Promise<string> => {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file, { highWaterMark: 1024 * 1024 }), hash);
  return hash.digest('hex');
};

const jobPath = (uuid: string) => `/api/v1/learners/imports/${encodeURIComponent(uuid)}`;

const getJob = async (session: CliSession, uuid: string): Promise<TImportJob> =>
  (await session.client.get<{ data: TImportJob }>(jobPath(uuid))).data;

const describeCounts = (job: TImportJob) =>
  `${formatCount(job.created)} created, ${formatCount(job.updated)} updated, ${formatCount(job.skipped)} unchanged, ${formatCount(job.failed)} failed${job.warned > 0 ? ` (${formatCount(job.warned)} stored with a warning, in the error report)` : ''}`;

/**
 * Polls the job until it ends: quickly at first (a small file is done in a blink), then four times
 * a second, so the end is seen within 250 ms (a poll is one indexed read).
 */
const waitForJob = async (
  io: CliIo,
  session: CliSession,
  first: TImportJob,
  progress: Progress,
): Promise<TImportJob> => {
  let job = first;
  let delay = 50;
  while (!FINISHED_JOB_STATUSES.includes(job.status)) {
    progress.update(
      `Importing ${job.file_name}: ${formatCount(job.processed_rows)}/${formatCount(job.total_rows)} rows · ${describeCounts(job)}`,
      job.total_rows > 0 ? job.processed_rows / job.total_rows : 0,
    );
    await sleep(delay);
    // Ctrl-C's question is on screen: no more drawing until it is answered (ccp then exits).
    await parkWhileInterrupted();
    delay = Math.min(250, delay * 2);
    job = await getJob(session, job.uuid);
  }
  progress.done();
  return job;
};

/**
 * The upload, bounded by --timeout of silence: while the body moves, and then for the answer.
 */
const upload = async (
  session: CliSession,
  body: Awaited<ReturnType<typeof multipartBody>>,
  idle: ReturnType<typeof idleTimeout>,
): Promise<TImportJob> => {
  try {
    return await uploadLearnersImport(session.client, body, idle.signal);
  } finally {
    idle.clear();
  }
};

/** A re-run of a file whose import already ended: that import's result, not a second upload. */
const reportFinished = async (
  io: CliIo,
  session: CliSession,
  job: TImportJob,
  options: LearnersImportOptions,
): Promise<void> => {
  if (!options.json) {
    printErr(
      io,
      `This file was already imported (job ${job.uuid}, ${job.status}); its result follows. To import it again: --again`,
    );
  }
  await finish(io, session, job, options);
};

/** The summary, the error report, and the exit code of a finished job. */
const finish = async (
  io: CliIo,
  session: CliSession,
  job: TImportJob,
  options: { json?: boolean; errorsOut?: string },
): Promise<void> => {
  const report = await fetchReport(session, job, options.errorsOut);
  if (options.json) printJson(io, job);
  else {
    // The first reasons, as the dry run shows them: most files fail for one or two reasons.
    if (report !== null && job.failed > 0) {
      printReasons(
        io,
        reportReasons(report),
        job.failed,
        options.errorsOut ? `in ${options.errorsOut}` : 'in the report',
      );
    }
    const what = job.dry_run ? 'Checked on the server' : 'Imported';
    printErr(
      io,
      `${what} ${job.file_name} (job ${job.uuid}): ${formatCount(job.total_rows)} rows, ${describeCounts(job)}.`,
    );
    if (job.failed > 0) {
      printErr(
        io,
        options.errorsOut
          ? `The rows that failed are in ${options.errorsOut}.`
          : `See the rows that failed: ccp learners import status ${job.uuid} --errors-out errors.csv`,
      );
    }
  }
  if (job.status === 'failed' || job.status === 'canceled') {
    throw new CliError(job.error_summary ?? `The import ended ${job.status}.`, EXIT.error);
  }
  if (job.failed > 0) throw new CliError('', EXIT.incomplete);
};

const resolveList = async (session: CliSession, wanted: string): Promise<TLearnersList> => {
  const { data } = await dataProvider(session.client).getList<TLearnersList>({
    resource: 'learners-lists',
  });
  const found =
    data.find((list) => list.uuid === wanted) ??
    data.find((list) => list.name.toLowerCase() === wanted.toLowerCase());
  if (!found) {
    throw new UsageError(
      `No learners list "${wanted}". Lists: ${data.map((list) => list.name).join(', ') || 'none'}.`,
    );
  }
  return found;
};

/**
 * `ccp learners import FILE`: checks the header here, uploads the file through the bulk-import
 * endpoint and waits for the job. The job is remembered (by the file's content and the options)
 * until it ends, so running the same command again after Ctrl-C or a lost connection re-attaches
 * to it instead of importing twice; a finished file imported again changes nothing (upsert).
 */
export async function learnersImport(
  file: string,
  options: LearnersImportOptions,
  io: CliIo,
): Promise<void> {
  const stdin = file === '-' ? await spoolStdin(io) : null;
  const localFile = stdin?.file ?? file;
  try {
    try {
      statSync(localFile);
    } catch {
      throw new UsageError(`No such file: ${file}`);
    }
    const source = await openImportSource(localFile, encodingOf(options));
    const fileName = stdin ? 'stdin.csv' : path.basename(file);
    if (options.dryRun) {
      await dryRun(io, source, fileName, options);
      return;
    }
    const overrides = overridesOf(options);
    const phoneCountries = phoneCountriesOf(options);
    const defaults = rowDefaultsOf(options);

    // The header is checked before anything is sent: a file the server would refuse for its
    // columns fails here at once.
    let header: string[] | null = null;
    for await (const batch of source.rows()) {
      header = batch[0]?.cells ?? null;
      break;
    }
    const byName = matchImportHeader(header ?? [], overrides, defaultedColumns(defaults));
    const applied = applyImportPhoneCountries(byName, phoneCountries);
    const matched = { ...byName, columns: applied.columns };
    const problems = [...byName.problems, ...(byName.problems.length > 0 ? [] : applied.problems)];
    if (header !== null && problems.length > 0) {
      throw new CliError(problems.join('\n'), EXIT.error);
    }
    if (!options.json && header !== null) printErr(io, describeMapping({ matched }));
    if (header !== null) warnUnusedOverrides(io, { matched });

    const session = requireSession(options, io);
    const list = options.list ? await resolveList(session, options.list) : null;
    const key = createHash('sha256')
      .update(
        JSON.stringify([
          session.apiUrl,
          await fileHash(localFile),
          list?.uuid,
          overrides,
          phoneCountries,
          defaults,
        ]),
      )
      .digest('hex');
    const progress = progressFor(io, options);

    const state = importStateOf(session, io);
    let job: TImportJob | null = null;
    const remembered = state.get(key);
    if (remembered) {
      try {
        const previous = remembered.job
          ? await getJob(session, remembered.job)
          : await jobOfLostAnswer(session, remembered);
        if (previous && FINISHED_JOB_STATUSES.includes(previous.status) && !options.again) {
          await reportFinished(io, session, previous, options);
          return;
        }
        if (previous && !FINISHED_JOB_STATUSES.includes(previous.status)) {
          job = previous;
          if (!options.json) {
            printErr(
              io,
              `Re-attaching to the import of this file already under way (job ${job.uuid}).`,
            );
          }
        }
      } catch (error) {
        // A job the server no longer knows: import again.
        if (!(error instanceof ApiError && error.status === 404)) throw error;
      }
    }

    if (!job) {
      // A stream is sent once: make sure the session is fresh before the upload, not during it.
      await currentUser(session.client);
      let sent = 0;
      const { size } = statSync(localFile);
      const bodyProgress = idleTimeout(clientTuning(options, io).timeoutMs);
      const body = await multipartBody(
        {
          list_uuid: list?.uuid,
          columns: Object.keys(overrides).length > 0 ? JSON.stringify(overrides) : undefined,
          phone_countries:
            Object.keys(phoneCountries).length > 0 ? JSON.stringify(phoneCountries) : undefined,
          default_country: defaults.defaultCountry,
          default_channels: defaults.defaultChannels?.join(','),
          default_locale: defaults.defaultLocale,
          encoding: source.format === 'csv' ? source.encoding : undefined,
        },
        {
          field: 'file',
          path: localFile,
          fileName,
          contentType: source.format === 'csv' ? 'text/csv' : 'application/octet-stream',
        },
        (bytes) => {
          sent += bytes;
          bodyProgress.touch();
          progress.update(
            `Uploading ${fileName}: ${formatBytes(sent)} of ${formatBytes(size)}`,
            sent / size,
          );
        },
      );
      const entry: ImportStateEntry = {
        job: null,
        file: path.resolve(localFile),
        file_name: fileName,
        started_at: new Date().toISOString(),
        api_url: session.apiUrl,
      };
      state.set(key, entry);
      job = await upload(session, body, bodyProgress);
      state.set(key, { ...entry, job: job.uuid });
      progress.done(
        options.json
          ? undefined
          : `Uploaded ${fileName} (${formatBytes(size)}): job ${job.uuid}, ${formatCount(job.total_rows)} rows.`,
      );
    }

    if (options.wait === false) {
      if (options.json) printJson(io, job);
      else printOut(io, job.uuid);
      return;
    }
    const stopHandling = cancelOnInterrupt(io, session, job.uuid, options, () => progress.done());
    const finished = await waitForJob(io, session, job, progress);
    stopHandling();
    const entry = state.get(key);
    if (entry) state.set(key, { ...entry, finished: true });
    await finish(io, session, finished, options);
  } finally {
    stdin?.cleanup();
  }
}

/**
 * `ccp learners import status [JOB]`: re-attaches to an import (the last one started here when no
 * job is named) and waits for it to end.
 */
export async function learnersImportStatus(
  named: string | undefined,
  options: ImportStatusOptions,
  io: CliIo,
): Promise<void> {
  const session = requireSession(options, io);
  const job = await getJob(session, jobUuidOf(session, io, named));
  if (options.wait === false) {
    if (options.json) printJson(io, job);
    else
      printErr(
        io,
        `${job.status}: ${formatCount(job.processed_rows)}/${formatCount(job.total_rows)} rows, ${describeCounts(job)}.`,
      );
    return;
  }
  const finished = await waitForJob(io, session, job, progressFor(io, options));
  await finish(io, session, finished, options);
}
