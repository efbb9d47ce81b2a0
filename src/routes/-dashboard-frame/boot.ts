// Browser entry of a dashboard route document that holds a prerendered frame (decision 0033). The document
// keeps the app's script, its preloads and its stylesheet in a <template>; they are added to the head only
// once the browser has painted the frame, so the first paint never waits for them.
import { DEFERRED_HEAD_ID } from '../../views/common/prerendered-frame-ids';

/** Each added element starts a request; a few per task keep every task short. */
const ELEMENTS_PER_TASK = 3;

function copy(source: Element): Element {
  // Made here, not cloned: a script cloned out of a template is not guaranteed to run.
  const element = document.createElement(source.tagName.toLowerCase());
  for (const { name, value } of Array.from(source.attributes)) element.setAttribute(name, value);
  return element;
}

function addInTasks(elements: Element[]): void {
  for (const element of elements.slice(0, ELEMENTS_PER_TASK)) document.head.append(copy(element));
  if (elements.length > ELEMENTS_PER_TASK) setTimeout(() => addInTasks(elements.slice(ELEMENTS_PER_TASK)), 0);
}

function startApp(): void {
  const deferred = document.getElementById(DEFERRED_HEAD_ID);
  // The template lists the stylesheet and the app's script first, then the preloads of its chunks.
  if (deferred instanceof HTMLTemplateElement) addInTasks(Array.from(deferred.content.children));
}

/** A document that is never shown (a background tab) reports no paint: it starts the app after this. */
const UNPAINTED_START_MS = 1000;

/**
 * Runs `start` once the browser reports the first contentful paint: a frame handed to the compositor is not
 * yet on screen, and on a busy machine the app's requests would otherwise set out before the frame is seen.
 */
function afterFirstPaint(start: () => void): void {
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    observer.disconnect();
    start();
  };
  const observer = new PerformanceObserver(once);
  observer.observe({ type: 'paint', buffered: true });
  // Asks for a frame: headless Chromium, for one, may not draw a page that has not asked for one.
  requestAnimationFrame(() => {});
  setTimeout(once, UNPAINTED_START_MS);
}

afterFirstPaint(() => setTimeout(startApp, 0));
