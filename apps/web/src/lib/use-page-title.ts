import { useEffect } from 'react';

import { useTexts } from './texts.ts';

/** Sets the tab title to "<page> · CCP" in the current language. */
export const usePageTitle = (title: string) => {
  const { t } = useTexts();
  const appName = t('app.name');
  useEffect(() => {
    document.title = `${title} · ${appName}`;
  }, [title, appName]);
};
