import { describe, expect, it } from 'vitest';

import {
  ZCreateLearnersListRequestSchema,
  ZUpdateLearnersListRequestSchema,
} from './learners-list.ts';
import { MESSAGES } from './messages.ts';

const messagesOf = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]);

describe('learners list name', () => {
  it.each(['Sales', 'New hires 2026', 'n'.repeat(100), 'Équipe #1 (Milano)'])(
    'accepts %j',
    (name) => {
      expect(ZCreateLearnersListRequestSchema.parse({ name })).toEqual({ name });
    },
  );

  it('trims', () => {
    expect(ZUpdateLearnersListRequestSchema.parse({ name: '  Sales ' })).toEqual({ name: 'Sales' });
  });

  it('refuses 101 characters', () => {
    expect(
      messagesOf(ZCreateLearnersListRequestSchema.safeParse({ name: 'n'.repeat(101) })),
    ).toEqual([['name', MESSAGES.listNameMax]]);
  });

  it.each([[''], ['   '], [undefined], [null]])('requires a name: %j', (name) => {
    expect(messagesOf(ZUpdateLearnersListRequestSchema.safeParse({ name }))).toEqual([
      ['name', MESSAGES.nameRequired],
    ]);
  });
});

describe('ZCreateLearnersListRequestSchema learners', () => {
  const uuid = '6a1c2f3e-0001-4c00-8000-000000000001';

  it('is optional and takes uuids', () => {
    expect(ZCreateLearnersListRequestSchema.parse({ name: 'A', learners: [uuid] })).toEqual({
      name: 'A',
      learners: [uuid],
    });
    expect(ZCreateLearnersListRequestSchema.parse({ name: 'A', learners: [] }).learners).toEqual(
      [],
    );
  });

  it('names a malformed uuid by its index', () => {
    expect(
      messagesOf(ZCreateLearnersListRequestSchema.safeParse({ name: 'A', learners: [uuid, 'x'] })),
    ).toEqual([['learners.1', MESSAGES.learnerUnknown]]);
  });
});
