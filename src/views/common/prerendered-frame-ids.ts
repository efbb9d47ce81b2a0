// The element ids a framed dashboard document is written with (scripts/prerender.ts, decision 0033), apart from
// the React hook so that the frame's boot script stays free of React.

/** The element of a route document that holds the prerendered frame. */
export const PRERENDERED_FRAME_ID = 'flujo-frame';

/** The <template> that holds the app's scripts and stylesheet until the frame has been painted. */
export const DEFERRED_HEAD_ID = 'flujo-deferred-head';
