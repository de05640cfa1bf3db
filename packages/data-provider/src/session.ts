import { MESSAGES } from '@ccp/schemas';
import type { TClassroom, TCompany, TLearnersList, TUser } from '@ccp/schemas';

import { currentUser } from './auth-api.ts';
import type { HttpClient } from './http-client.ts';
import { createReferenceCache } from './reference-cache.ts';
import type { ReferenceCache, ReferenceCacheOptions } from './reference-cache.ts';
import { cachedValue } from './utils/cached-value.ts';

/**
 * What the signed-in client remembers (spec §4 "Logout clears user, company, classrooms and
 * learners lists"): the data and auth providers of one client share it, and logout clears it.
 */
export type Session = {
  readonly cache: ReferenceCache;
  /** The signed-in user, fetched once; null without tokens. */
  identity: () => Promise<TUser | null>;
  /** The user if already known, without a request (for cheap checks). */
  knownIdentity: () => TUser | null;
  setIdentity: (user: TUser) => void;
  company: () => Promise<TCompany>;
  classrooms: () => Promise<TClassroom[]>;
  /** The first classroom the API returns (spec §1); rejects with "Failed to fetch classrooms." without one. */
  currentClassroom: () => Promise<TClassroom>;
  learnersLists: () => Promise<TLearnersList[]>;
  setLearnersLists: (lists: TLearnersList[]) => void;
  /** After a change to lists or their members, the next read fetches them again. */
  invalidateLearnersLists: () => void;
  /** Forgets the user, company, classrooms, learners lists and the reference data. */
  clear: () => void;
};

export type SessionOptions = ReferenceCacheOptions & { cache?: ReferenceCache };

export const createSession = (client: HttpClient, options: SessionOptions = {}): Session => {
  const now = options.now ?? Date.now;
  const cache = options.cache ?? createReferenceCache(client, options);
  const forever = { ttlMs: null, now };

  const user = cachedValue(() => currentUser(client), forever);
  const classrooms = cachedValue(async () => {
    const company = await cache.company();
    const path = `/api/v1/companies/${encodeURIComponent(company.uuid)}/classrooms`;
    return (await client.get<{ data: TClassroom[] }>(path)).data;
  }, forever);
  const learnersLists = cachedValue(
    async () => (await client.get<{ data: TLearnersList[] }>('/api/v1/learners-lists')).data,
    forever,
  );

  return {
    cache,
    identity: async () => (client.tokens.get() ? user.get() : null),
    knownIdentity: () => (client.tokens.get() ? (user.peek() ?? null) : null),
    setIdentity: (next) => user.set(next),
    company: () => cache.company(),
    classrooms: () => classrooms.get(),
    currentClassroom: async () => {
      const [first] = await classrooms.get();
      if (!first) throw new Error(MESSAGES.classroomsFailed);
      return first;
    },
    learnersLists: () => learnersLists.get(),
    setLearnersLists: (lists) => learnersLists.set(lists),
    invalidateLearnersLists: () => learnersLists.clear(),
    clear: () => {
      user.clear();
      classrooms.clear();
      learnersLists.clear();
      cache.invalidate();
    },
  };
};

const sessions = new WeakMap<HttpClient, Session>();

/** The session of a client, created on first use: the providers of one client share it. */
export const sessionFor = (client: HttpClient): Session => {
  let session = sessions.get(client);
  if (!session) {
    session = createSession(client);
    sessions.set(client, session);
  }
  return session;
};
