import {
  MAX_IDS_PER_REQUEST,
  MESSAGES,
  ZAcceptTermsRequestSchema,
  ZAcceptTermsResponseSchema,
  ZListTermsToAcceptResponseSchema,
  acceptedTermUuids,
  missingMandatoryTerms,
} from '@ccp/schemas';
import type { TFieldErrors, TTermsItem, TTermsScope } from '@ccp/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import type { Db } from '../../../db/index.ts';
import type { UsersTable } from '../../../db/types.ts';
import { AppError, validationError } from '../../../lib/app-error.ts';
import { selectInChunks } from '../../../lib/chunks.ts';
import { newUuid } from '../../../lib/ids.ts';
import { authOf } from '../../../plugins/auth.ts';

type Caller = Pick<UsersTable, 'uuid' | 'company_uuid' | 'is_admin'>;

// Company terms are the organisation's to accept, so only an administrator may.
const canAccept = (scope: TTermsScope, caller: Caller): boolean =>
  scope === 'user' || caller.is_admin === 1;

/**
 * Published terms the caller still has to see: a company term until an administrator of the
 * company accepted it, a user term until the caller accepted it.
 */
const pendingTermsOf = async (db: Db, caller: Caller, now: string): Promise<TTermsItem[]> => {
  const terms = await db
    .selectFrom('terms')
    .select(['uuid', 'title', 'content', 'scope'])
    .where('published_at', '<=', now)
    .orderBy('position')
    .orderBy('title')
    .orderBy('uuid')
    .execute();
  const acceptances = await db
    .selectFrom('terms_acceptances')
    .select(['term_uuid', 'user_uuid'])
    .where('company_uuid', '=', caller.company_uuid)
    .execute();
  const byCompany = new Set(acceptances.map((row) => row.term_uuid));
  const byCaller = new Set(
    acceptances.filter((row) => row.user_uuid === caller.uuid).map((row) => row.term_uuid),
  );
  return terms
    .filter((term) => !(term.scope === 'company' ? byCompany : byCaller).has(term.uuid))
    .map((term) => ({ ...term, can_accept: canAccept(term.scope, caller) }));
};

export const termsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/users/me/terms-and-conditions/to-accept',
    {
      schema: {
        tags: ['terms'],
        summary: 'Terms and conditions the caller (or their organisation) has not accepted yet',
        response: { 200: ZListTermsToAcceptResponseSchema },
      },
    },
    async (request) => {
      const { user } = authOf(request);
      return { data: await pendingTermsOf(app.db, user, app.clock.now().toISOString()) };
    },
  );

  app.post(
    '/api/v1/users/me/terms-and-conditions',
    {
      schema: {
        tags: ['terms'],
        summary:
          'Accepts terms: a list of {uuid} that must include every pending term the caller can accept',
        description: `At most ${MAX_IDS_PER_REQUEST.toLocaleString('en')} items; more answer 422.`,
        body: ZAcceptTermsRequestSchema,
        response: { 200: ZAcceptTermsResponseSchema },
      },
    },
    async (request) => {
      const { user } = authOf(request);
      const now = app.clock.now().toISOString();
      const uuids = acceptedTermUuids(request.body);
      const prefix = Array.isArray(request.body) ? '' : 'terms.';

      const known = await selectInChunks(uuids, (part) =>
        app.db
          .selectFrom('terms')
          .select(['uuid', 'scope'])
          .where('uuid', 'in', part)
          .where('published_at', '<=', now)
          .execute(),
      );
      const knownUuids = new Set(known.map((term) => term.uuid));
      const unknown: TFieldErrors = {};
      const items = Array.isArray(request.body) ? request.body : request.body.terms;
      items.forEach((item, index) => {
        if (!knownUuids.has(item.uuid)) unknown[`${prefix}${index}.uuid`] = [MESSAGES.termsInvalid];
      });
      if (Object.keys(unknown).length > 0) throw validationError(unknown);

      if (known.some((term) => !canAccept(term.scope, user))) {
        throw new AppError('FORBIDDEN', MESSAGES.termsNotAcceptable);
      }

      const pending = await pendingTermsOf(app.db, user, now);
      if (missingMandatoryTerms(pending, uuids).length > 0) {
        throw new AppError('VALIDATION_FAILED', MESSAGES.termsMandatory, {
          errors: { terms: [MESSAGES.termsMandatory] },
        });
      }

      // Terms accepted before are not stored twice.
      const pendingUuids = new Set(pending.map((term) => term.uuid));
      const rows = uuids
        .filter((uuid) => pendingUuids.has(uuid))
        .map((uuid) => ({
          uuid: newUuid(),
          term_uuid: uuid,
          company_uuid: user.company_uuid,
          user_uuid: user.uuid,
          accepted_at: now,
        }));
      if (rows.length > 0) await app.db.insertInto('terms_acceptances').values(rows).execute();
      return { data: { accepted: uuids } };
    },
  );
};
