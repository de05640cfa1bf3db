import type { FastifyInstance } from 'fastify';

type App = Pick<FastifyInstance, 'db'>;

/** A company's name (null when no such company). */
export const findCompanyName = async (app: App, companyUuid: string): Promise<string | null> => {
  const row = await app.db
    .selectFrom('companies')
    .select('name')
    .where('uuid', '=', companyUuid)
    .executeTakeFirst();
  return row?.name ?? null;
};
