import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Sets the tab title to "<page> · CCP" in the current language. */
export const usePageTitle = (title: string) => {
  const { t } = useTranslation();
  const appName = t('app.name');
  useEffect(() => {
    document.title = `${title} · ${appName}`;
  }, [title, appName]);
};
