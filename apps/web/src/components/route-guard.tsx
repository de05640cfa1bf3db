import { useIsAuthenticated } from '@refinedev/core';
import { Suspense } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';

import { authStateFrom, guardRedirect } from '../lib/guards.ts';
import type { TRouteAccess } from '../lib/guards.ts';
import { lazyNamed } from '../lib/lazy-named.ts';
import { authenticatedLayoutLoader } from '../pages/loaders.ts';
import { LoadingOverlay } from './layout/loading-overlay.tsx';
import { PublicLayout } from './layout/public-layout.tsx';

// The authenticated frame is its own chunk: /login never loads it.
const AuthenticatedLayout = lazyNamed(authenticatedLayoutLoader, 'AuthenticatedLayout');

type Props = {
  access: TRouteAccess;
  /** `adaptive`: the authenticated frame when signed in, the default one otherwise. */
  layout: 'public' | 'app' | 'adaptive';
};

/** Applies the spec §2 guards (see lib/guards.ts), then renders the route in its layout. */
export const RouteGuard = ({ access, layout }: Props) => {
  const location = useLocation();
  const { data, isLoading } = useIsAuthenticated();
  if (isLoading) return <LoadingOverlay />;
  const state = authStateFrom(data);
  const redirect = guardRedirect(access, state, location);
  if (redirect) return <Navigate to={redirect} replace />;
  const signedIn = state === 'signedIn';
  if (layout === 'app' || (layout === 'adaptive' && signedIn)) {
    return (
      <Suspense fallback={<LoadingOverlay />}>
        <AuthenticatedLayout />
      </Suspense>
    );
  }
  return (
    <PublicLayout signedIn={signedIn}>
      <Suspense fallback={<LoadingOverlay />}>
        <Outlet />
      </Suspense>
    </PublicLayout>
  );
};
