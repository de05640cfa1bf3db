import { describe, expect, it } from 'vitest';

import { createSession } from './session.ts';
import type { ClassroomChoiceStore } from './session.ts';
import { fakeClient } from './test/fake-client.ts';

const ROOMS = [
  { uuid: 'room-1', name: 'Sales Academy' },
  { uuid: 'room-2', name: 'Onboarding' },
];

const routes = {
  'GET /api/v1/company': { data: { uuid: 'co-1', name: 'Acme Training' } },
  'GET /api/v1/companies/co-1/classrooms': { data: ROOMS },
  'GET /api/v1/users/me': { data: { uuid: 'user-1', first_name: 'Carla' } },
};

const memoryChoices = (): ClassroomChoiceStore & { saved: Map<string, string | null> } => {
  const saved = new Map<string, string | null>();
  return {
    saved,
    get: (user) => saved.get(user) ?? null,
    set: (user, room) => saved.set(user, room),
  };
};

describe('session: the current classroom', () => {
  it('finds the classrooms through the signed-in user’s company, without asking for the company', async () => {
    const { client, calls } = fakeClient(routes);
    const session = createSession(client);
    session.setIdentity({ uuid: 'user-1', company: { uuid: 'co-1', name: 'Acme' } } as never);
    expect((await session.currentClassroom()).uuid).toBe('room-1');
    expect(calls.map((call) => call.path)).toEqual(['/api/v1/companies/co-1/classrooms']);
  });

  it('is the first classroom until the user chooses another, and remembers the choice per user', async () => {
    const choices = memoryChoices();
    const { client } = fakeClient(routes);
    const session = createSession(client, { classroomChoice: choices });
    expect((await session.currentClassroom()).uuid).toBe('room-1');

    await session.selectClassroom('room-2');
    expect((await session.currentClassroom()).name).toBe('Onboarding');
    expect(choices.saved.get('user-1')).toBe('room-2');

    // A new session (a reload) of the same user starts where they left off.
    const reloaded = createSession(fakeClient(routes).client, { classroomChoice: choices });
    expect((await reloaded.currentClassroom()).uuid).toBe('room-2');
  });

  it('falls back to the first classroom when the chosen one is gone, and forgets a choice on clear', async () => {
    const choices = memoryChoices();
    choices.saved.set('user-1', 'room-deleted');
    const session = createSession(fakeClient(routes).client, { classroomChoice: choices });
    expect((await session.currentClassroom()).uuid).toBe('room-1');

    const withoutStore = createSession(fakeClient(routes).client);
    await withoutStore.selectClassroom('room-2');
    expect((await withoutStore.currentClassroom()).uuid).toBe('room-2');
    withoutStore.clear();
    expect((await withoutStore.currentClassroom()).uuid).toBe('room-1');
  });
});
