#!/usr/bin/env node
// The server's layering rule (docs/architecture.md, "Layers"), run by `npm run lint`:
//   1. the base layers (db, config, http, i18n, logging and the root helpers) import no domain;
//   2. no loop between server/src folders through runtime imports.
// Type-only imports may cross: they vanish at run time. Imports are read by dependency-cruiser.
// Edges that break a rule today are listed, each with where it goes, in
// server/layering-debt.json; a new one fails, and so does a listed one that is gone (take it
// off the list), so the list only shrinks.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const debtFile = join(root, 'server', 'layering-debt.json');

/** Folders (and root files) that the domains build on, and that must not build on a domain. */
const BASE = new Set(['db', 'config', 'http', 'i18n', 'logging', 'html.ts', 'background.ts', 'context.ts']);
/** Composition roots: they wire everything together and nothing imports them. */
const ROOTS = new Set(['app.ts', 'main.ts', 'cli.ts']);

/** `server/src/teams/access.ts` → `teams`; `server/src/main.ts` → `main.ts`. */
function unitOf(path) {
  const rest = path.replace(/^server\/src\//, '');
  return rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : rest;
}

export async function folderGraph() {
  const result = await cruise(['server/src'], {
    includeOnly: '^server/src',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
  }, undefined, { tsConfig: { fileName: join(root, 'tsconfig.base.json') } });
  const edges = new Map(); // "from -> to" → an example import, for the message
  for (const module of result.output.modules) {
    const from = unitOf(module.source);
    for (const dependency of module.dependencies) {
      if (!dependency.resolved.startsWith('server/src/')) continue;
      if (dependency.dependencyTypes.includes('type-only') || dependency.typeOnly) continue;
      const to = unitOf(dependency.resolved);
      if (to === from) continue;
      const key = `${from} -> ${to}`;
      if (!edges.has(key)) edges.set(key, `${module.source} imports ${dependency.resolved}`);
    }
  }
  return edges;
}

/** Tarjan's strongly connected components of the folder graph, those of two or more folders. */
function loops(edges) {
  const next = new Map();
  for (const key of edges.keys()) {
    const [from, to] = key.split(' -> ');
    if (ROOTS.has(from)) continue;
    if (!next.has(from)) next.set(from, []);
    next.get(from).push(to);
    if (!next.has(to)) next.set(to, []);
  }
  let index = 0;
  const indices = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const visit = (node) => {
    indices.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node)) {
      if (!indices.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node), low.get(target)));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node), indices.get(target)));
    }
    if (low.get(node) === indices.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(new Set(component));
    }
  };
  for (const node of next.keys()) if (!indices.has(node)) visit(node);
  return components;
}

/** Every edge that breaks a rule: a base layer importing a domain, or an edge inside a loop. */
export function offendingEdges(edges) {
  const offending = new Map();
  const components = loops(edges);
  for (const [key, example] of edges) {
    const [from, to] = key.split(' -> ');
    if (ROOTS.has(from)) continue;
    if (BASE.has(from) && !BASE.has(to)) offending.set(key, `base layer imports a domain: ${example}`);
    else if (components.some((component) => component.has(from) && component.has(to))) offending.set(key, `folder loop: ${example}`);
  }
  return offending;
}

const edges = await folderGraph();
const offending = offendingEdges(edges);
if (process.argv.includes('--write-debt')) {
  writeFileSync(debtFile, `${JSON.stringify(Object.fromEntries([...offending].sort()), null, 2)}\n`);
  console.log(`layering: ${offending.size} edges written to ${debtFile}`);
  process.exit(0);
}
const debt = JSON.parse(readFileSync(debtFile, 'utf8'));
const added = [...offending].filter(([key]) => !(key in debt));
const gone = Object.keys(debt).filter((key) => !offending.has(key));
for (const [key, why] of added) console.error(`layering: new ${key} (${why})`);
for (const key of gone) console.error(`layering: ${key} no longer breaks the rule; take it off server/layering-debt.json`);
if (added.length || gone.length) process.exit(1);
console.log(`layering: no new edge against the rule (${Object.keys(debt).length} known ones left in server/layering-debt.json)`);
