// Puts the landing page's HTML into dist/index.html (see src/entry-prerender.tsx); run by vite.config.ts after
// the client build. The server answers every client route with this file, so a tiny inline script empties the
// markup before the first paint elsewhere, and a visitor with a stored theme waits for it (no flash of the
// default colours; main.tsx lifts the guard once the theme is applied).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export async function prerender(distDir, ssrDir) {
  const { renderLanding } = await import(pathToFileURL(path.join(ssrDir, 'entry-prerender.js')).href);
  const html = await renderLanding();
  const file = path.join(distDir, 'index.html');
  const page = fs.readFileSync(file, 'utf8');
  const marker = '<div id="root"></div>';
  if (!page.includes(marker)) throw new Error('index.html has no empty #root');
  const guard = "<script>if(location.pathname!=='/')document.getElementById('root').textContent=''</script>";
  const themeGuard =
    "<script>try{if(localStorage.getItem('ai-editor-theme'))document.documentElement.setAttribute('data-theme-pending','')}catch(e){}</script>" +
    '<style>html[data-theme-pending] #root{visibility:hidden}</style>';
  fs.writeFileSync(
    file,
    page.replace('</head>', `${themeGuard}</head>`).replace(marker, `<div id="root">${html}</div>${guard}`),
  );
  fs.rmSync(ssrDir, { recursive: true, force: true });
  return html.length;
}
