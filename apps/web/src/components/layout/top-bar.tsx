import {
  ApiOutlined,
  BarChartOutlined,
  HomeOutlined,
  LogoutOutlined,
  PlusCircleOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { TUser } from '@ccp/schemas';
import { useGetIdentity } from '@refinedev/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';

import { ROUTES } from '../../config.ts';
import { menuItems } from '../../resources.ts';
import type { TMenuIcon } from '../../resources.ts';
import { useAppLayout } from './app-layout-context.ts';
import { ClassroomSwitch } from './classroom-switch.tsx';
import { LanguageSwitch } from './language-switch.tsx';
import { Logo } from './logo.tsx';

const navClass = ({ isActive }: { isActive: boolean }) =>
  isActive ? 'top-nav-item is-active' : 'top-nav-item';

const ICONS: Record<TMenuIcon, ReactNode> = {
  home: <HomeOutlined aria-hidden />,
  learners: <TeamOutlined aria-hidden />,
  insights: <BarChartOutlined aria-hidden />,
};

const MENU = menuItems();

/**
 * The authenticated top bar (spec §2): home, create course, learners, insights (the registry's
 * menu, with the create-course button after home), the classroom, language, log out.
 */
export const TopBar = () => {
  const { t } = useTranslation();
  const { openCreateCourse } = useAppLayout();
  const { data: user } = useGetIdentity<TUser>();
  const [home, ...rest] = MENU;
  const link = (item: (typeof MENU)[number]) => (
    <NavLink key={item.name} to={item.path} className={navClass} title={t(item.labelKey)}>
      {ICONS[item.icon]}
      <span className="top-nav-text">{t(item.labelKey)}</span>
    </NavLink>
  );
  return (
    <header className="top-bar">
      <div className="top-bar-inner">
        <Logo to={ROUTES.dashboard} />
        <nav className="top-nav" aria-label={t('layout.nav.label')}>
          {home && link(home)}
          <button
            type="button"
            className="top-nav-item"
            onClick={openCreateCourse}
            title={t('layout.nav.createCourse')}
          >
            <PlusCircleOutlined aria-hidden />
            <span className="top-nav-text">{t('layout.nav.createCourse')}</span>
          </button>
          {rest.map(link)}
        </nav>
        <div className="top-bar-end">
          <ClassroomSwitch />
          <LanguageSwitch />
          <Link
            to={ROUTES.channels}
            className="top-nav-item top-nav-account"
            title={t('layout.nav.channels')}
          >
            <ApiOutlined aria-hidden />
            <span className="top-nav-text">{t('layout.nav.channels')}</span>
          </Link>
          <NavLink
            to={ROUTES.account}
            end={false}
            className={navClass}
            title={t('layout.nav.account')}
            aria-label={t('layout.nav.account')}
          >
            <UserOutlined aria-hidden />
            <span className="top-nav-text">{user?.first_name ?? t('layout.nav.account')}</span>
          </NavLink>
          <Link to={ROUTES.logout} className="top-nav-item" title={t('layout.nav.logOut')}>
            <LogoutOutlined aria-hidden />
            <span className="top-nav-text">{t('layout.nav.logOut')}</span>
          </Link>
        </div>
      </div>
    </header>
  );
};
