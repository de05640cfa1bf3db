import type { Kysely } from 'kysely';

import type { Database } from '../types.ts';

// Reference data every installation has: chat channels, course languages and the plans.
// Fixed uuids so that clients may cache them and tests may name them.

export const CHANNELS = [
  {
    uuid: '6a1c2f3e-0001-4c00-8000-000000000001',
    key: 'ms-teams',
    name: 'MS Teams',
    contact: 'email',
  },
  { uuid: '6a1c2f3e-0001-4c00-8000-000000000002', key: 'slack', name: 'Slack', contact: 'email' },
  {
    uuid: '6a1c2f3e-0001-4c00-8000-000000000003',
    key: 'whatsapp',
    name: 'Whatsapp',
    contact: 'phone',
  },
  { uuid: '6a1c2f3e-0001-4c00-8000-000000000004', key: 'webex', name: 'Webex', contact: 'email' },
  {
    uuid: '6a1c2f3e-0001-4c00-8000-000000000005',
    key: 'google-chat',
    name: 'Google Chat',
    contact: 'email',
  },
] as const;

export const LANGUAGES = [
  { uuid: '6a1c2f3e-0002-4c00-8000-000000000001', name: 'English', short_name: 'en' },
  { uuid: '6a1c2f3e-0002-4c00-8000-000000000002', name: 'Italiano', short_name: 'it' },
  { uuid: '6a1c2f3e-0002-4c00-8000-000000000003', name: 'Deutsch', short_name: 'de' },
] as const;

const U = -1;
/**
 * The lowest plan follows spec §9's plan text: 6 learners, 10 lessons a month, one course
 * converted (AI transformer) or translated (AI translator) a month, one channel, no weekend skipping.
 */
export const PLANS = [
  {
    key: 'free',
    name: 'Free',
    functions: {
      'distribution-channels': 1,
      'creator-seats': 1,
      lessons: 10,
      learners: 6,
      'learner-portal': 0,
      'a-i-transformer': 1,
      'a-i-translator': 1,
      'exclusion-days': 0,
    },
  },
  {
    key: 'business',
    name: 'Business',
    functions: {
      'distribution-channels': U,
      'creator-seats': 10,
      lessons: U,
      learners: 1000,
      'learner-portal': 1,
      'a-i-transformer': 20,
      'a-i-translator': U,
      'exclusion-days': U,
    },
  },
  {
    key: 'enterprise',
    name: 'Enterprise',
    functions: {
      'distribution-channels': U,
      'creator-seats': U,
      lessons: U,
      learners: U,
      'learner-portal': U,
      'a-i-transformer': U,
      'a-i-translator': U,
      'exclusion-days': U,
    },
  },
] as const;

export const up = async (untyped: Kysely<unknown>): Promise<void> => {
  const db = untyped as Kysely<Database>;
  await db
    .insertInto('channels')
    .values(CHANNELS.map((channel, position) => ({ ...channel, position })))
    .execute();
  await db
    .insertInto('languages')
    .values(LANGUAGES.map((language, position) => ({ ...language, position })))
    .execute();
  await db
    .insertInto('plans')
    .values(PLANS.map((plan, position) => ({ key: plan.key, name: plan.name, position })))
    .execute();
  await db
    .insertInto('plan_functions')
    .values(
      PLANS.flatMap((plan) =>
        Object.entries(plan.functions).map(([function_key, limit_value]) => ({
          plan_key: plan.key,
          function_key,
          limit_value,
        })),
      ),
    )
    .execute();
};

export const down = async (untyped: Kysely<unknown>): Promise<void> => {
  const db = untyped as Kysely<Database>;
  await db.deleteFrom('plan_functions').execute();
  await db.deleteFrom('plans').execute();
  await db.deleteFrom('languages').execute();
  await db.deleteFrom('channels').execute();
};
