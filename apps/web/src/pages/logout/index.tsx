import { useLogout } from '@refinedev/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingOverlay } from '../../components/layout/loading-overlay.tsx';
import { ROUTES } from '../../config.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';

/** /logout ends the session (server and browser) and goes to the login page. */
export const LogoutPage = () => {
  const { t } = useTranslation();
  usePageTitle(t('pages.logout.title'));
  const { mutate: logout } = useLogout();
  const started = useRef(false);
  useEffect(() => {
    // Once, even when React runs effects twice in development.
    if (started.current) return;
    started.current = true;
    logout({ redirectPath: ROUTES.login });
  }, [logout]);
  return (
    <>
      <h1 className="visually-hidden">{t('pages.logout.title')}</h1>
      <LoadingOverlay />
    </>
  );
};
