import { useIsAuthenticated } from '@refinedev/core';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { ROUTES } from '../../config.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';

/** The 404 page (spec §2). */
export const NotFoundPage = () => {
  const { t } = useTranslation();
  usePageTitle(t('pages.notFound.title'));
  const navigate = useNavigate();
  const { data } = useIsAuthenticated();
  const signedIn = data?.authenticated === true;
  return (
    <section className="page-section error-page">
      <p className="error-code" aria-hidden="true">
        404
      </p>
      <h1 className="page-title">{t('pages.notFound.title')}</h1>
      <p>{t('pages.notFound.text')}</p>
      <Button
        type="primary"
        onClick={() => void navigate(signedIn ? ROUTES.dashboard : ROUTES.login)}
      >
        {signedIn ? t('buttons.goToDashboard') : t('buttons.goToLogin')}
      </Button>
    </section>
  );
};
