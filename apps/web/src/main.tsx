import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { SignInShell } from './boot/sign-in-shell.tsx';
import { ROUTES } from './config.ts';
import { initI18n, loadAllTexts } from './i18n.ts';
import { safeReturnPath } from './lib/guards.ts';
import { preloadFor } from './pages/loaders.ts';
import { loadProviders, maybeSignedIn } from './providers/lazy.ts';
import { forgetLegacyTokens } from './providers/session-flag.ts';
import './styles.css';

// Before anything reads storage: the tokens older versions kept in localStorage go, unused.
forgetLegacyTokens();

const element = document.getElementById('root');
if (!element) throw new Error('The page has no #root element.');
const root = createRoot(element);

// The app (Refine, antd, the router: ~200 KB gzip) is its own chunk.
const loadApp = () => import('./App.tsx');

const startApp = async () => {
  // A failed chunk load (a new deployment, a dropped connection) starts over with a full load;
  // the session is in the cookie by then, so the page opens signed in.
  const [{ App }] = await Promise.all([loadApp(), loadAllTexts()]).catch((error: unknown) => {
    window.location.reload();
    throw error;
  });
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
};

// While the user reads their authenticator: the app, and the frame and page it will open.
const prepareSignedIn = () => {
  // A failure here shows when the app is needed (startApp).
  loadApp().catch(() => undefined);
  loadProviders().catch(() => undefined);
  loadAllTexts().catch(() => undefined);
  const target = safeReturnPath(new URLSearchParams(window.location.search).get('to'));
  preloadFor(new URL(target ?? ROUTES.dashboard, window.location.origin).pathname, true);
};

// Most visits start signed out on /login: that screen shows with React and i18next alone, and
// hands the page to the app once signed in. Any other address starts the app at once, with its
// first page loading alongside the entry and the texts of the chosen language. "Signed in" is the
// flag: the app resumes the cookie's session before its guards decide (providers/create.ts).
const signedIn = maybeSignedIn();
const signInFirst = window.location.pathname === ROUTES.login && !signedIn;
if (!signInFirst) {
  preloadFor(window.location.pathname, signedIn);
  void loadApp();
  // Signed in, the first things the app needs are an access token and who the user is: the
  // client loads alongside the app and asks for them instead of after its first render.
  if (signedIn) loadProviders().catch(() => undefined);
}

// The texts of the chosen language load before the first render, so nothing flashes in English:
// only the sign-in screen's on a signed-out /login (the rest once the user types).
void initI18n({ signInOnly: signInFirst }).then(() => {
  if (!signInFirst) return startApp();
  root.render(
    <StrictMode>
      <SignInShell onSignedIn={startApp} onCredentialsAccepted={prepareSignedIn} />
    </StrictMode>,
  );
});
