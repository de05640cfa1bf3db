import { DEFAULT_LOCALE } from '@ccp/schemas';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import defaultBootTexts from 'virtual:boot-texts/default';

import { SignInShell } from './boot/sign-in-shell.tsx';
import { ROUTES } from './config.ts';
import { safeReturnPath } from './lib/guards.ts';
import { LANGUAGE_PACKS, SIGN_IN_TEXTS } from './lib/language-packs.ts';
import { currentLanguage, loadAllTexts, showTexts } from './lib/texts.ts';
import { createTranslator } from './lib/translator.ts';
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

// Most visits start signed out on /login: that screen shows with React alone, and
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
  // Alongside i18next's chunk rather than after it (i18n.ts asks for the same module).
  LANGUAGE_PACKS[currentLanguage()]().catch(() => undefined);
}

// The sign-in screen renders with a small translator over its own texts, not i18next (84 KB of
// source to evaluate and initialise before the form: issue 32); i18next and the whole language
// take over once the user types, with the same texts.
const showSignIn = (texts: Record<string, unknown>) => {
  const language = currentLanguage();
  showTexts(language, createTranslator(language, texts));
  root.render(
    <StrictMode>
      <SignInShell onSignedIn={startApp} onCredentialsAccepted={prepareSignedIn} />
    </StrictMode>,
  );
};

// The texts of the chosen language load before the first render, so nothing flashes in English.
if (!signInFirst) void startApp();
else if (currentLanguage() === DEFAULT_LOCALE) showSignIn(defaultBootTexts);
// A chunk that fails to load (a new deployment) is startApp's to recover from: it loads again.
else void SIGN_IN_TEXTS[currentLanguage()]().then(showSignIn, startApp);
