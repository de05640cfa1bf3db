import { InboxOutlined, PlusOutlined } from '@ant-design/icons';
import type { TUser } from '@ccp/schemas';
import { useGetIdentity } from '@refinedev/core';
import { Button, Empty, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

import { ButtonLink } from '../../components/button-link.tsx';
import { useAppLayout } from '../../components/layout/app-layout-context.ts';
import { useClassroom } from '../../components/layout/classroom-context.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { ROUTES } from '../../config.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { CourseGrid } from './components/course-grid.tsx';
import { PeriodStats } from './components/period-stats.tsx';

const ARCHIVE_PARAM = 'archived';

/**
 * The dashboard (spec §2, /dashboard): the creator's welcome, the classroom's figures for a
 * period, and its courses as cards, live or archived (`?archived=1`, so reload and back keep it).
 */
export const CourseList = () => {
  const { t } = useTranslation();
  usePageTitle(t('courses.titles.list'));
  const { data: user } = useGetIdentity<TUser>();
  const { current, failed, retry } = useClassroom();
  const { openCreateCourse } = useAppLayout();
  const [params] = useSearchParams();
  const archived = params.get(ARCHIVE_PARAM) === '1';

  const createButton = (
    <Button type="primary" icon={<PlusOutlined />} onClick={openCreateCourse}>
      {t('layout.nav.createCourse')}
    </Button>
  );

  if (failed) {
    return (
      <section className="page-section">
        <Result
          status="warning"
          title={t('validation.classroomsFailed')}
          extra={<Button onClick={retry}>{t('buttons.retry')}</Button>}
        />
      </section>
    );
  }

  return (
    <section className="page-section dashboard">
      <PageHeader
        title={
          user?.first_name
            ? t('pages.dashboard.welcomeName', { name: user.first_name })
            : t('pages.dashboard.welcome')
        }
        subtitle={current ? t('courses.list.intro', { classroom: current.name }) : '\u00a0'}
        extra={createButton}
      />
      {!archived && <PeriodStats />}
      <div className="section-head">
        <h2 className="section-title">
          {archived ? t('courses.list.archivedTitle') : t('courses.list.title')}
        </h2>
        {archived ? (
          <ButtonLink type="link" to={ROUTES.dashboard}>
            {t('courses.list.backToCourses')}
          </ButtonLink>
        ) : (
          <ButtonLink icon={<InboxOutlined />} to={`${ROUTES.dashboard}?${ARCHIVE_PARAM}=1`}>
            {t('courses.list.showArchived')}
          </ButtonLink>
        )}
      </div>
      {archived && <p className="muted">{t('courses.list.archivedIntro')}</p>}
      <CourseGrid
        key={`${current?.uuid ?? ''}:${String(archived)}`}
        archived={archived}
        empty={
          <Empty
            className="courses-empty"
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={
              archived ? (
                t('courses.list.emptyArchive')
              ) : (
                <>
                  <strong>
                    {t('courses.list.emptyTitle', { classroom: current?.name ?? '' })}
                  </strong>
                  <br />
                  {t('courses.list.emptyText')}
                </>
              )
            }
          >
            {!archived && createButton}
          </Empty>
        }
      />
    </section>
  );
};
