import type { TUser } from '@ccp/schemas';
import { useGetIdentity } from '@refinedev/core';
import { useTranslation } from 'react-i18next';

import { usePageTitle } from '../../lib/use-page-title.ts';

/** Home for signed-in users; the stats and course cards come with the dashboard issue. */
export const DashboardPage = () => {
  const { t } = useTranslation();
  usePageTitle(t('pages.dashboard.title'));
  const { data: user } = useGetIdentity<TUser>();
  return (
    <section className="page-section">
      <h1 className="page-title">{t('pages.dashboard.title')}</h1>
      <p className="lead">
        {user?.first_name
          ? t('pages.dashboard.welcomeName', { name: user.first_name })
          : t('pages.dashboard.welcome')}
      </p>
      <p className="muted">{t('pages.dashboard.intro')}</p>
    </section>
  );
};
