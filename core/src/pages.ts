import { OPERATIONS } from './operations.js';

/**
 * The web app's pages besides the tools (whose routes come from the operation catalogue), defined once: the web
 * app's route table (web/src/routes.tsx) gives each a component, and the server answers 200 for them and 404 for
 * any other path (server/src/routes/web.ts).
 */
export const PAGE_PATHS = [
  '/',
  '/editor',
  '/ai-apps',
  '/result',
  '/my-images',
  '/pricing',
  '/faq',
  '/privacy',
  '/terms',
  '/cookies',
  '/dmca',
  '/docs',
  '/taguchi-design',
  '/api-docs',
  '/api-keys',
  '/contact',
  '/status',
  '/about',
  '/blog',
  '/careers',
  '/press',
  '/customize',
] as const;
export type PagePath = (typeof PAGE_PATHS)[number];

/** The documentation articles, under /docs/:slug (their texts are in the web app). */
export const DOC_SLUGS = [
  'object-removal',
  'background-removal',
  'super-resolution',
  'style-transfer',
  'best-practices',
  'troubleshooting',
] as const;
export type DocSlug = (typeof DOC_SLUGS)[number];

/** Every path the web app shows a page for (tools and articles included). */
export function pagePaths(): string[] {
  return [...PAGE_PATHS, ...OPERATIONS.map((op) => op.route), ...DOC_SLUGS.map((slug) => `/docs/${slug}`)];
}
