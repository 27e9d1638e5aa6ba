import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type Plugin, type ResolvedConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/** After the client build: render the landing route on the server side and put its HTML into index.html. */
function prerenderLanding(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'ai-editor:prerender-landing',
    apply: 'build',
    configResolved(c) {
      config = c;
    },
    async closeBundle() {
      if (config.build.ssr) return;
      const ssrDir = `${root}dist-ssr`;
      await build({
        root,
        configFile: fileURLToPath(import.meta.url),
        logLevel: 'warn',
        publicDir: false,
        build: { ssr: 'src/entry-prerender.tsx', outDir: ssrDir, emptyOutDir: true },
      });
      const { prerender } = await import('./scripts/prerender.mjs');
      const bytes: number = await prerender(`${root}dist`, ssrDir);
      config.logger.info(`prerendered the landing page: ${(bytes / 1024).toFixed(1)} KB of HTML`);
    },
  };
}

export default defineConfig({
  root,
  plugins: [react(), tailwindcss(), prerenderLanding()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  // `npm run dev -w web` proxies the API to a server started with `npm run serve`.
  server: { proxy: { '/api': 'http://localhost:5000', '/files': 'http://localhost:5000' } },
});
