import type { Transaction } from 'kysely';

import type { Database } from '../db/types.ts';
import { DAY_MS } from '../lib/clock.ts';
import { createRandom } from './random.ts';

// Acme's sample chat connections for the Channels page: a Slack workspace and a Teams app,
// status `demo`. They hold no secrets (nothing is sealed, so the demo needs no CCP_SECRETS_KEY),
// answer no webhook and send nothing: the scheduler only sends through `connected` rows. An
// administrator replaces one by saving real credentials. Their own random stream.

const CONNECTIONS_SEED = 20_260_116;

type ConnectionsSeed = { companyUuid: string; createdBy: string; now: Date };

export const seedConnections = async (
  trx: Transaction<Database>,
  seed: ConnectionsSeed,
): Promise<void> => {
  const random = createRandom(CONNECTIONS_SEED);
  const at = (daysAgo: number) => new Date(seed.now.getTime() - daysAgo * DAY_MS).toISOString();
  const row = (channel: string, providerIds: Record<string, string>, daysAgo: number) => ({
    uuid: random.uuid(),
    company_uuid: seed.companyUuid,
    channel,
    status: 'demo',
    provider_ids: JSON.stringify(providerIds),
    provider_key: null,
    secrets: '',
    last_error: null,
    last_tested_at: at(daysAgo - 0.01),
    created_by: seed.createdBy,
    created_at: at(daysAgo),
    updated_at: at(daysAgo - 0.01),
  });
  await trx
    .insertInto('channel_connections')
    .values([
      row(
        'slack',
        {
          client_id: '4829100337.5512009388',
          team_id: 'T04ACME7Q',
          team: 'Acme Training',
          bot_user_id: 'U05CCPBOT',
        },
        96,
      ),
      row('ms-teams', { tenant_id: random.uuid(), app_id: random.uuid() }, 140),
    ])
    .execute();
};
