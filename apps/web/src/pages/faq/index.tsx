import { useTranslation } from 'react-i18next';

import { usePageTitle } from '../../lib/use-page-title.ts';

const TERMS = ['dtr', 'dtca', 'lp', 'ccp'] as const;

/** The FAQ (spec §1): DTR, DTCA, LP and CCP explained. */
export const FaqPage = () => {
  const { t } = useTranslation();
  usePageTitle(t('faq.title'));
  return (
    <section className="page-section faq">
      <h1 className="page-title">{t('faq.title')}</h1>
      <p className="lead">{t('faq.intro')}</p>
      <dl className="faq-list">
        {TERMS.map((term) => (
          <div key={term} className="faq-item" id={`faq-${term}`}>
            <dt>
              <h2 className="faq-term">{t(`faq.items.${term}.term`)}</h2>
              <span className="faq-expansion">{t(`faq.items.${term}.expansion`)}</span>
            </dt>
            <dd>
              <p>{t(`faq.items.${term}.answer`)}</p>
              <p className="faq-example">{t(`faq.items.${term}.example`)}</p>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
};
