import { useTranslation } from 'react-i18next';

import { usePageTitle } from '../lib/use-page-title.ts';

/** A page whose screen arrives with a later issue: its heading, so navigation already works. */
export const PlaceholderPage = ({ titleKey }: { titleKey: string }) => {
  const { t } = useTranslation();
  const title = t(titleKey);
  usePageTitle(title);
  return (
    <section className="page-section">
      <h1 className="page-title">{title}</h1>
      <p className="muted">{t('pages.placeholder')}</p>
    </section>
  );
};
