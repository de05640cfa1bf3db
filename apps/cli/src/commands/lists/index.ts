import { createActions, dataProvider, sessionFor } from '@ccp/data-provider';
import type { TLearnersList } from '@ccp/schemas';

import type { GlobalOptions } from '../../lib/client.ts';
import { requireSession } from '../../lib/client.ts';
import { canColor } from '../../lib/interactive.ts';
import type { CliIo } from '../../lib/io.ts';
import { printErr, printJson, printOut } from '../../lib/io.ts';
import { confirmOrYes, resolveLearner, resolveList } from '../../lib/resolve.ts';
import { renderTable } from '../../lib/table.ts';

export type ListsOptions = GlobalOptions & { json?: boolean; yes?: boolean };

/** `ccp lists list`: every learners list of the company. */
export async function listsList(options: ListsOptions, io: CliIo): Promise<void> {
  const session = requireSession(options, io);
  const { data } = await dataProvider(session.client).getList<TLearnersList>({
    resource: 'learners-lists',
  });
  if (options.json) {
    printJson(io, data);
    return;
  }
  if (data.length === 0) {
    printErr(io, 'No learners lists. Create one: ccp lists create <name>');
    return;
  }
  printOut(
    io,
    renderTable(
      data,
      [
        { header: 'NAME', value: (list) => list.name },
        {
          header: 'LEARNERS',
          value: (list) => String(list.learners_count),
          align: 'right',
        },
        { header: 'UUID', value: (list) => list.uuid },
      ],
      { color: canColor(io, 'stdout') },
    ),
  );
}

/** `ccp lists create <name>`. */
export async function listsCreate(name: string, options: ListsOptions, io: CliIo): Promise<void> {
  const session = requireSession(options, io);
  const { data } = await dataProvider(session.client).create<TLearnersList>({
    resource: 'learners-lists',
    variables: { name },
  });
  if (options.json) printJson(io, data);
  else printErr(io, `Created the learners list "${data.name}" (${data.uuid}).`);
}

/** `ccp lists delete <name|uuid>`: the list goes, its learners stay. */
export async function listsDelete(wanted: string, options: ListsOptions, io: CliIo): Promise<void> {
  const session = requireSession(options, io);
  const list = await resolveList(session, wanted);
  await confirmOrYes(io, options, `Delete the learners list "${list.name}"? Its learners stay.`);
  await dataProvider(session.client).deleteOne({ resource: 'learners-lists', id: list.uuid });
  if (options.json) printJson(io, { deleted: list.uuid });
  else printErr(io, `Deleted the learners list "${list.name}".`);
}

/** `ccp lists add <list> <learner…>`: learners by uuid or e-mail join the list. */
export async function listsAdd(
  wanted: string,
  learners: readonly string[],
  options: ListsOptions,
  io: CliIo,
): Promise<void> {
  const session = requireSession(options, io);
  const list = await resolveList(session, wanted);
  const actions = createActions(dataProvider(session.client), sessionFor(session.client));
  const results = [];
  for (const one of learners) {
    const learner = await resolveLearner(session, one);
    const lists = learner.learners_lists.map((ref) => ref.uuid);
    if (!lists.includes(list.uuid)) lists.push(list.uuid);
    results.push(await actions.syncLearnerLists(learner.uuid, lists));
    if (!options.json) printErr(io, `Added ${learner.email ?? learner.uuid} to "${list.name}".`);
  }
  if (options.json) printJson(io, results);
}
