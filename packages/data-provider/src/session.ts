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
  /**
   * The classroom the user works in: the one they chose (remembered per user by the
   * `classroomChoice` store) while it still exists, else the first the API returns (spec §1).
   * Rejects with "Failed to fetch classrooms." when there is none.
   */
  currentClassroom: () => Promise<TClassroom>;
  /** Makes a classroom the current one (and remembers it for this user); null forgets the choice. */
  selectClassroom: (uuid: string | null) => Promise<void>;
  learnersLists: () => Promise<TLearnersList[]>;
  setLearnersLists: (lists: TLearnersList[]) => void;
  /** After a change to lists or their members, the next read fetches them again. */
  invalidateLearnersLists: () => void;
  /** Forgets the user, company, classrooms, learners lists and the reference data. */
  clear: () => void;
};

/** Where a host remembers each user's chosen classroom: localStorage in the web app. */
export type ClassroomChoiceStore = {
  get: (userUuid: string) => string | null;
  set: (userUuid: string, classroomUuid: string | null) => void;
};

export type SessionOptions = ReferenceCacheOptions & {
  cache?: ReferenceCache;
  classroomChoice?: ClassroomChoiceStore;
};

export const createSession = (client: HttpClient, options: SessionOptions = {}): Session => {
  const now = options.now ?? Date.now;
  const cache = options.cache ?? createReferenceCache(client, options);
  const forever = { ttlMs: null, now };

  const user = cachedValue(() => currentUser(client), forever);
  const classrooms = cachedValue(async () => {
    // The signed-in user names their company: right after sign-in that saves a round trip
    // before the first classroom-scoped call.
    const companyUuid = user.peek()?.company.uuid ?? (await cache.company()).uuid;
    const path = `/api/v1/companies/${encodeURIComponent(companyUuid)}/classrooms`;
    return (await client.get<{ data: TClassroom[] }>(path)).data;
  }, forever);
  // A choice made in this session wins over the stored one (a host without a store still switches).
  let chosen: string | null | undefined;
  const chosenClassroom = async (): Promise<string | null> => {
    if (chosen !== undefined) return chosen;
    if (!options.classroomChoice || !client.tokens.get()) return null;
    return options.classroomChoice.get((await user.get()).uuid);
  };
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
      const rooms = await classrooms.get();
      const [first] = rooms;
      if (!first) throw new Error(MESSAGES.classroomsFailed);
      return pickClassroom(rooms, await chosenClassroom()) ?? first;
    },
    selectClassroom: async (uuid) => {
      chosen = uuid;
      if (options.classroomChoice && client.tokens.get()) {
        options.classroomChoice.set((await user.get()).uuid, uuid);
      }
    },
    learnersLists: () => learnersLists.get(),
    setLearnersLists: (lists) => learnersLists.set(lists),
    invalidateLearnersLists: () => learnersLists.clear(),
    clear: () => {
      chosen = undefined;
      user.clear();
      classrooms.clear();
      learnersLists.clear();
      cache.invalidate();
    },
  };
};

/** The chosen classroom while it still exists, else the first (spec §1); undefined without any. */
export const pickClassroom = <T extends { uuid: string }>(
  rooms: readonly T[],
  choice: string | null | undefined,
): T | undefined => rooms.find((room) => room.uuid === choice) ?? rooms[0];

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
