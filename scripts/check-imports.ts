// Enforces the dependency direction of STYLE.md, which Biome cannot express as zones:
//   src/domain imports nothing of ours; src/machines only src/domain; server/ only src/domain and
//   src/machines of src/; src/ never imports server/ or test/; stores import only the domain; services only
//   the domain and stores; views never import services; no cycles; no two server modules import each other.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const SOURCE = /\.(ts|tsx)$/;
const TEST_FILE = /\.test\.tsx?$/;
const IMPORT =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

interface Rule {
  from: string;
  allowed: string[];
  why: string;
}

// Paths are prefixes relative to the repository root; `allowed` lists the only internal targets.
const RULES: Rule[] = [
  { from: 'src/domain/', allowed: ['src/domain/'], why: 'domain is pure and imports nothing of ours' },
  {
    from: 'src/machines/',
    allowed: ['src/domain/', 'src/machines/'],
    why: 'machines import only the domain',
  },
  {
    from: 'src/stores/',
    allowed: ['src/domain/', 'src/stores/'],
    why: 'stores hold session and UI state; they know only the domain',
  },
  {
    from: 'src/services/',
    allowed: ['src/domain/', 'src/stores/', 'src/services/'],
    why: 'services speak HTTP; response shapes come from the domain, not from machines or views',
  },
  {
    from: 'src/views/',
    allowed: ['src/domain/', 'src/machines/', 'src/views/', 'src/stores/', 'docs/diagrams/'],
    why: 'views render machine state; they never call services directly',
  },
  {
    from: 'src/',
    allowed: ['src/', 'docs/diagrams/'],
    why: 'the browser app never imports server or test code',
  },
  {
    from: 'server/',
    allowed: ['server/', 'src/domain/', 'src/machines/'],
    why: 'the server shares only pure code with the browser',
  },
];

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.')) return [];
    return statSync(full).isDirectory() ? walk(full) : SOURCE.test(name) ? [full] : [];
  });
}

function resolveImport(file: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(file), specifier.split('?')[0]!);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // try the next candidate
    }
  }
  return base;
}

const files = ['src', 'server', 'test', 'e2e', 'scripts'].flatMap((d) => walk(join(ROOT, d)));
const graph = new Map<string, string[]>();
const problems: string[] = [];

for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const from = relative(ROOT, file);
  const targets: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2] ?? match[3];
    if (!specifier) continue;
    const target = resolveImport(file, specifier);
    if (!target) continue;
    const to = relative(ROOT, target);
    targets.push(to);
    const rule = RULES.find((r) => from.startsWith(r.from));
    // Tests beside the code may use the shared fixtures; production code may not.
    const allowed = rule && TEST_FILE.test(from) ? [...rule.allowed, 'test/fixtures/'] : rule?.allowed;
    if (rule && allowed && !allowed.some((prefix) => to.startsWith(prefix))) {
      problems.push(`${from} imports ${to}: ${rule.why}`);
    }
  }
  graph.set(from, targets);
}

// Cycle detection (depth-first, colouring).
const state = new Map<string, 'visiting' | 'done'>();
const stack: string[] = [];
function visit(node: string): void {
  if (state.get(node) === 'done') return;
  if (state.get(node) === 'visiting') {
    problems.push(`import cycle: ${[...stack.slice(stack.indexOf(node)), node].join(' -> ')}`);
    return;
  }
  state.set(node, 'visiting');
  stack.push(node);
  for (const next of graph.get(node) ?? []) if (graph.has(next)) visit(next);
  stack.pop();
  state.set(node, 'done');
}
for (const node of graph.keys()) visit(node);

// Server modules never import back into each other (issue 32): between two folders of server/modules/ the
// imports run one way, whatever the files (what must hear of another module is wired in server/services/).
const MODULE = /^server\/modules\/([^/]+)\//;
const moduleArrows = new Map<string, string>();
for (const [from, targets] of graph) {
  const source = MODULE.exec(from)?.[1];
  if (!source || TEST_FILE.test(from)) continue;
  for (const to of targets) {
    const target = MODULE.exec(to)?.[1];
    if (target && target !== source) moduleArrows.set(`${source} -> ${target}`, `${from} imports ${to}`);
  }
}
for (const [arrow, example] of moduleArrows) {
  const [source, target] = arrow.split(' -> ');
  const back = moduleArrows.get(`${target} -> ${source}`);
  if (back && source! < target!) problems.push(`modules import each other: ${example}; ${back}`);
}

if (problems.length > 0) {
  console.error(
    `Dependency rules broken (${problems.length}):\n${problems.map((p) => `  - ${p}`).join('\n')}`,
  );
  process.exit(1);
}
console.log(`Dependency rules: ${files.length} files checked, no violations, no cycles.`);
