import type { ReactNode } from 'react';

import { ROUTES } from '../../config.ts';
import { Footer } from './footer.tsx';
import { LanguageSwitch } from './language-switch.tsx';
import { Logo } from './logo.tsx';

/** The default layout (spec §2): the logo links to the login when not signed in. */
export const PublicLayout = ({
  signedIn,
  children,
}: {
  signedIn: boolean;
  children: ReactNode;
}) => (
  <div className="page public-layout">
    <header className="public-header">
      <Logo to={signedIn ? ROUTES.dashboard : ROUTES.login} />
      <LanguageSwitch />
    </header>
    <main id="main" className="public-main">
      {children}
    </main>
    <Footer />
  </div>
);
