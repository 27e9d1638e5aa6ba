// First: zod's settings hold before any schema is used.
import './lib/zod-config';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { initTheme } from '@/features/theme/theme';
import { queryClient } from '@/lib/api';
import { routes } from './routes';
import './index.css';

// The theme is restored from browser storage at start, before the first render.
initTheme();
document.documentElement.removeAttribute('data-theme-pending');

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');
const router = createBrowserRouter(routes);
const app = (
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>
);
// The landing page is prerendered into index.html at build time (scripts/prerender.mjs): adopt that markup,
// after the browser has painted it (hydration is a long task that would otherwise hold back the first paint).
if (root.firstElementChild && window.location.pathname === '/') {
  requestAnimationFrame(() =>
    setTimeout(() =>
      hydrateRoot(root, app, {
        // A mismatch makes React re-render from scratch (correct, but the prerender is wasted): say where.
        onRecoverableError: (error, info) => console.error('Hydration recovered:', error, info.componentStack),
      }),
    ),
  );
} else createRoot(root).render(app);
