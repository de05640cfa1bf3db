import { createActions, dataProvider, sessionFor } from '@ccp/data-provider';
import { PAGINATION } from '@ccp/schemas';
import type { TLearner } from '@ccp/schemas';

import type { GlobalOptions } from '../../lib/client.ts';
import { requireSession } from '../../lib/client.ts';
import { canColor } from '../../lib/interactive.ts';
import type { CliIo } from '../../lib/io.ts';
import { printErr, printJson, printOut } from '../../lib/io.ts';
import { confirmOrYes, resolveLearner, resolveList } from '../../lib/resolve.ts';
import { renderTable } from '../../lib/table.ts';
import type { TableColumn } from '../../lib/table.ts';

export type LearnersListOptions = GlobalOptions & {
  archived?: boolean;
  list?: string;
  search?: string;
  limit?: number;
  all?: boolean;
  json?: boolean;
  /** One JSON object per line, written page by page. */
  jsonl?: boolean;
};

export type LearnerActionOptions = GlobalOptions & { json?: boolean; yes?: boolean };

export const DEFAULT_LIMIT = 30;

const LEARNER_COLUMNS: readonly TableColumn<TLearner>[] = [
  { header: 'NAME', value: (learner) => `${learner.first_name} ${learner.last_name}` },
  { header: 'EMAIL', value: (learner) => learner.email ?? '' },
  { header: 'PHONE', value: (learner) => learner.phone ?? '' },
  {
    header: 'CHANNELS',
    value: (learner) => learner.channels.map((channel) => channel.key).join(','),
  },
  {
    header: 'LISTS',
    value: (learner) => learner.learners_lists.map((list) => list.name).join(', '),
  },
  { header: 'UUID', value: (learner) => learner.uuid },
];

/** Writes `text` and waits until the stream took it, so a slow reader holds the pages back. */
const writeOut = (io: CliIo, text: string) =>
  new Promise<void>((resolve, reject) => {
    io.stdout.write(text, (error) => (error ? reject(error) : resolve()));
  });

/** One element of `JSON.stringify(array, null, 2)`, so a streamed array has the same bytes. */
const arrayItem = (value: unknown) => JSON.stringify(value, null, 2).replace(/^/gm, '  ');

/**
 * `ccp learners list`: page after page through the data provider, newest first. JSON and JSON
 * Lines are written as each page arrives, so `--all` holds one page at a time (issue 31: 1.7 GB
 * for 430,000 learners when they were gathered first); the table needs every row for its widths.
 */
export async function learnersList(options: LearnersListOptions, io: CliIo): Promise<void> {
  const session = requireSession(options, io);
  const provider = dataProvider(session.client);
  const list = options.list ? await resolveList(session, options.list) : null;
  const limit = options.all ? Number.POSITIVE_INFINITY : (options.limit ?? DEFAULT_LIMIT);
  const filters = [
    { field: 'archived', operator: 'eq' as const, value: options.archived ?? false },
    ...(options.search
      ? [{ field: 'search', operator: 'contains' as const, value: options.search }]
      : []),
    ...(list ? [{ field: 'learners_lists', operator: 'eq' as const, value: list.uuid }] : []),
  ];
  const pageSize = Math.min(
    Number.isFinite(limit) ? limit : PAGINATION.maxPerPage,
    PAGINATION.maxPerPage,
  );
  let total = 0;
  let seen = 0;
  async function* pages(): AsyncGenerator<TLearner[]> {
    for (let currentPage = 1; seen < limit; currentPage += 1) {
      const page = await provider.getList<TLearner>({
        resource: 'learners',
        pagination: { currentPage, pageSize, mode: 'server' },
        filters,
      });
      total = page.total;
      const data = page.data.slice(0, limit - seen);
      seen += data.length;
      if (data.length > 0) yield data;
      if (page.data.length === 0 || seen >= total) return;
    }
  }

  if (options.jsonl) {
    for await (const data of pages()) {
      await writeOut(io, data.map((learner) => `${JSON.stringify(learner)}\n`).join(''));
    }
    return;
  }
  if (options.json) {
    let first = true;
    for await (const data of pages()) {
      await writeOut(io, `${first ? '[\n' : ',\n'}${data.map(arrayItem).join(',\n')}`);
      first = false;
    }
    await writeOut(io, first ? '[]\n' : '\n]\n');
    return;
  }
  const shown: TLearner[] = [];
  for await (const data of pages()) shown.push(...data);
  if (shown.length === 0) {
    printErr(io, options.archived ? 'No archived learners.' : 'No learners.');
    return;
  }
  printOut(io, renderTable(shown, LEARNER_COLUMNS, { color: canColor(io, 'stdout') }));
  if (total > shown.length) {
    printErr(
      io,
      `Showing ${shown.length} of ${total} learners. Use --limit <n> or --all for more.`,
    );
  }
}

const describeLearner = (learner: TLearner): string =>
  [
    ['Name', `${learner.first_name} ${learner.last_name}`],
    ['Email', learner.email ?? ''],
    ['Phone', learner.phone ?? ''],
    ['Channels', learner.channels.map((channel) => channel.name).join(', ')],
    ['Language', learner.locale],
    ['Lists', learner.learners_lists.map((list) => list.name).join(', ')],
    ['Status', learner.status],
    ['UUID', learner.uuid],
  ]
    .map(([label, value]) => `${`${label}:`.padEnd(10)} ${value}`)
    .join('\n');

/** `ccp learners get <uuid|email>`. */
export async function learnersGet(wanted: string, options: LearnerActionOptions, io: CliIo) {
  const learner = await resolveLearner(requireSession(options, io), wanted);
  if (options.json) printJson(io, learner);
  else printOut(io, describeLearner(learner));
}

/** `ccp learners archive|restore|delete <uuid|email>…`. */
export async function learnersAction(
  action: 'archive' | 'restore' | 'delete',
  wanted: readonly string[],
  options: LearnerActionOptions,
  io: CliIo,
): Promise<void> {
  const session = requireSession(options, io);
  const provider = dataProvider(session.client);
  const actions = createActions(provider, sessionFor(session.client));
  const learners = [];
  for (const one of wanted) learners.push(await resolveLearner(session, one));
  if (action === 'delete') {
    await confirmOrYes(io, options, `Delete ${learners.length} learner(s) permanently?`);
  }
  const done: unknown[] = [];
  for (const learner of learners) {
    const label = learner.email ?? `${learner.first_name} ${learner.last_name}`;
    if (action === 'archive') done.push(await actions.archiveLearner(learner.uuid));
    else if (action === 'restore') done.push(await actions.restoreLearner(learner.uuid));
    else done.push((await provider.deleteOne({ resource: 'learners', id: learner.uuid })).data);
    if (!options.json)
      printErr(
        io,
        `${action === 'delete' ? 'Deleted' : `${action[0]!.toUpperCase()}${action.slice(1)}d`} ${label}.`,
      );
  }
  if (options.json) printJson(io, done);
}
