import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precomputedIconNames } from './scripts/blueprint-icon-names';
import { FRAME_BOOT_ENTRY, PUBLIC_ENTRY, prerenderPublicPages } from './scripts/prerender';

// The server's CONTACT_EMAIL reaches the pages and the requirements PDF at build time (VITE_CONTACT_EMAIL
// overrides it for the pages' build alone).
const contactEmail = process.env.VITE_CONTACT_EMAIL || process.env.CONTACT_EMAIL || 'contacto@flujo.mx';
const define = { 'import.meta.env.VITE_CONTACT_EMAIL': JSON.stringify(contactEmail) };

export default defineConfig({
  plugins: [
    // Must come before react(): it generates src/routeTree.gen.ts and splits each route into its own chunk.
    tanstackRouter({ target: 'react', autoCodeSplitting: true, routesDirectory: 'src/routes' }),
    react(),
    // Blueprint's icon-name table as a literal, not computed while the page loads (decision 0026).
    precomputedIconNames(),
    // Public pages become static HTML that hydrates (docs/decisions/0007-public-pages-prerender.md).
    prerenderPublicPages({ define, contactEmail }),
  ],
  define,
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:8080' },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    // The prerender reads which chunks each public page needs from the manifest.
    manifest: true,
    // One stylesheet: the public pages inline a purged copy of it, so no chunk may bring its own CSS later.
    cssCodeSplit: false,
    modulePreload: {
      // The public pages' entry imports the hydration code after the first paint; the browser fetches its
      // imports when it parses it. Preloading them from the entry instead costs a main-thread task that
      // inserts a <link> per chunk, the one place where that work is in the way.
      resolveDependencies: (filename, deps) => (/(^|\/)hydrate-[\w-]+\.js$/.test(filename) ? [] : deps),
    },
    rolldownOptions: { input: { index: 'index.html', public: PUBLIC_ENTRY, frame: FRAME_BOOT_ENTRY } },
  },
});
