import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { routes } from './routes';

/**
 * Renders the landing route to HTML at build time, so its hero paints with the HTML and CSS alone (LCP) and the
 * client hydrates it. Other routes start empty, as before. Queries do not run here: data arrives after hydration.
 */
export async function renderLanding(): Promise<string> {
  const { query, dataRoutes } = createStaticHandler(routes);
  const context = await query(new Request('http://localhost/'));
  if (context instanceof Response) throw new Error('the landing route redirected');
  const router = createStaticRouter(dataRoutes, context);
  return renderToString(
    <StrictMode>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { enabled: false } } })}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </QueryClientProvider>
    </StrictMode>,
  );
}
