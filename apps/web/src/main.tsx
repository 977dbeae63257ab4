import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { startEarly } from '@/app/early-start';
import { installErrorReporting } from '@/lib/error-reporting';
import { queryClient } from '@/lib/query-client';
import { applyForceLogin } from '@/lib/session-guards';
import './index.css';

// Before the first render, so a forced sign-in never fetches the old user.
applyForceLogin();
installErrorReporting();
startEarly(queryClient);

const root = document.getElementById('root');
if (!root) throw new Error('The #root element is missing from index.html');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
