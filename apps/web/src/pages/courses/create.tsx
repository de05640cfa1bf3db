import type { TCourse, TLearnersList } from '@ccp/schemas';
import { useList, useOne } from '@refinedev/core';
import { Alert, Spin, Steps } from 'antd';
import { Suspense, useMemo, useSyncExternalStore } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Route, Routes, useNavigate, useParams } from 'react-router';

import { useClassroomMeta } from '../../components/layout/classroom-context.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { ROUTES, courseStepPath } from '../../config.ts';
import { lazyNamed } from '../../lib/lazy-named.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import {
  WIZARD_STEPS,
  contentComplete,
  createDraftStore,
  deliveryComplete,
  resumeStep,
} from './wizard/draft.ts';
import type { TDraftStore, TStep } from './wizard/draft.ts';
import { useLeaveGuard } from '../../components/leave-guard.tsx';
import { useCourseSave } from './wizard/use-course-save.ts';
import { WizardContext } from './wizard/wizard-context.ts';
import './wizard/wizard.css';
import type { TWizardContext } from './wizard/wizard-context.ts';

// The course wizard (spec §2, §4): Intro, Content, Delivery, Finish as a step bar. /courses/create
// is the Intro of a new course; /courses/create/{uuid} resumes a course where it stands, and
// /courses/create/{uuid}/{intro|content|delivery|finish} is each step (the spec's
// courses-create-content, -delivery and -finish, whose paths it does not show). A later step
// opens only once the steps before it are complete.

const EDITABLE = ['draft', 'scheduled', 'paused'];

// Each step is its own chunk: the Content step does not load the date pickers of Delivery, and
// Intro does not load the lesson form (bench/wizard.ts reports what the Content step loads).
const IntroStep = lazyNamed(() => import('./wizard/intro-step.tsx'), 'IntroStep');
const ContentStep = lazyNamed(() => import('./wizard/content-step.tsx'), 'ContentStep');
const DeliveryStep = lazyNamed(() => import('./wizard/delivery-step.tsx'), 'DeliveryStep');
const FinishStep = lazyNamed(() => import('./wizard/finish-step.tsx'), 'FinishStep');

const WizardFrame = ({
  title,
  current,
  reachable,
  onStep,
  children,
  notice,
}: {
  title: string;
  current: TStep;
  reachable: Record<TStep, boolean>;
  onStep: (step: TStep) => void;
  children: ReactNode;
  notice?: ReactNode;
}) => {
  const { t } = useTranslation();
  usePageTitle(title);
  return (
    <section className="page-section wizard">
      <PageHeader title={title} back={{ to: ROUTES.dashboard, label: t('layout.nav.home') }} />
      <Steps
        className="wizard-steps"
        current={WIZARD_STEPS.indexOf(current)}
        onChange={(index) => onStep(WIZARD_STEPS[index]!)}
        items={WIZARD_STEPS.map((step) => ({
          title: t(`courses.wizard.steps.${step}`),
          disabled: !reachable[step],
        }))}
      />
      {notice}
      <Suspense fallback={<Spin className="page-spin" />}>{children}</Suspense>
    </section>
  );
};

/** /courses/create: the Intro of a new course. */
const NewCourse = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <WizardFrame
      title={t('courses.titles.create')}
      current="intro"
      reachable={{ intro: true, content: false, delivery: false, finish: false }}
      onStep={() => undefined}
    >
      <IntroStep onSaved={(course) => void navigate(courseStepPath(course.uuid, 'content'))} />
    </WizardFrame>
  );
};

const isStep = (value: string | undefined): value is TStep =>
  (WIZARD_STEPS as readonly (string | undefined)[]).includes(value);

const CourseWizard = () => {
  const { t } = useTranslation();
  const { id = '', step } = useParams();
  const classroomMeta = useClassroomMeta();
  const { query, result } = useOne<TCourse>({
    resource: 'courses',
    id,
    meta: { ...classroomMeta, errorFeedback: 'caller' },
    queryOptions: { refetchOnWindowFocus: false, staleTime: Infinity },
  });
  const { result: lists, query: listsQuery } = useList<TLearnersList>({
    resource: 'learners-lists',
    pagination: { mode: 'off' },
  });
  const course = result;
  // One store per course for the wizard's life: refetches do not reset the creator's edits.
  const store = useMemo(
    () => (course ? createDraftStore(course) : null),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [course?.uuid],
  );
  if (query.isError) {
    return (
      <section className="page-section">
        <PageHeader
          title={t('courses.titles.create')}
          back={{ to: ROUTES.dashboard, label: t('layout.nav.home') }}
        />
        <Alert type="error" showIcon message={t('courses.wizard.loadFailed')} />
      </section>
    );
  }
  if (!course || !store || listsQuery.isLoading) return <Spin className="page-spin" />;
  return (
    <LoadedWizard
      course={course}
      store={store}
      step={isStep(step) ? step : undefined}
      hasLearnersLists={lists.data.length > 0}
    />
  );
};

const LoadedWizard = ({
  course,
  store,
  step,
  hasLearnersLists,
}: {
  course: TCourse;
  store: TDraftStore;
  step: TStep | undefined;
  hasLearnersLists: boolean;
}) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const snapshot = useSyncExternalStore(store.subscribe, store.snapshot);
  useSyncExternalStore(store.subscribe, store.statesVersion);
  const save = useCourseSave(store);
  const editable = EDITABLE.includes(course.status) && course.deleted_at === null;
  const { guard, bypass } = useLeaveGuard({
    dirty: () => editable && store.isDirty(),
    save: async () => (await save()).ok,
  });
  const now = new Date();
  const contentDone = contentComplete(store);
  const deliveryDone = deliveryComplete(store, now, hasLearnersLists);
  const reachable: Record<TStep, boolean> = {
    intro: true,
    content: true,
    delivery: contentDone,
    finish: contentDone && deliveryDone,
  };
  const context = useMemo<TWizardContext>(
    () => ({
      store,
      course,
      hasLearnersLists,
      reachable,
      editable,
      goTo: (next, search = '') =>
        void navigate(`${courseStepPath(store.snapshot().uuid, next)}${search}`),
    }),
    // reachable is derived from the store's state, which these cover.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [store, course, hasLearnersLists, editable, navigate, contentDone, deliveryDone],
  );

  if (!step)
    return (
      <Navigate
        replace
        to={courseStepPath(course.uuid, resumeStep(store, now, hasLearnersLists))}
      />
    );
  if (!reachable[step])
    return (
      <Navigate
        replace
        to={courseStepPath(course.uuid, resumeStep(store, now, hasLearnersLists))}
      />
    );

  const notice = !editable ? (
    <Alert type="info" showIcon className="wizard-notice" message={t('courses.wizard.readOnly')} />
  ) : course.status !== 'draft' ? (
    <Alert
      type="info"
      showIcon
      className="wizard-notice"
      message={t('courses.wizard.editingLive', {
        // The status inside the sentence, in lower case ("This course is scheduled: …").
        status: t(`enum.courseStatusInSentence.${course.status}`),
      })}
    />
  ) : null;

  return (
    <WizardContext.Provider value={context}>
      <WizardFrame
        title={snapshot.name}
        current={step}
        reachable={reachable}
        onStep={(next) => context.goTo(next)}
        notice={notice}
      >
        {step === 'intro' && (
          <IntroStep
            course={{
              ...course,
              name: snapshot.name,
              description: snapshot.description,
              category: snapshot.category,
            }}
            readOnly={!editable}
            onSaved={(saved) => {
              store.setIntro({
                name: saved.name,
                description: saved.description,
                category: saved.category,
              });
              store.markSaved();
              bypass(() => context.goTo('content'));
            }}
          />
        )}
        {step === 'content' && <ContentStep />}
        {step === 'delivery' && <DeliveryStep />}
        {step === 'finish' && <FinishStep />}
      </WizardFrame>
      {guard}
    </WizardContext.Provider>
  );
};

/** The wizard's routes, under /courses/create/* (resources.ts). */
export const CourseCreate = () => (
  <Routes>
    <Route index element={<NewCourse />} />
    <Route path=":id/:step?" element={<CourseWizard />} />
  </Routes>
);
