import type {
  TApiToken,
  TChannelConnection,
  TCreatedApiToken,
  TImportJob,
  TInvitation,
  TLearner,
  TLearnersList,
  TSession,
  TTeamMember,
  TUser,
} from '@ccp/schemas';

import type { PLATFORM } from '@ccp/schemas';

import type { TFirstStep, passwordStep } from '../src/auth-api.ts';
import type { paths } from './generated/openapi.ts';

// The data provider's request and response types checked against the API's OpenAPI document
// (issue 32): `npm run typecheck` generates ./generated/openapi.ts from the current API
// (scripts/openapi-types.js) and compiles this file. What the server documents for a call must
// be assignable to what the client reads from it, and what the client sends to what the
// server takes; a route, field or type that changes on one side only fails here.

type Operation<P extends keyof paths, M extends keyof paths[P]> = paths[P][M];
type JsonOf<R> = R extends { content: { 'application/json': infer Body } } ? Body : never;
type SuccessStatus = 200 | 201 | 202;
/** The JSON body of the operation's success answer. */
type Answer<P extends keyof paths, M extends keyof paths[P]> =
  Operation<P, M> extends { responses: infer R }
    ? JsonOf<R[Extract<keyof R, SuccessStatus>]>
    : never;
/** The `data` of the success answer (every answer of spec §7 wraps its payload so). */
type Data<P extends keyof paths, M extends keyof paths[P]> =
  Answer<P, M> extends { data: infer D } ? D : never;
/** The JSON request body the operation takes. */
type RequestBody<P extends keyof paths, M extends keyof paths[P]> =
  Operation<P, M> extends { requestBody?: infer B } ? JsonOf<NonNullable<B>> : never;

/** Compiles only when `From` may be used where `To` is expected (never counts as a mismatch). */
type Fits<From, To> = [From] extends [never] ? false : [From] extends [To] ? true : false;
type Expect<T extends true> = T;

/** What passwordStep sends (the client's platform is the product's own). */
type SignInBody = Parameters<typeof passwordStep>[1] & { platform: typeof PLATFORM };

export type Contract = [
  // Sign-in (auth-api.ts).
  Expect<Fits<SignInBody, RequestBody<'/api/v1/users/oauth/token', 'post'>>>,
  Expect<Fits<Data<'/api/v1/users/oauth/token', 'post'>, TFirstStep>>,
  Expect<Fits<Data<'/api/v1/users/me', 'get'>, TUser>>,
  // Learners and their lists (resources/learners.ts, learners-lists.ts, session.ts).
  Expect<Fits<Data<'/api/v1/learners/{uuid}', 'get'>, TLearner>>,
  Expect<Fits<Data<'/api/v1/learners', 'get'>, TLearner[]>>,
  Expect<Fits<Data<'/api/v1/learners-lists', 'get'>, TLearnersList[]>>,
  // Imports (resources/learners-imports.ts).
  Expect<Fits<Data<'/api/v1/learners/imports', 'post'>, TImportJob>>,
  Expect<Fits<Data<'/api/v1/learners/imports/{jobUuid}', 'get'>, TImportJob>>,
  // Tokens, team, sessions, channels (resources/api-tokens.ts, team.ts, channel-connections.ts).
  Expect<Fits<Data<'/api/v1/users/me/tokens', 'get'>, TApiToken[]>>,
  Expect<Fits<Data<'/api/v1/users/me/tokens', 'post'>, TCreatedApiToken>>,
  Expect<Fits<Data<'/api/v1/team/members', 'get'>, TTeamMember[]>>,
  Expect<Fits<Data<'/api/v1/team/invitations', 'post'>, TInvitation>>,
  Expect<Fits<Data<'/api/v1/users/me/sessions', 'get'>, TSession[]>>,
  Expect<Fits<Data<'/api/v1/channel-connections', 'get'>, TChannelConnection[]>>,
];
