import { pickClassroom } from '@ccp/data-provider';
import type { TClassroom, TUser } from '@ccp/schemas';
import { useGetIdentity, useList } from '@refinedev/core';
import { useCallback, useMemo, useState } from 'react';

import { classroomChoiceStore } from '../../lib/classroom-choice.ts';
import { loadedProviders } from '../../providers/lazy.ts';
import type { TClassroomContext } from './classroom-context.ts';

/**
 * The classrooms and the current one, for the authenticated layout's context. The choice is
 * remembered per user (lib/classroom-choice.ts) and handed to the data provider's session, so
 * calls without an explicit classroom (actions) follow it too.
 */
export const useClassroomState = (): TClassroomContext => {
  const { data: user } = useGetIdentity<TUser>();
  const { result, query } = useList<TClassroom>({
    resource: 'classrooms',
    pagination: { mode: 'off' },
  });
  const classrooms = result.data;
  const [chosen, setChosen] = useState<string | null>(null);
  const stored = user ? classroomChoiceStore.get(user.uuid) : null;
  const current = useMemo(
    () => (user ? (pickClassroom(classrooms, chosen ?? stored) ?? null) : null),
    [classrooms, chosen, stored, user],
  );
  const select = useCallback((uuid: string) => {
    setChosen(uuid);
    void loadedProviders()?.session.selectClassroom(uuid);
  }, []);
  const { refetch } = query;
  return {
    classrooms,
    current,
    loading: query.isLoading || !user,
    failed: query.isError,
    retry: () => void refetch(),
    select,
  };
};
