import { useLogout } from '@refinedev/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

import { LoadingOverlay } from '../../components/layout/loading-overlay.tsx';
import { ROUTES } from '../../config.ts';
import { safeReturnPath } from '../../lib/guards.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';

/**
 * /logout ends the session (server and browser) and goes to the login page; after a session that
 * ended on its own (`?to=` the page the user was on), signing in again goes back there.
 */
export const LogoutPage = () => {
  const { t } = useTranslation();
  usePageTitle(t('pages.logout.title'));
  const { mutate: logout } = useLogout();
  const [params] = useSearchParams();
  const back = safeReturnPath(params.get('to'));
  const started = useRef(false);
  useEffect(() => {
    // Once, even when React runs effects twice in development.
    if (started.current) return;
    started.current = true;
    logout({
      redirectPath: back ? `${ROUTES.login}?to=${encodeURIComponent(back)}` : ROUTES.login,
    });
  }, [logout, back]);
  return (
    <>
      <h1 className="visually-hidden">{t('pages.logout.title')}</h1>
      <LoadingOverlay />
    </>
  );
};
