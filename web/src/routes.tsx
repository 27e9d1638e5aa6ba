import type { PagePath } from '@ai-editor/core';
import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { Layout, PageFallback } from '@/components/layout/Layout';
import NotFound from '@/components/layout/NotFound';
import { AccountMenu } from '@/features/auth/AccountMenu';
import Landing from '@/pages/Landing';

/** The shell with the account menu (the shell itself imports no feature). */
function AppLayout() {
  return <Layout account={<AccountMenu />} />;
}

type PageModule = () => Promise<{ default: ComponentType }>;

/** Every page but the landing page is its own chunk, loaded on first visit (the landing page loads no tool code). */
const page = (load: PageModule): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

/** The component of each page core lists (PAGE_PATHS): a page without one fails the typecheck. */
const PAGES: Record<Exclude<PagePath, '/'>, PageModule> = {
  '/editor': () => import('@/features/editor/Editor'),
  '/ai-apps': () => import('@/pages/AiApps'),
  '/result': () => import('@/features/result/ResultPage'),
  '/my-images': () => import('@/features/library/MyImages'),
  '/pricing': () => import('@/pages/Pricing'),
  '/faq': () => import('@/pages/Faq'),
  '/privacy': () => import('@/pages/legal/Privacy'),
  '/terms': () => import('@/pages/legal/Terms'),
  '/cookies': () => import('@/pages/legal/Cookies'),
  '/dmca': () => import('@/pages/legal/Dmca'),
  '/docs': () => import('@/pages/docs/Docs'),
  '/taguchi-design': () => import('@/pages/docs/TaguchiDesign'),
  '/api-docs': () => import('@/pages/ApiDocs'),
  '/api-keys': () => import('@/features/api-keys/ApiKeys'),
  '/contact': () => import('@/pages/Contact'),
  '/status': () => import('@/pages/Status'),
  '/about': () => import('@/pages/About'),
  '/blog': () => import('@/pages/Blog'),
  '/careers': () => import('@/pages/Careers'),
  '/press': () => import('@/pages/Press'),
  '/customize': () => import('@/pages/Customize'),
  '/admin': () => import('@/features/admin/Admin'),
};

export const routes: RouteObject[] = [
  {
    Component: AppLayout,
    HydrateFallback: PageFallback,
    children: [
      { index: true, Component: Landing },
      ...Object.entries(PAGES).map(([path, load]) => ({ path: path.slice(1), ...page(load) })),
      // Tools come from the operation catalogue, articles from core's DOC_SLUGS (unknown ones show the 404 page).
      { path: 'features/:slug', ...page(() => import('@/features/tool/workspace/ToolPage')) },
      { path: 'docs/:slug', ...page(() => import('@/pages/docs/DocArticle')) },
      { path: '*', Component: NotFound },
    ],
  },
];
