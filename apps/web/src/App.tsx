// First: lets antd 5 run on React 19 (static notification/modal APIs, the ref warning).
import '@ant-design/v5-patch-for-react-19';
import { Refine, useInvalidateAuthStore } from '@refinedev/core';
import routerProvider, { UnsavedChangesNotifier } from '@refinedev/react-router';
import { App as AntdApp, ConfigProvider } from 'antd';
import type { ThemeConfig } from 'antd';
import { BrowserRouter, Link, Navigate, Route, Routes } from 'react-router';

import { AuthSync } from './components/auth-sync.tsx';
import { ErrorBoundary } from './components/error-boundary.tsx';
import { AppLinkContext } from './components/layout/app-link.tsx';
import type { TAppLinkProps } from './components/layout/app-link.tsx';
import { OfflineBanner } from './components/layout/offline-banner.tsx';
import { GlobalFeedback } from './components/modals/global-feedback.tsx';
import { RouteGuard } from './components/route-guard.tsx';
import { ROUTES } from './config.ts';
import { antdLocaleFor, i18nProvider } from './i18n.ts';
import { lazyNamed } from './lib/lazy-named.ts';
import { useTexts } from './lib/texts.ts';
import { LoginPage } from './pages/login/index.tsx';
import { pageLoaders } from './pages/loaders.ts';
import { lazyAuthProvider, lazyDataProvider } from './providers/lazy.ts';
import { useNotificationProvider } from './providers/notification.tsx';
import { refineResources, resourcePages } from './resources.ts';

// One chunk per page. The login page is in the entry: main.tsx shows it before this app loads.
const TwoFactorPage = lazyNamed(pageLoaders.twoFactor, 'TwoFactorPage');
const LogoutPage = lazyNamed(pageLoaders.logout, 'LogoutPage');
const FaqPage = lazyNamed(pageLoaders.faq, 'FaqPage');
const NotFoundPage = lazyNamed(pageLoaders.notFound, 'NotFoundPage');
const passwordReset = () => import('./pages/password-reset/index.tsx');
const ForgotPasswordPage = lazyNamed(passwordReset, 'ForgotPasswordPage');
const ResetPasswordPage = lazyNamed(passwordReset, 'ResetPasswordPage');
const InvitationPage = lazyNamed(() => import('./pages/invitation/index.tsx'), 'InvitationPage');

// The resources' pages, from the registry (resources.ts).
const RESOURCE_ROUTES = resourcePages().map((page) => ({
  key: page.key,
  path: page.nested ? `${page.path}/*` : page.path,
  Page: lazyNamed(page.load, page.component),
}));
const RESOURCES = refineResources();

const THEME: ThemeConfig = {
  token: { colorPrimary: '#3b5bdb', borderRadius: 8, fontSize: 15 },
};

type TStatusError = { statusCode?: unknown; status?: unknown };

// TanStack retries failed queries 3 times by default; a 4xx answer will not change on retry.
const isClientError = (error: unknown) => {
  const { statusCode, status } = (error ?? {}) as TStatusError;
  const code = typeof statusCode === 'number' ? statusCode : status;
  return typeof code === 'number' && code >= 400 && code < 500;
};

const QUERY_CLIENT_CONFIG = {
  defaultOptions: {
    queries: {
      retry: (failures: number, error: unknown) => !isClientError(error) && failures < 2,
    },
  },
};

const renderRouterLink = ({ to, ...rest }: TAppLinkProps) => <Link to={to} {...rest} />;

/** /login inside the app (after logging out, or a session that ended): the guard moves on. */
const LoginRoute = () => {
  const invalidateAuthStore = useInvalidateAuthStore();
  return <LoginPage onSignedIn={() => invalidateAuthStore()} />;
};

/** After accepting an invitation the guard takes the new creator to the 2FA setup. */
const InvitationRoute = () => {
  const invalidateAuthStore = useInvalidateAuthStore();
  return <InvitationPage onJoined={() => invalidateAuthStore()} />;
};

export const App = () => {
  // Re-renders on a language change, so antd's texts follow.
  const locale = antdLocaleFor(useTexts().language);
  return (
    <BrowserRouter>
      <AppLinkContext.Provider value={renderRouterLink}>
        <ConfigProvider locale={locale} theme={THEME}>
          <AntdApp notification={{ placement: 'topRight' }}>
            <Refine
              routerProvider={routerProvider}
              authProvider={lazyAuthProvider}
              dataProvider={lazyDataProvider}
              i18nProvider={i18nProvider}
              notificationProvider={useNotificationProvider}
              resources={RESOURCES}
              options={{
                disableTelemetry: true,
                reactQuery: { clientConfig: QUERY_CLIENT_CONFIG },
              }}
            >
              <OfflineBanner />
              <ErrorBoundary>
                <Routes>
                  <Route element={<RouteGuard access="public" layout="public" />}>
                    <Route path={ROUTES.login} element={<LoginRoute />} />
                    <Route path={ROUTES.forgotPassword} element={<ForgotPasswordPage />} />
                    <Route path={ROUTES.resetPassword} element={<ResetPasswordPage />} />
                    <Route path={ROUTES.invitation} element={<InvitationRoute />} />
                  </Route>
                  <Route element={<RouteGuard access="setup" layout="public" />}>
                    <Route path={ROUTES.twoFactor} element={<TwoFactorPage />} />
                  </Route>
                  <Route element={<RouteGuard access="logout" layout="public" />}>
                    <Route path={ROUTES.logout} element={<LogoutPage />} />
                  </Route>
                  <Route element={<RouteGuard access="private" layout="app" />}>
                    <Route index element={<Navigate to={ROUTES.dashboard} replace />} />
                    {RESOURCE_ROUTES.map(({ key, path, Page }) => (
                      <Route key={key} path={path} element={<Page />} />
                    ))}
                  </Route>
                  <Route element={<RouteGuard access="open" layout="adaptive" />}>
                    <Route path={ROUTES.faq} element={<FaqPage />} />
                    <Route path="*" element={<NotFoundPage />} />
                  </Route>
                </Routes>
              </ErrorBoundary>
              <GlobalFeedback />
              <UnsavedChangesNotifier />
              <AuthSync />
            </Refine>
          </AntdApp>
        </ConfigProvider>
      </AppLinkContext.Provider>
    </BrowserRouter>
  );
};
