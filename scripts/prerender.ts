// Prerenders the public pages at build time (docs/decisions/0007-public-pages-prerender.md).
//
// `vite build` builds the SPA and the public pages' browser entry; when it has written dist/, this plugin
// builds the server entry (src/routes/-public/prerender.tsx) with Vite's SSR build, renders every public
// page with React's renderToString into dist/<page>/index.html with the page's own scripts preloaded (the
// login page among them, decision 0026), writes each app route's document with its route chunks preloaded
// (routeDocuments, decision 0026), and brotli and gzip copies of the text assets for the server to send as
// they are.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build, type Plugin, type ResolvedConfig } from 'vite';
import {
  DEFERRED_HEAD_ID,
  PRERENDERED_FRAME_ID as FRAME_ID,
} from '../src/views/common/prerendered-frame-ids';
import { REQUIREMENTS_PDF_PATH } from '../src/views/public/requirements-checklist';
import { purgeUnusedClasses, unaccountedClasses } from './purge-css';
import { buildRequirementsPdf } from './requirements-pdf';

/** The browser entry of the public pages, as `build.rolldownOptions.input` and the manifest name it. */
export const PUBLIC_ENTRY = 'src/routes/-public/main.tsx';
const SERVER_ENTRY = 'src/routes/-public/prerender.tsx';
/** Server entry of the dashboard frames (decision 0033). */
const FRAME_ENTRY = 'src/routes/-dashboard-frame/prerender.tsx';
/** The browser entry of a framed dashboard document: starts the app after the first paint (decision 0033). */
export const FRAME_BOOT_ENTRY = 'src/routes/-dashboard-frame/boot.ts';
/** Blueprint's text input: a page that renders one can also show its error, busy and toast states. */
const FORM_CONTROL_CLASS = 'bp6-input';
/**
 * Classes the public views put on elements only after hydration, in a state the prerendered HTML is not in.
 * Every page keeps their rules. The build fails on a class of the public views' own stylesheets that no
 * page renders and that is not listed here, so a new state cannot lose its CSS silently.
 */
export const RUNTIME_CLASSES: ReadonlySet<string> = new Set([
  // The visitor's dark mode (theme store), on any page: public-layout.tsx, with Blueprint's own dark class.
  'site--dark',
  'bp6-dark',
  // The mobile menu, open (public-layout.tsx).
  'site-nav--open',
  // A calculator field in error (calculator-page.tsx).
  'site-field__error',
  // The newsletter's outcome, read from the URL after the server's redirect (newsletter-box.tsx).
  'site-newsletter__done',
  'site-newsletter__error',
]);
const STYLESHEET = /\.css$/;
const COMPRESSIBLE = /\.(html|js|mjs|css|svg|json|txt|xml|webmanifest)$/;
/** Below this size a compressed copy saves less than its own request overhead. */
const MIN_COMPRESS_BYTES = 512;

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

interface PublicPageModule {
  source: string;
}

/** What the server entry exports (src/routes/-public/prerender.tsx). */
interface ServerEntry {
  PUBLIC_PATHS: string[];
  PUBLIC_PAGES: Record<string, { title: string; description: string }>;
  PUBLIC_PAGE_MODULES: Record<string, PublicPageModule>;
  renderPublicPage(path: string): Promise<string>;
  renderDynamicStates(): string;
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

/** The component chunk of a route file, as the router plugin's autoCodeSplitting names it in the manifest. */
const ROUTE_COMPONENT = /^src\/routes\/(.+)\.tsx\?tsr-split=component$/;

/**
 * The documents of the app's own routes (decision 0026): for each route whose component is a split chunk,
 * `<route>/index.html` is the SPA's index.html plus a modulepreload of that chunk, its parent routes' and
 * their static imports. Without it the browser learns of them only after the entry has run and the router
 * has matched, a second round trip before the first paint. Routes with a parameter, index routes (they
 * redirect) and paths that already have a prerendered page are left to the SPA fallback.
 */
export function routeDocuments(manifest: Manifest, indexHtml: string): Map<string, string> {
  const entry = new Set(staticClosure(manifest, ['index.html']));
  const documents = new Map<string, string>();
  for (const key of Object.keys(manifest)) {
    const route = key.match(ROUTE_COMPONENT)?.[1];
    if (
      !route ||
      route.includes('$') ||
      route.split('/').some((part) => part === 'index' || part.startsWith('-'))
    )
      continue;
    const segments = route.split('/');
    const chain = segments
      .map((_, depth) => `src/routes/${segments.slice(0, depth + 1).join('/')}.tsx?tsr-split=component`)
      .filter((candidate) => manifest[candidate]);
    const files = staticClosure(manifest, chain).filter((file) => !entry.has(file));
    const links = files
      .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
      .join('\n    ');
    if (!indexHtml.includes('</head>')) throw new Error('prerender: index.html has no </head>');
    documents.set(`/${route}/`, indexHtml.replace('</head>', `  ${links}\n  </head>`));
  }
  return documents;
}

/** Every chunk a page executes before it is interactive: the chunks given and their static imports. */
function staticClosure(manifest: Manifest, keys: string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`prerender: ${key} is not in the build manifest`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return [...seen].map((key) => manifest[key]!.file);
}

/** The classes an HTML string uses. */
export function classesIn(html: string): Set<string> {
  const classes = new Set<string>();
  for (const match of html.matchAll(/\sclass="([^"]*)"/g)) {
    for (const name of match[1]!.split(/\s+/)) if (name) classes.add(name);
  }
  return classes;
}

interface Document {
  path: string;
  title: string;
  description: string;
  body: string;
  css: string;
  entry: string;
}

function htmlDocument(page: Document): string {
  const title = escapeHtml(page.title);
  const description = escapeHtml(page.description);
  return `<!doctype html>
<html lang="es-MX">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<meta name="description" content="${description}">
<meta name="theme-color" content="#0f6894">
<meta property="og:type" content="website">
<meta property="og:locale" content="es_MX">
<meta property="og:site_name" content="Flujo">
<meta property="og:title" content="${title}">
<meta property="og:description" content="${description}">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>${page.css}</style>
<script type="module" src="/${page.entry}"></script>
</head>
<body>
<div id="root">${page.body}</div>
</body>
</html>
`;
}

/** What the dashboard frames' server entry exports (src/routes/-dashboard-frame/prerender.tsx). */
interface FrameEntry {
  hasDashboardFrame(path: string): boolean;
  renderDashboardFrame(path: string): Promise<string>;
}

/** The route document's stylesheet link, as Vite writes it into index.html. */
const STYLESHEET_LINK = /<link rel="stylesheet" crossorigin href="([^"]+)">/;
/** What Vite puts in the head to start the app: its module script and the preloads of its chunks. */
const APP_HEAD_TAGS =
  /\s*<script type="module" crossorigin src="[^"]+"><\/script>|\s*<link rel="modulepreload"[^>]*>/g;

/**
 * A dashboard route document that paints its frame before any script runs (decision 0033): the frame's own
 * rules inline and the frame in an inert element beside #root. What starts the app (its script, preloads and
 * full stylesheet) waits in a <template> that the frame's boot script adds to the head after the first paint;
 * the app applies the stylesheet, and waits for it, before it renders (src/main.tsx).
 */
export function framedDocument(routeHtml: string, frame: string, css: string, bootScript: string): string {
  const link = routeHtml.match(STYLESHEET_LINK);
  if (!link) throw new Error('prerender: the route document has no stylesheet link');
  if (!routeHtml.includes('<div id="root"></div>'))
    throw new Error('prerender: index.html has no empty #root');
  const appTags = [...routeHtml.matchAll(APP_HEAD_TAGS)].map((match) => match[0].trim());
  if (!appTags.some((tag) => tag.startsWith('<script')))
    throw new Error('prerender: no app script in the route document');
  const deferredStylesheet = `<link rel="stylesheet" crossorigin href="${link[1]}" media="print" data-deferred-stylesheet>`;
  return routeHtml
    .replace(APP_HEAD_TAGS, '')
    .replace(
      link[0],
      `<style>${css.replaceAll('</style', '<\\/style')}</style>\n    ` +
        `<template id="${DEFERRED_HEAD_ID}">${[deferredStylesheet, ...appTags].join('')}</template>\n    ` +
        `<script type="module" crossorigin src="/${bootScript}"></script>`,
    )
    .replace('<div id="root"></div>', `<div id="${FRAME_ID}" inert>${frame}</div><div id="root"></div>`);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

/** Writes name.br and name.gz beside each text asset; @fastify/static serves them (preCompressed). */
export function precompress(dir: string): void {
  for (const file of filesUnder(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const bytes = readFileSync(file);
    if (bytes.length < MIN_COMPRESS_BYTES) continue;
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
    writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
  }
}

/**
 * Records the stylesheets under `srcDir` (ours, not a library's) that a build imports. In the server entry's
 * build, those are the ones the public views and their layout import; not app.css, the app shell's and the
 * dashboard's, which only the browser entries import.
 */
function ownStylesheets(srcDir: string, files: Set<string>): Plugin {
  return {
    name: 'flujo:own-stylesheets',
    enforce: 'pre',
    transform(_code, id) {
      const file = id.replace(/\?.*$/, '');
      if (file.startsWith(srcDir) && STYLESHEET.test(file)) files.add(file);
      return null;
    },
  };
}

/**
 * The Vite plugin. `define` must be the client build's, so the prerendered text (the contact e-mail, for
 * one) is the text the browser hydrates; `contactEmail` goes into the requirements PDF.
 */
export function prerenderPublicPages(options: {
  define: Record<string, string>;
  contactEmail: string;
}): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'flujo:prerender-public-pages',
    configResolved(resolved) {
      config = resolved;
    },
    // `vite dev` serves the requirements PDF too, built on request.
    configureServer(server) {
      server.middlewares.use(REQUIREMENTS_PDF_PATH, (_request, response) => {
        void buildRequirementsPdf(options.contactEmail).then((bytes) => {
          response.setHeader('content-type', 'application/pdf');
          response.end(bytes);
        });
      });
    },
    async closeBundle() {
      if (config.command !== 'build' || config.build.ssr || config.build.watch) return;
      const root = config.root;
      const outDir = resolve(root, config.build.outDir);
      // A fresh directory per build: Node caches imported modules by URL for the life of the process.
      const serverDir = resolve(root, `.tmp/prerender-${Date.now()}`);

      // Renders with the client build's `define`; bundles the libraries too, since several publish
      // extension-less ESM that Node cannot import as is.
      const buildServerEntry = async (input: string, dir: string, fileName: string, plugins: Plugin[]) => {
        await build({
          configFile: false,
          root,
          mode: config.mode,
          logLevel: 'warn',
          define: options.define,
          plugins: [react(), ...plugins],
          ssr: { noExternal: true },
          build: {
            ssr: input,
            outDir: dir,
            emptyOutDir: true,
            rolldownOptions: { output: { entryFileNames: fileName } },
          },
        });
        return (await import(pathToFileURL(join(dir, fileName)).href)) as unknown;
      };
      // Every class these define must be rendered by some page or listed in RUNTIME_CLASSES.
      const publicStylesheets = new Set<string>();
      const server = (await buildServerEntry(SERVER_ENTRY, serverDir, 'prerender.mjs', [
        ownStylesheets(join(root, 'src/'), publicStylesheets),
      ])) as ServerEntry;
      // The dashboard frames' entry is built apart: its stylesheets are the app's, not the public pages'
      // that the check below holds to account.
      const buildFrameEntry = async () => {
        const dir = resolve(root, `.tmp/frames-${Date.now()}`);
        return { dir, entry: (await buildServerEntry(FRAME_ENTRY, dir, 'frames.mjs', [])) as FrameEntry };
      };

      const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
      const entry = manifest[PUBLIC_ENTRY];
      if (!entry) throw new Error(`prerender: ${PUBLIC_ENTRY} is not a build input`);
      // build.cssCodeSplit is off, so the whole app's CSS is this one file.
      const stylesheet = manifest['style.css'];
      if (!stylesheet)
        throw new Error('prerender: the build wrote no style.css (is cssCodeSplit still off?)');
      const fullCss = readFileSync(join(outDir, stylesheet.file), 'utf8');

      const dynamicStates = classesIn(server.renderDynamicStates());
      const renderedAnywhere = new Set<string>();
      let largestCss = 0;
      for (const path of server.PUBLIC_PATHS) {
        const body = await server.renderPublicPage(path);
        // Each page inlines only the rules for the classes it renders, plus the states its views reach after
        // hydration; a page with Blueprint form controls also keeps the states a visitor can bring about
        // (a field in error, sending, the toasts).
        const used = classesIn(body);
        for (const name of used) renderedAnywhere.add(name);
        if (used.has(FORM_CONTROL_CLASS)) for (const name of dynamicStates) used.add(name);
        for (const name of RUNTIME_CLASSES) used.add(name);
        const css = purgeUnusedClasses(fullCss, used).replaceAll('</style', '<\\/style');
        largestCss = Math.max(largestCss, css.length);
        const meta = server.PUBLIC_PAGES[path]!;
        // Fails the build when the registry names a module the bundle does not have.
        staticClosure(manifest, [server.PUBLIC_PAGE_MODULES[path]!.source]);
        const dir = join(outDir, path);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'index.html'), htmlDocument({ path, ...meta, body, css, entry: entry.file }));
      }
      rmSync(serverDir, { recursive: true, force: true });
      const indexHtml = readFileSync(join(outDir, 'index.html'), 'utf8');
      const frames = await buildFrameEntry();
      const bootScript = manifest[FRAME_BOOT_ENTRY]?.file;
      if (!bootScript) throw new Error(`prerender: ${FRAME_BOOT_ENTRY} is not a build input`);
      let framed = 0;
      for (const [path, html] of routeDocuments(manifest, indexHtml)) {
        if (server.PUBLIC_PATHS.includes(path)) continue;
        let document = html;
        if (frames.entry.hasDashboardFrame(path)) {
          const frame = await frames.entry.renderDashboardFrame(path);
          // React marks a subtree that threw while rendering to a string with <!--$!-->.
          if (!frame.includes('id="contenido"') || frame.includes('<!--$!-->'))
            throw new Error(`prerender: the dashboard frame of ${path} failed to render its page`);
          document = framedDocument(html, frame, purgeUnusedClasses(fullCss, classesIn(frame)), bootScript);
          framed++;
        }
        mkdirSync(join(outDir, path), { recursive: true });
        writeFileSync(join(outDir, path, 'index.html'), document);
      }
      rmSync(frames.dir, { recursive: true, force: true });
      if (framed === 0) throw new Error('prerender: no dashboard route document got its frame');
      if (publicStylesheets.size === 0)
        throw new Error('prerender: saw none of our stylesheets in the server build, so cannot check them');
      const unreachable = unaccountedClasses(
        Object.fromEntries(
          [...publicStylesheets].map((file) => [relative(root, file), readFileSync(file, 'utf8')]),
        ),
        renderedAnywhere,
        RUNTIME_CLASSES,
      );
      if (unreachable.length > 0) {
        const named = unreachable.map(({ className, stylesheet }) => `.${className} (${stylesheet})`);
        throw new Error(
          `prerender: no public page renders ${named.join(', ')}, so every page would drop its rules. ` +
            'A class a view adds after hydration goes in RUNTIME_CLASSES (scripts/prerender.ts); a rule ' +
            'nothing uses goes.',
        );
      }
      const pdfFile = join(outDir, REQUIREMENTS_PDF_PATH);
      mkdirSync(join(pdfFile, '..'), { recursive: true });
      writeFileSync(pdfFile, await buildRequirementsPdf(options.contactEmail));
      precompress(outDir);
      config.logger.info(
        `prerendered ${server.PUBLIC_PATHS.length} public pages; inline CSS up to ` +
          `${(largestCss / 1024).toFixed(1)} kB of ${(fullCss.length / 1024).toFixed(1)} kB`,
      );
    },
  };
}
