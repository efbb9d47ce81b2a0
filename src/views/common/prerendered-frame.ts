import { useLayoutEffect } from 'react';
import { PRERENDERED_FRAME_ID } from './prerendered-frame-ids';

// A dashboard route's document paints a data-free frame of its page (header, sidebar, title, help card,
// skeleton rows) before any JavaScript has run (decision 0033). The app renders into #root beside it and
// takes the frame away in the same commit that first shows a real screen, so nothing flashes in between.

export function removePrerenderedFrame(): void {
  document.getElementById(PRERENDERED_FRAME_ID)?.remove();
}

/** Takes the prerendered frame away before the browser paints the component that replaces it. */
export function useRemovePrerenderedFrame(when = true): void {
  useLayoutEffect(() => {
    if (when) removePrerenderedFrame();
  }, [when]);
}
