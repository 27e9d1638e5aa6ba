import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { Layout, PageFallback } from '@/components/layout/Layout';
import Landing from '@/pages/Landing';
import NotFound from '@/pages/NotFound';

/** Every page but the landing page is its own chunk, loaded on first visit (the landing page loads no tool code). */
const page = (load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

export const routes: RouteObject[] = [
  {
    Component: Layout,
    HydrateFallback: PageFallback,
    children: [
      { index: true, Component: Landing },
      { path: 'editor', ...page(() => import('@/pages/Editor')) },
      { path: 'ai-apps', ...page(() => import('@/pages/AiApps')) },
      { path: 'features/:slug', ...page(() => import('@/features/tool/ToolPage')) },
      { path: 'result', ...page(() => import('@/pages/ResultPage')) },
      { path: 'my-images', ...page(() => import('@/pages/MyImages')) },
      { path: 'pricing', ...page(() => import('@/pages/Pricing')) },
      { path: 'faq', ...page(() => import('@/pages/Faq')) },
      { path: 'privacy', ...page(() => import('@/pages/legal/Privacy')) },
      { path: 'terms', ...page(() => import('@/pages/legal/Terms')) },
      { path: 'cookies', ...page(() => import('@/pages/legal/Cookies')) },
      { path: 'dmca', ...page(() => import('@/pages/legal/Dmca')) },
      { path: 'docs', ...page(() => import('@/pages/docs/Docs')) },
      { path: 'docs/:slug', ...page(() => import('@/pages/docs/DocArticle')) },
      { path: 'taguchi-design', ...page(() => import('@/pages/docs/TaguchiDesign')) },
      { path: 'api-docs', ...page(() => import('@/pages/ApiDocs')) },
      { path: 'contact', ...page(() => import('@/pages/Contact')) },
      { path: 'status', ...page(() => import('@/pages/Status')) },
      { path: 'about', ...page(() => import('@/pages/About')) },
      { path: 'blog', ...page(() => import('@/pages/Blog')) },
      { path: 'careers', ...page(() => import('@/pages/Careers')) },
      { path: 'press', ...page(() => import('@/pages/Press')) },
      { path: 'customize', ...page(() => import('@/pages/Customize')) },
      { path: '*', Component: NotFound },
    ],
  },
];
