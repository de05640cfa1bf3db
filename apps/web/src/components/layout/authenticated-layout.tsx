import type { TSubscription } from '@ccp/schemas';
import { useOne } from '@refinedev/core';
import { Suspense, useEffect, useMemo, useState } from 'react';
import { Outlet } from 'react-router';

import { syncDayjsLocale } from '../../lib/format.ts';
import { CreateCourseModal } from '../modals/create-course-modal.tsx';
import { TermsModal } from '../modals/terms-modal.tsx';
import { AppLayoutContext } from './app-layout-context.ts';
import { ClassroomContext } from './classroom-context.ts';
import { Footer } from './footer.tsx';
import { LoadingOverlay } from './loading-overlay.tsx';
import { TopBar } from './top-bar.tsx';
import { useClassroomState } from './use-classroom-state.ts';

/**
 * The authenticated layout (spec §2): top bar, the page, footer, the create-course and terms
 * modals. The subscription is fetched on entering it and shared with the pages, and so are the
 * classrooms with the current one (classroom-context.ts).
 */
export const AuthenticatedLayout = () => {
  const [createOpen, setCreateOpen] = useState(false);
  // Date pickers on the pages speak the interface language.
  useEffect(() => syncDayjsLocale(), []);
  const { result: subscription, query } = useOne<TSubscription>({
    resource: 'subscription',
    id: 'current',
  });
  const context = useMemo(
    () => ({ subscription: subscription ?? null, openCreateCourse: () => setCreateOpen(true) }),
    [subscription],
  );
  const classroom = useClassroomState();
  return (
    <AppLayoutContext.Provider value={context}>
      <ClassroomContext.Provider value={classroom}>
        <div className="page app-layout">
          <TopBar />
          <main id="main" className="app-main">
            <Suspense fallback={<LoadingOverlay />}>
              <Outlet />
            </Suspense>
          </main>
          <Footer />
          {query.isLoading && <LoadingOverlay />}
          <CreateCourseModal open={createOpen} onClose={() => setCreateOpen(false)} />
          <TermsModal />
        </div>
      </ClassroomContext.Provider>
    </AppLayoutContext.Provider>
  );
};
