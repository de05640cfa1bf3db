import {
  ApiOutlined,
  BarChartOutlined,
  HomeOutlined,
  LogoutOutlined,
  MenuOutlined,
  PlusCircleOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { TUser } from '@ccp/schemas';
import { useGetIdentity } from '@refinedev/core';
import { Drawer } from 'antd';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';

import { ROUTES } from '../../config.ts';
import { menuItems } from '../../resources.ts';
import type { TMenuIcon } from '../../resources.ts';
import { useAppLayout } from './app-layout-context.ts';
import { useClassroom } from './classroom-context.ts';
import { ClassroomSwitch } from './classroom-switch.tsx';
import { LanguageSwitch } from './language-switch.tsx';
import { Logo } from './logo.tsx';
import { TOP_BAR_FIT_STEPS, topBarFitClass, useTopBarFit } from './use-top-bar-fit.ts';

const navClass =
  (extra = '') =>
  ({ isActive }: { isActive: boolean }) =>
    ['top-nav-item', extra, isActive ? 'is-active' : ''].filter(Boolean).join(' ');

const ICONS: Record<TMenuIcon, ReactNode> = {
  home: <HomeOutlined aria-hidden />,
  learners: <TeamOutlined aria-hidden />,
  insights: <BarChartOutlined aria-hidden />,
};

const MENU = menuItems();

/**
 * The links of the top bar, in its order: home, create course, learners, insights (the registry's
 * menu, with the create-course button after home), then the account area's channels, account and
 * log out. The bar and its collapsed menu show the same list; `onPick` closes the menu.
 */
const NavigationLinks = ({ part, onPick }: { part: 'main' | 'account'; onPick?: () => void }) => {
  const { t } = useTranslation();
  const { openCreateCourse } = useAppLayout();
  const { data: user } = useGetIdentity<TUser>();
  const [home, ...rest] = MENU;
  const link = (item: (typeof MENU)[number]) => (
    <NavLink
      key={item.name}
      to={item.path}
      className={navClass()}
      title={t(item.labelKey)}
      onClick={onPick}
    >
      {ICONS[item.icon]}
      <span className="top-nav-text">{t(item.labelKey)}</span>
    </NavLink>
  );
  if (part === 'main') {
    return (
      <>
        {home && link(home)}
        <button
          type="button"
          className="top-nav-item"
          onClick={() => {
            onPick?.();
            openCreateCourse();
          }}
          title={t('layout.nav.createCourse')}
        >
          <PlusCircleOutlined aria-hidden />
          <span className="top-nav-text">{t('layout.nav.createCourse')}</span>
        </button>
        {rest.map(link)}
      </>
    );
  }
  return (
    <>
      <NavLink
        to={ROUTES.channels}
        className={navClass('top-nav-channels')}
        title={t('layout.nav.channels')}
        onClick={onPick}
      >
        <ApiOutlined aria-hidden />
        <span className="top-nav-text">{t('layout.nav.channels')}</span>
      </NavLink>
      <NavLink
        to={ROUTES.account}
        end={false}
        className={navClass('top-nav-user')}
        title={t('layout.nav.account')}
        aria-label={t('layout.nav.account')}
        onClick={onPick}
      >
        <UserOutlined aria-hidden />
        <span className="top-nav-text">{user?.first_name ?? t('layout.nav.account')}</span>
      </NavLink>
      <Link
        to={ROUTES.logout}
        className="top-nav-item top-nav-logout"
        title={t('layout.nav.logOut')}
        onClick={onPick}
      >
        <LogoutOutlined aria-hidden />
        <span className="top-nav-text">{t('layout.nav.logOut')}</span>
      </Link>
    </>
  );
};

/**
 * The authenticated top bar (spec §2): the navigation, the classroom, language, the account area.
 * When it does not fit its width, the account area's names go first (icons with tooltips), then
 * the whole navigation moves into a menu opened from the bar (use-top-bar-fit.ts).
 */
export const TopBar = () => {
  const { t, i18n } = useTranslation();
  const { data: user } = useGetIdentity<TUser>();
  const { current, classrooms } = useClassroom();
  const [menuOpen, setMenuOpen] = useState(false);
  const { ref, step } = useTopBarFit(
    [i18n.language, user?.first_name, current?.name, classrooms.length].join('|'),
  );
  const collapsed = step === TOP_BAR_FIT_STEPS.length - 1;
  return (
    <header className={`top-bar ${topBarFitClass(step)}`}>
      <div className="top-bar-inner" ref={ref}>
        <Logo to={ROUTES.dashboard} />
        {!collapsed && (
          <nav className="top-nav" aria-label={t('layout.nav.label')}>
            <NavigationLinks part="main" />
          </nav>
        )}
        <div className="top-bar-end">
          <ClassroomSwitch />
          <LanguageSwitch />
          {collapsed ? (
            <button
              type="button"
              className="top-nav-item top-bar-menu-button"
              aria-expanded={menuOpen}
              onClick={() => setMenuOpen(true)}
            >
              <MenuOutlined aria-hidden />
              <span className="top-nav-text">{t('layout.nav.menu')}</span>
            </button>
          ) : (
            <NavigationLinks part="account" />
          )}
        </div>
      </div>
      <Drawer
        open={collapsed && menuOpen}
        onClose={() => setMenuOpen(false)}
        title={t('layout.nav.menu')}
        placement="right"
        width={300}
        rootClassName="top-bar-drawer"
      >
        <nav className="top-bar-drawer-nav" aria-label={t('layout.nav.label')}>
          <NavigationLinks part="main" onPick={() => setMenuOpen(false)} />
          <hr className="top-bar-drawer-rule" />
          <NavigationLinks part="account" onPick={() => setMenuOpen(false)} />
        </nav>
      </Drawer>
    </header>
  );
};
