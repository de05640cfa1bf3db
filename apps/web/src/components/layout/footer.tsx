import { LINKS, ROUTES } from '../../config.ts';
import { useTexts } from '../../lib/texts.ts';
import { AppLink } from './app-link.tsx';

/** On every page (spec §2): FAQ, support by e-mail, sales booking, marketing site, dashboard. */
export const Footer = () => {
  const { t } = useTexts();
  return (
    <footer className="site-footer">
      <div className="site-footer-inner">
        <nav aria-label={t('layout.footer.label')}>
          <ul>
            <li>
              <AppLink to={ROUTES.faq}>{t('layout.footer.faq')}</AppLink>
            </li>
            <li>
              <a href={`mailto:${LINKS.supportEmail}`}>{t('layout.footer.support')}</a>
            </li>
            <li>
              <a href={LINKS.salesBooking} target="_blank" rel="noopener noreferrer">
                {t('layout.footer.sales')}
              </a>
            </li>
            <li>
              <a href={LINKS.marketingSite} target="_blank" rel="noopener noreferrer">
                {t('layout.footer.marketing')}
              </a>
            </li>
            <li>
              <AppLink to={ROUTES.dashboard}>{t('layout.footer.dashboard')}</AppLink>
            </li>
          </ul>
        </nav>
        <p className="site-footer-note">{t('layout.footer.note', { name: t('app.fullName') })}</p>
      </div>
    </footer>
  );
};
