import {
  BarChartOutlined,
  HomeOutlined,
  LogoutOutlined,
  PlusCircleOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';

import { ROUTES } from '../../config.ts';
import { useAppLayout } from './app-layout-context.ts';
import { LanguageSwitch } from './language-switch.tsx';
import { Logo } from './logo.tsx';

const navClass = ({ isActive }: { isActive: boolean }) =>
  isActive ? 'top-nav-item is-active' : 'top-nav-item';

/** The authenticated top bar (spec §2): home, create course, learners, insights, language, log out. */
export const TopBar = () => {
  const { t } = useTranslation();
  const { openCreateCourse } = useAppLayout();
  return (
    <header className="top-bar">
      <div className="top-bar-inner">
        <Logo to={ROUTES.dashboard} />
        <nav className="top-nav" aria-label={t('layout.nav.label')}>
          <NavLink to={ROUTES.dashboard} className={navClass} title={t('layout.nav.home')}>
            <HomeOutlined aria-hidden />
            <span className="top-nav-text">{t('layout.nav.home')}</span>
          </NavLink>
          <button
            type="button"
            className="top-nav-item"
            onClick={openCreateCourse}
            title={t('layout.nav.createCourse')}
          >
            <PlusCircleOutlined aria-hidden />
            <span className="top-nav-text">{t('layout.nav.createCourse')}</span>
          </button>
          <NavLink to={ROUTES.learners} className={navClass} title={t('layout.nav.learners')}>
            <TeamOutlined aria-hidden />
            <span className="top-nav-text">{t('layout.nav.learners')}</span>
          </NavLink>
          <NavLink to={ROUTES.insights} className={navClass} title={t('layout.nav.insights')}>
            <BarChartOutlined aria-hidden />
            <span className="top-nav-text">{t('layout.nav.insights')}</span>
          </NavLink>
        </nav>
        <div className="top-bar-end">
          <LanguageSwitch />
          <Link to={ROUTES.logout} className="top-nav-item" title={t('layout.nav.logOut')}>
            <LogoutOutlined aria-hidden />
            <span className="top-nav-text">{t('layout.nav.logOut')}</span>
          </Link>
        </div>
      </div>
    </header>
  );
};
