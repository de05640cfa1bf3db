import { useTexts } from '../../lib/texts.ts';
import { AppLink } from './app-link.tsx';

/** The product mark and name, linking home (the dashboard, or the login when signed out). */
export const Logo = ({ to }: { to: string }) => {
  const { t } = useTexts();
  return (
    <AppLink to={to} className="logo" aria-label={t('layout.logoHome')}>
      <svg width="32" height="32" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="7" fill="#3b5bdb" />
        <path d="M9 11h14M9 16h14M9 21h9" stroke="#fff" strokeWidth="2.6" strokeLinecap="round" />
      </svg>
      <span className="logo-name">{t('app.name')}</span>
    </AppLink>
  );
};
