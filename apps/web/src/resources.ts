import type { TResource } from '@ccp/data-provider';
import type { ResourceProps } from '@refinedev/core';
import type { ComponentType } from 'react';

import { ROUTES } from './config.ts';

// The one list of the web app's resources (house style, "Web pages"): each entry drives Refine's
// `resources`, the routes with their lazy page chunks (App.tsx), the top-bar menu and the pages
// preloaded at start (pages/loaders.ts). Names are the data provider's resource keys; paths are
// the spec's (§2). A new screen is a folder `pages/<resource>/` and one line here.
//
// This file is in the entry chunk (main.tsx preloads from it): only paths and `import()` calls,
// never a static import of a page, antd or an icon.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own constraint.
type TPageModule = Record<string, ComponentType<any>>;

/** A page of a resource: its path (the spec's) and the named export of its lazy chunk. */
export type TResourcePage = {
  path: string;
  load: () => Promise<TPageModule>;
  component: string;
  /** Sub-routes belong to the page (a wizard's steps): the route matches `path/*`. */
  nested?: boolean;
};

/** Refine's four actions, and the resource's other screens (an import, an upload). */
export type TResourcePages = Partial<Record<'list' | 'create' | 'edit' | 'show', TResourcePage>> &
  Record<string, TResourcePage | undefined>;

export type TMenuIcon = 'home' | 'learners' | 'insights';

export type TResourceEntry = {
  name: TResource;
  pages: TResourcePages;
  /** In the top bar, in this order: its label key and icon. */
  menu?: { labelKey: string; icon: TMenuIcon };
};

const coursesList = () => import('./pages/courses/list.tsx');
const coursesCreate = () => import('./pages/courses/create.tsx');
const coursesImport = () => import('./pages/courses/import.tsx');
const learnersList = () => import('./pages/learners/list.tsx');
const learnersEdit = () => import('./pages/learners/edit.tsx');
const learnersShow = () => import('./pages/learners/show.tsx');
const learnersListsCreate = () => import('./pages/learners-lists/create.tsx');
const learnersImportsCreate = () => import('./pages/learners-imports/create.tsx');
const analyticsList = () => import('./pages/analytics/list.tsx');
const exportsShow = () => import('./pages/exports/show.tsx');
const apiTokensList = () => import('./pages/api-tokens/list.tsx');
const accountSettings = () => import('./pages/account/settings.tsx');
const planUsage = () => import('./pages/account/plan.tsx');
const teamList = () => import('./pages/team/list.tsx');
const channelConnectionsList = () => import('./pages/channel-connections/list.tsx');

export const RESOURCE_REGISTRY: readonly TResourceEntry[] = [
  {
    name: 'courses',
    // The dashboard is the courses' list (spec §2: course cards on /dashboard).
    pages: {
      list: { path: ROUTES.dashboard, load: coursesList, component: 'CourseList' },
      create: {
        path: ROUTES.coursesCreate,
        load: coursesCreate,
        component: 'CourseCreate',
        nested: true,
      },
      import: {
        path: ROUTES.coursesImport,
        load: coursesImport,
        component: 'CourseImport',
        nested: true,
      },
    },
    menu: { labelKey: 'layout.nav.home', icon: 'home' },
  },
  {
    name: 'learners',
    pages: {
      list: { path: ROUTES.learners, load: learnersList, component: 'LearnerList' },
      // /learners/mode/new creates, /learners/mode/{uuid} edits (spec §2): one form page.
      edit: { path: `${ROUTES.learners}/mode/:id`, load: learnersEdit, component: 'LearnerEdit' },
      show: { path: `${ROUTES.learners}/view/:id`, load: learnersShow, component: 'LearnerShow' },
    },
    menu: { labelKey: 'layout.nav.learners', icon: 'learners' },
  },
  {
    name: 'learners-lists',
    pages: {
      create: {
        path: ROUTES.learnersListCreate,
        load: learnersListsCreate,
        component: 'LearnersListCreate',
      },
    },
  },
  {
    // The bulk upload (spec §2 /learners/upload) and its background job (`?job=`).
    name: 'learners-imports',
    pages: {
      create: {
        path: ROUTES.learnersUpload,
        load: learnersImportsCreate,
        component: 'LearnersImportCreate',
      },
    },
  },
  {
    name: 'analytics',
    pages: { list: { path: ROUTES.insights, load: analyticsList, component: 'AnalyticsList' } },
    menu: { labelKey: 'layout.nav.insights', icon: 'insights' },
  },
  {
    name: 'exports',
    // The download page the export e-mail links to (exportDownloadPath in @ccp/schemas).
    pages: { show: { path: `${ROUTES.exports}/:id`, load: exportsShow, component: 'ExportShow' } },
  },
  {
    // Personal API tokens for CI; reached from the top bar's account area (not the menu).
    name: 'api-tokens',
    pages: { list: { path: ROUTES.apiTokens, load: apiTokensList, component: 'ApiTokenList' } },
  },
  {
    // Account settings (issue 17), under the user's name in the top bar: profile, password, 2FA,
    // the sessions list, the API tokens.
    name: 'sessions',
    pages: { list: { path: ROUTES.account, load: accountSettings, component: 'AccountSettings' } },
  },
  {
    // Plan and usage, beside account settings.
    name: 'subscription',
    pages: { show: { path: ROUTES.plan, load: planUsage, component: 'PlanUsage' } },
  },
  {
    // The team (administrators): creators, invitations within the seats, the audit log.
    name: 'team-members',
    pages: { list: { path: ROUTES.team, load: teamList, component: 'TeamList' } },
  },
  {
    // The company's chat providers (issue 16); reached from the top bar's account area.
    name: 'channel-connections',
    pages: {
      list: {
        path: ROUTES.channels,
        load: channelConnectionsList,
        component: 'ChannelConnectionList',
      },
    },
  },
];

const REFINE_ACTIONS = ['list', 'create', 'edit', 'show'] as const;

/** Refine's `resources`: the actions' paths, the other pages' paths in `meta.pages`. */
export const refineResources = (): ResourceProps[] =>
  RESOURCE_REGISTRY.map(({ name, pages, menu }) => {
    const resource: ResourceProps = { name, meta: { label: menu?.labelKey } };
    const others: Record<string, string> = {};
    for (const [action, page] of Object.entries(pages)) {
      if (!page) continue;
      if ((REFINE_ACTIONS as readonly string[]).includes(action)) {
        resource[action as (typeof REFINE_ACTIONS)[number]] = page.path;
      } else others[action] = page.path;
    }
    resource.meta = { ...resource.meta, pages: others };
    return resource;
  });

/** Every page of every resource, for the router. */
export const resourcePages = (): (TResourcePage & { key: string })[] =>
  RESOURCE_REGISTRY.flatMap(({ name, pages }) =>
    Object.entries(pages).flatMap(([action, page]) =>
      page ? [{ ...page, key: `${name}.${action}` }] : [],
    ),
  );

/** The top-bar entries: each resource's list page with its label and icon, in registry order. */
export const menuItems = () =>
  RESOURCE_REGISTRY.flatMap(({ name, pages, menu }) =>
    menu && pages.list ? [{ name, path: pages.list.path, ...menu }] : [],
  );

/** The chunk of the page at `pathname` (exact paths only; the guard may still redirect). */
export const pageLoaderFor = (pathname: string): (() => Promise<unknown>) | undefined =>
  resourcePages().find((page) => page.path === pathname)?.load;
