import { instance, type Viz } from '@viz-js/viz';

/** Graphviz compiled to WebAssembly: no system binary, the same output on every machine. */
let viz: Promise<Viz> | undefined;

export async function renderSvg(dot: string): Promise<string> {
  viz ??= instance();
  return (await viz).renderString(dot, { format: 'svg', engine: 'dot' });
}
