import type { TCourseInsight, TCourseListItem } from '@ccp/schemas';
import { useInfiniteList, useList } from '@refinedev/core';
import { Button } from 'antd';
import type { ReactNode } from 'react';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { useClassroomMeta } from '../../../components/layout/classroom-context.ts';
import { DASHBOARD_PAGE_SIZE } from '../../../config.ts';
import { formatNumber } from '../../../lib/format.ts';
import { CourseCard } from './course-card.tsx';
import { useCourseActions } from './use-course-actions.ts';
import type { TCourseAction } from './use-course-actions.ts';

type Props = {
  archived: boolean;
  /** Shown instead of the grid when the classroom has no course (in this mode). */
  empty: ReactNode;
};

/**
 * The course cards of the current classroom, live or archived: pages by number from 1 with the
 * next ones appended (spec §4), as the user scrolls near the end or presses "Load more".
 */
export const CourseGrid = ({ archived, empty }: Props) => {
  const { t } = useTranslation();
  const classroomMeta = useClassroomMeta();
  const ready = Boolean(classroomMeta.classroomUuid);
  const { result, query } = useInfiniteList<TCourseListItem>({
    resource: 'courses',
    pagination: { pageSize: DASHBOARD_PAGE_SIZE },
    filters: [{ field: 'archived', operator: 'eq', value: archived }],
    meta: classroomMeta,
    queryOptions: { enabled: ready },
  });
  // The figures of the counted courses (active, delivered), one request for every card.
  const { result: insights } = useList<TCourseInsight>({
    resource: 'analytics',
    meta: { ...classroomMeta, report: 'courses-insights' },
    pagination: { mode: 'off' },
    queryOptions: { enabled: ready && !archived },
    errorNotification: false,
  });
  const insightOf = useMemo(
    () => new Map(insights.data.map((insight) => [insight.uuid, insight])),
    [insights.data],
  );
  const actions = useCourseActions();
  // Stable across renders, so the memoised cards render again only when their course changes.
  const latestActions = useRef(actions);
  useLayoutEffect(() => {
    latestActions.current = actions;
  });
  const onAction = useCallback((action: TCourseAction, course: TCourseListItem) => {
    const { clone, archive, restore, resume, cancel, remove } = latestActions.current;
    if (action === 'clone') void clone(course);
    else if (action === 'archive') archive(course);
    else if (action === 'restore') void restore(course);
    else if (action === 'resume') void resume(course);
    else if (action === 'cancel') cancel(course);
    else remove(course);
  }, []);
  const courses = useMemo(
    () => result.data?.pages.flatMap((page) => page.data) ?? [],
    [result.data],
  );
  const total = result.data?.pages[0]?.total ?? 0;
  const { fetchNextPage, isFetchingNextPage } = query;
  const hasNextPage = Boolean(result.hasNextPage);

  // Loads the next page when the end of the grid comes near (the button stays for keyboards).
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = sentinel.current;
    if (!element || !hasNextPage) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting) && !isFetchingNextPage) {
          void fetchNextPage();
        }
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  if (!ready || query.isLoading) {
    return (
      <div className="course-grid" aria-busy="true" aria-label={t('layout.loading')}>
        {Array.from({ length: 6 }, (_, index) => (
          <div key={index} className="course-card course-card-loading" aria-hidden>
            <span className="placeholder placeholder-cover" />
            <span className="placeholder placeholder-line" />
            <span className="placeholder placeholder-line placeholder-short" />
            <span className="placeholder placeholder-line" />
          </div>
        ))}
      </div>
    );
  }
  if (courses.length === 0) return <>{empty}</>;

  return (
    <>
      <div className="course-grid">
        {courses.map((course) => (
          <CourseCard
            key={course.uuid}
            course={course}
            insight={insightOf.get(course.uuid)}
            pending={actions.pending}
            onAction={onAction}
          />
        ))}
      </div>
      <div ref={sentinel} className="grid-footer">
        <span className="muted" role="status">
          {t('courses.list.shown', {
            shown: formatNumber(courses.length),
            total: formatNumber(total),
          })}
        </span>
        {hasNextPage && (
          <Button loading={isFetchingNextPage} onClick={() => void fetchNextPage()}>
            {t('courses.list.loadMore')}
          </Button>
        )}
      </div>
    </>
  );
};
