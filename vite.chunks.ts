import { fileURLToPath } from 'node:url';
import type { build as viteBuild, Rolldown } from 'vite';

/**
 * How the console's code is cut into files.
 *
 * Left to itself, the bundler cuts code by the set of screens that use it, and the console's
 * first screen came in 34 files, many of 1 to 3 kB (`Chip`, `ListItem`, `Add`…): each shared
 * by the console's start and some later page. A phone on HTTP/1.1 fetches six files at a time,
 * so each round of six waits for a round trip; on Lighthouse's mobile preset the home's largest
 * paint came half a second later than with the same code in a few files (docs/benchmarks.md).
 *
 * But a file that a logged-out screen needs too must stay apart from the console's: a person
 * registering would otherwise load the whole console. Which modules are the console's alone
 * cannot be told from the module graph before bundling (MUI's and react-admin's barrel files
 * make every module look reachable from everywhere); it can from the files a first bundling
 * makes. So the build bundles twice: first as the bundler would (nothing written), then with
 * the files that only the console's start loads merged into one, `console`, and those it
 * shares with a logged-out screen opened later (not `/login`) into another, `console-shared`.
 *
 * The second bundling keeps the files `/login` loads as they were, by giving each of their
 * modules a group of that file's name, ranked above the two: the bundler adds a group's
 * dependencies to the group, and the files a logged-out screen loads must not be pulled in.
 * The entry file's modules (the session, the settings request) join `login`, which both bundles
 * load, for the same reason.
 */

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const ENTRY = source('src/main.tsx');
const LOGGED_OUT_APP = source('src/pages/auth/LoggedOutApp.tsx');
/** The console's modules loaded at its start when a session is stored (src/main.tsx). */
const CONSOLE_STARTS = new Set([source('src/App.tsx'), source('src/ConsoleUI.tsx')]);
/**
 * Vendor chunks that change rarely, cached across console releases, whatever the plan: React
 * (both bundles load it in full) and realtime (loaded once a console screen has shown).
 */
export const VENDOR_GROUPS = [
  { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 30 },
  { name: 'realtime', test: /[\\/]node_modules[\\/](laravel-echo|pusher-js)[\\/]/, priority: 10 },
];
const OWN_CHUNKS = new Set(VENDOR_GROUPS.map((group) => group.name));

export interface ChunkPlan {
  /** Modules of the first bundling's entry file, but the entry itself: into `login`. */
  entry: Set<string>;
  /** Modules of files the console's start and `/login` both load: each stays in its file. */
  kept: Map<string, string>;
  /** Modules of files the console's start and a later logged-out screen load: into `console-shared`. */
  consoleShared: Set<string>;
  /** Modules of files only the console's start loads: into `console`. */
  console: Set<string>;
}

type Chunk = Rolldown.OutputChunk;

/** The chunks reached from `starts` by static imports, and dynamic ones with `dynamic`, not entering `skip`. */
const reach = (byFile: Map<string, Chunk>, starts: Chunk[], dynamic: boolean, skip: Set<Chunk> = new Set()): Set<Chunk> => {
  const seen = new Set<Chunk>();
  const stack = [...starts];
  while (stack.length > 0) {
    const chunk = stack.pop()!;
    if (seen.has(chunk) || skip.has(chunk)) continue;
    seen.add(chunk);
    for (const file of [...chunk.imports, ...(dynamic ? chunk.dynamicImports : [])]) {
      const next = byFile.get(file);
      if (next) stack.push(next);
    }
  }
  return seen;
};

/** The plan, from the files of a bundling without it. */
export const planFrom = (chunks: Chunk[]): ChunkPlan => {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  // (The entry file's facade is index.html, which loads src/main.tsx.)
  const entry = chunks.find((chunk) => chunk.isEntry && chunk.moduleIds.includes(ENTRY));
  const consoleChunks = chunks.filter((chunk) => chunk.facadeModuleId !== null && CONSOLE_STARTS.has(chunk.facadeModuleId));
  if (!entry || consoleChunks.length !== CONSOLE_STARTS.size) throw new Error('vite.chunks.ts: the entry or the console\'s start is not where the plan expects it');
  const consoleStart = reach(byFile, consoleChunks, false);
  // What /login loads: the entry and the logged-out bundle, without its lazy screens.
  const loggedOutApp = chunks.find((chunk) => chunk.facadeModuleId === LOGGED_OUT_APP);
  if (!loggedOutApp) throw new Error('vite.chunks.ts: the logged-out bundle is not where the plan expects it');
  const loggedOutStart = reach(byFile, [entry, loggedOutApp], false);
  // Everything the logged-out bundle may load: its start and its lazy screens, not the console.
  const loggedOut = reach(byFile, [entry], true, new Set(consoleChunks));
  const plan: ChunkPlan = { entry: new Set(), kept: new Map(), consoleShared: new Set(), console: new Set() };
  for (const chunk of consoleStart) {
    if (OWN_CHUNKS.has(chunk.name)) continue;
    if (chunk === entry) {
      for (const id of chunk.moduleIds) if (id !== ENTRY && id !== chunk.facadeModuleId) plan.entry.add(id);
    } else if (!loggedOut.has(chunk)) {
      for (const id of chunk.moduleIds) plan.console.add(id);
    } else if (loggedOutStart.has(chunk)) {
      for (const id of chunk.moduleIds) plan.kept.set(id, chunk.name);
    } else {
      for (const id of chunk.moduleIds) plan.consoleShared.add(id);
    }
  }
  return plan;
};

/** Set while the first bundling runs: it loads this same config, which must not plan again. */
const PLANNING = 'TESTBED_CHUNK_PLANNING';

/**
 * The plan for this build, from a first bundling of the same config (nothing written); none
 * when this is that first bundling.
 */
export const planChunks = async (build: typeof viteBuild, configFile: string): Promise<ChunkPlan | null> => {
  if (process.env[PLANNING]) return null;
  process.env[PLANNING] = '1';
  try {
    const result = await build({ configFile, logLevel: 'silent', build: { write: false } });
    const outputs = Array.isArray(result) ? result : [result];
    const chunks = outputs.flatMap((output) => ('output' in output ? output.output : [])).filter((item): item is Chunk => item.type === 'chunk');
    return planFrom(chunks);
  } finally {
    delete process.env[PLANNING];
  }
};

/** The code splitting groups that carry out a plan, ranked below `priority`. */
export const planGroups = (plan: ChunkPlan | null, priority: number) =>
  plan
    ? [
        { name: (id: string) => plan.kept.get(id) ?? null, debugName: 'kept', priority: priority - 1 },
        { name: (id: string) => (plan.consoleShared.has(id) ? 'console-shared' : null), debugName: 'console-shared', priority: priority - 2 },
        { name: (id: string) => (plan.console.has(id) ? 'console' : null), debugName: 'console', priority: priority - 3 },
      ]
    : [];
