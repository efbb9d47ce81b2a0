// /diagramas/'s search validation, apart from the page: the route file is part of the app's first chunk on
// every page, the page and the diagrams' index are not (decision 0026).

/** `?maquina=todas` shows every machine one after another, each on its own printed page. */
export const ALL_MACHINES = 'todas';

/** Each generated diagram's SVG (docs/diagrams/<id>.svg), fetched when its machine is shown. */
export const svgLoaders = import.meta.glob<string>(['../../../docs/diagrams/*.svg', '!**/*.coverage.svg'], {
  query: '?raw',
  import: 'default',
});

/** The machines with a generated diagram: the files' names, so validating an address loads no diagram. */
const DIAGRAM_IDS = new Set(
  Object.keys(svgLoaders).map((file) => file.slice(file.lastIndexOf('/') + 1, -'.svg'.length)),
);

export interface DiagramsSearch {
  maquina?: string;
}

/** The route's search validation: a known machine id, `todas`, or nothing (the lifecycle). */
export function validateDiagramsSearch(search: Record<string, unknown>): DiagramsSearch {
  const value = search.maquina;
  const known = typeof value === 'string' && (value === ALL_MACHINES || DIAGRAM_IDS.has(value));
  // Undefined rather than absent: the router keeps search keys validation leaves out.
  return { maquina: known ? value : undefined };
}
