import Fastify from 'fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

// The reference UI of the OpenAPI document at /api/docs (Swagger UI: /api/docs/, /api/docs/json,
// /api/docs/yaml, /api/docs/static/…). @fastify/swagger-ui and the static-files plugin and
// YAML library it brings were a fifth of the server's start-up (issue 18), for a page few
// visit: it is loaded at the first visit instead, into a small Fastify instance of its own
// whose answers these routes pass on. The document itself is the app's (@fastify/swagger).

const PREFIX = '/api/docs';
// Connection-level headers of the inner answer are not the outer answer's.
const HOP_HEADERS = new Set([
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'date',
]);

export const docsPlugin = async (app: FastifyInstance) => {
  let ui: Promise<FastifyInstance> | null = null;
  const docsApp = () =>
    (ui ??= (async () => {
      const { default: swaggerUi } = await import('@fastify/swagger-ui');
      const docs = Fastify({ logger: false });
      // swagger-ui reads the document through `swagger()` of a registered @fastify/swagger.
      await docs.register(
        fp(
          async (instance: FastifyInstance) => {
            instance.decorate('swagger', ((options?: { yaml?: boolean }) =>
              app.swagger(options as never)) as FastifyInstance['swagger']);
          },
          { name: '@fastify/swagger' },
        ),
      );
      await docs.register(swaggerUi, { routePrefix: PREFIX });
      await docs.ready();
      return docs;
    })().catch((error: unknown) => {
      ui = null;
      throw error;
    }));

  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    const answer = await (
      await docsApp()
    ).inject({
      method: 'GET',
      url: request.url,
      headers: { accept: request.headers.accept ?? '*/*' },
    });
    // Not one of the UI's: as absent as any unknown path.
    if (answer.statusCode === 404) return reply.callNotFound();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !HOP_HEADERS.has(name)) reply.header(name, value);
    }
    return reply.code(answer.statusCode).send(answer.rawPayload);
  };
  for (const url of [PREFIX, `${PREFIX}/*`]) {
    app.get(url, { schema: { hide: true }, config: { auth: false } }, forward);
  }
};
