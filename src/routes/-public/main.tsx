// Browser entry of the prerendered public pages (decision 0007). It carries no router, no session machine
// and no dashboard code; links between pages load documents. The stylesheet is inlined in each page by
// the prerender, so these imports only tell the build which CSS the public pages use.
import '@blueprintjs/core/lib/css/blueprint.css';
import '../../views/common/app.css';

// React and the page's code are fetched only after the browser has painted the prerendered HTML, so
// the first paint never waits for JavaScript.
requestAnimationFrame(() => {
  setTimeout(() => {
    void import('./hydrate').then(({ hydratePublicPage }) => hydratePublicPage());
  }, 0);
});
