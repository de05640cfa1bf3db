import { describe, expect, it, vi } from 'vitest';

import type * as Existing from '../../src/imports/existing.ts';
import { HEADER, csv, importFile } from '../fixtures/imports.ts';
import { insertLearner, insertList } from '../fixtures/learners.ts';
import { buildTestApp, createSignedInUser } from '../helper.ts';

// Another request creates a learner with an e-mail of the file after the job looked the batch
// up: the lookup "misses" it. On Postgres the batch's plain INSERT then meets the e-mail; the
// batch is rolled back and done again as an upsert, so the job neither fails nor duplicates it.

const missedKeys = vi.hoisted(() => new Set<string>());

vi.mock('../../src/imports/existing.ts', async (importOriginal) => {
  const original = await importOriginal<typeof Existing>();
  return {
    ...original,
    findExisting: async (...args: Parameters<typeof original.findExisting>) => {
      const found = await original.findExisting(...args);
      for (const key of missedKeys) found.delete(key);
      return found;
    },
  };
});

describe('bulk learner import: an e-mail created after the lookup', async () => {
  const app = await buildTestApp();

  it('updates that learner instead of failing, and it joins the list once', async () => {
    const { company, headers } = await createSignedInUser(app);
    const taken = await insertLearner(app, company.uuid, {
      first_name: 'Old',
      last_name: 'Name',
      email: 'taken@example.test',
    });
    const list = await insertList(app, company.uuid, 'Newcomers');
    missedKeys.add('e:taken@example.test');

    const job = await importFile(
      app,
      headers,
      {
        name: 'race.csv',
        content: csv([
          HEADER,
          ['Ada', 'Lovelace', 'ada@example.test', '', 'slack', 'en'],
          ['New', 'Name', 'taken@example.test', '', 'slack', 'it'],
          ['Mario', 'Rossi', '', '+39 333 765 4321', 'whatsapp', 'it'],
        ]),
      },
      { list_uuid: list.uuid },
    );
    // Counted as the job saw it when it looked the rows up.
    expect(job).toMatchObject({ status: 'completed', created: 3, failed: 0 });

    const learners = await app.db
      .selectFrom('learners')
      .select(['uuid', 'first_name', 'last_name', 'email', 'locale'])
      .where('company_uuid', '=', company.uuid)
      .execute();
    expect(learners).toHaveLength(3);
    expect(learners.find((row) => row.email === 'taken@example.test')).toEqual({
      uuid: taken.uuid,
      first_name: 'New',
      last_name: 'Name',
      email: 'taken@example.test',
      locale: 'it',
    });
    const members = await app.db
      .selectFrom('learners_list_members')
      .select('learner_uuid')
      .where('list_uuid', '=', list.uuid)
      .execute();
    expect(members.map((row) => row.learner_uuid).sort()).toEqual(
      learners.map((row) => row.uuid).sort(),
    );
  });
});
