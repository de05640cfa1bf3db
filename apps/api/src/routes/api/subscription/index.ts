import {
  SUBSCRIPTION_FUNCTIONS,
  SUBSCRIPTION_FUNCTION_KEYS,
  ZCreateUpgradeRequestRequestSchema,
  ZSubscriptionResponseSchema,
  ZUpgradeRequestResponseSchema,
  ZUsageParamsSchema,
  ZUsageResponseSchema,
  remainingOf,
} from '@ccp/schemas';
import type { TSubscriptionFunction } from '@ccp/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { notFound } from '../../../lib/app-error.ts';
import { newUuid } from '../../../lib/ids.ts';
import { usageOf, usagePeriodOf } from '../../../lib/usage.ts';
import { authOf } from '../../../plugins/auth.ts';

// The company's plan (spec §3 Subscription, §6 plan gating) and its upgrade requests.
export const subscriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/users/me/subscriptions',
    {
      schema: {
        tags: ['subscription'],
        summary: "The company's plan and the limit of each function (-1 = unlimited)",
        response: { 200: ZSubscriptionResponseSchema },
      },
    },
    async (request) => {
      const { user } = authOf(request);
      const plan = await app.db
        .selectFrom('companies')
        .innerJoin('plans', 'plans.key', 'companies.plan_key')
        .select(['plans.key', 'plans.name'])
        .where('companies.uuid', '=', user.company_uuid)
        .executeTakeFirst();
      if (!plan) throw notFound();
      const rows = await app.db
        .selectFrom('plan_functions')
        .select(['function_key', 'limit_value'])
        .where('plan_key', '=', plan.key)
        .execute();
      const limits = new Map(rows.map((row) => [row.function_key, row.limit_value]));
      // In the order of SUBSCRIPTION_FUNCTION_KEYS; keys this version does not know are left out.
      const functions: TSubscriptionFunction[] = SUBSCRIPTION_FUNCTION_KEYS.filter((key) =>
        limits.has(key),
      ).map((key) => ({
        function: { key, name: SUBSCRIPTION_FUNCTIONS[key].name },
        limit: limits.get(key) ?? 0,
      }));
      return { data: { plan, subscription_functions: functions } };
    },
  );

  app.get(
    '/api/v1/users/me/subscriptions/:function/usage',
    {
      schema: {
        tags: ['subscription'],
        summary: 'How much of one plan function the company uses, against its limit',
        params: ZUsageParamsSchema,
        response: { 200: ZUsageResponseSchema },
      },
    },
    async (request) => {
      const { user } = authOf(request);
      const key = request.params.function;
      const row = await app.db
        .selectFrom('plan_functions')
        .innerJoin('companies', 'companies.plan_key', 'plan_functions.plan_key')
        .select('plan_functions.limit_value')
        .where('companies.uuid', '=', user.company_uuid)
        .where('plan_functions.function_key', '=', key)
        .executeTakeFirst();
      // A function the plan does not list is not included (limit 0), as the gating rule says.
      const limit = row?.limit_value ?? 0;
      const used = await usageOf(app.db, user.company_uuid, key, app.clock.now());
      return {
        data: {
          function: key,
          limit,
          used,
          remaining: remainingOf(limit, used),
          period: usagePeriodOf(key),
        },
      };
    },
  );

  app.post(
    '/api/v1/users/me/subscriptions/upgrade-request',
    {
      schema: {
        tags: ['subscription'],
        summary: 'Asks for a plan upgrade for one function (sent from the upgrade modal)',
        body: ZCreateUpgradeRequestRequestSchema,
        response: { 201: ZUpgradeRequestResponseSchema },
      },
    },
    async (request, reply) => {
      const { user } = authOf(request);
      const key = request.body.requestedFunction;
      const row = {
        uuid: newUuid(),
        company_uuid: user.company_uuid,
        user_uuid: user.uuid,
        requested_function: key,
        created_at: app.clock.now().toISOString(),
      };
      await app.db.insertInto('upgrade_requests').values(row).execute();
      request.log.info({ upgradeRequest: row.uuid, function: key }, 'upgrade requested');
      return reply.code(201).send({
        data: { uuid: row.uuid, requested_function: key, created_at: row.created_at },
      });
    },
  );
};
