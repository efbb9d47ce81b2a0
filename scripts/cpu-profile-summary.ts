// `npm run profile:summary -- FILE.cpuprofile [--top N]`: a flame summary of a V8 CPU profile written by
// `node --cpu-prof` (bench:api --cpu-prof writes one per server): where the server's CPU went, as text a
// decision can quote. Self time is grouped by where the code lives (a package under node_modules, Flujo's own
// files, Node's internals, the garbage collector, idle), then the heaviest functions by self time, then the
// inclusive time of the frames that matter for a request (everything under them).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Where a frame's code lives: 'pkg:fastify', 'flujo:server/modules/auth', 'node:internal', '(idle)'. */
export function areaOf(url: string, functionName: string): string {
  if (!url) {
    if (functionName === '(idle)' || functionName === '(program)' || functionName === '(garbage collector)')
      return functionName;
    return '(native)';
  }
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    return `pkg:${rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  if (url.startsWith('node:')) return url.startsWith('node:internal/') ? 'node:internal' : url;
  const project = /\/(server|src|scripts)\/(.*)\/[^/]+$/.exec(url);
  if (project) return `flujo:${project[1]}/${project[2]?.split('/').slice(0, 2).join('/')}`;
  const file = /\/(server|src|scripts)\/[^/]+$/.exec(url);
  return file ? `flujo:${file[1]}` : url;
}

export function summarize(profile: CpuProfile, top: number, focus: readonly string[]): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfMicros = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const total = profile.endTime - profile.startTime;
  const idle = [...selfMicros].reduce(
    (sum, [id, micros]) => (byId.get(id)?.callFrame.functionName === '(idle)' ? sum + micros : sum),
    0,
  );
  const busy = total - idle;
  const pct = (micros: number) => `${((100 * micros) / busy).toFixed(1)} %`;
  const ms = (micros: number) => `${(micros / 1000).toFixed(0)} ms`;

  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, micros] of selfMicros) {
    const node = byId.get(id);
    if (!node || node.callFrame.functionName === '(idle)') continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const area = areaOf(url, functionName);
    areas.set(area, (areas.get(area) ?? 0) + micros);
    const where = url.startsWith('node:') ? url : area;
    const name = `${functionName || '(anonymous)'} ${where}${url ? `:${lineNumber + 1}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + micros);
    // Inclusive time of the focus frames: walk up once per distinct focus name.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (!frame) break;
      for (const wanted of focus) {
        if (!seen.has(wanted) && `${frame.functionName} ${frame.url}`.includes(wanted)) {
          seen.add(wanted);
          inclusive.set(wanted, (inclusive.get(wanted) ?? 0) + micros);
        }
      }
    }
  }
  const rank = (map: Map<string, number>, limit: number) =>
    [...map].sort((a, b) => b[1] - a[1]).slice(0, limit);
  const lines = [
    `profile: ${ms(total)} wall, ${ms(busy)} busy (not idle)`,
    '',
    '| where (self time) | time | share of busy |',
    '|---|---:|---:|',
    ...rank(areas, top).map(([area, micros]) => `| ${area} | ${ms(micros)} | ${pct(micros)} |`),
    '',
    '| heaviest functions (self time) | time | share of busy |',
    '|---|---:|---:|',
    ...rank(functions, top).map(([name, micros]) => `| \`${name}\` | ${ms(micros)} | ${pct(micros)} |`),
  ];
  if (focus.length > 0) {
    lines.push('', '| frame (inclusive: it and what it calls) | time | share of busy |', '|---|---:|---:|');
    for (const wanted of focus) {
      const micros = inclusive.get(wanted) ?? 0;
      lines.push(`| \`${wanted}\` | ${ms(micros)} | ${pct(micros)} |`);
    }
  }
  return lines.join('\n');
}

const invokedDirectly = process.argv[1]?.endsWith('cpu-profile-summary.ts');
if (invokedDirectly) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { top: { type: 'string' }, focus: { type: 'string', multiple: true } },
  });
  if (positionals.length === 0) {
    console.error('usage: npm run profile:summary -- FILE.cpuprofile [--top N] [--focus NAME]…');
    process.exit(2);
  }
  for (const file of positionals) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
    console.log(`## ${file}\n`);
    console.log(summarize(profile, Number(values.top ?? 25), values.focus ?? []));
    console.log();
  }
}
