// First: lets antd 5 run on React 19 (static notification/modal APIs, the ref warning).
import '@ant-design/v5-patch-for-react-19';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from './App.tsx';
import { initI18n } from './i18n.ts';
import { preloadFor } from './pages/loaders.ts';
import { hasStoredTokens } from './providers/lazy.ts';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

// The first page loads alongside the texts of the chosen language, which load before the first
// render so that nothing flashes in English.
preloadFor(window.location.pathname, hasStoredTokens());
void initI18n().then(() => {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
