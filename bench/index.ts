// `npm run bench` (the API: bench/run.ts, then the lifecycle pass), `npm run bench -- console`
// (the console: bench/console.ts), `npm run bench -- floor` (the pinned stack's own weight and
// Lighthouse score: bench/floor.ts), `npm run bench -- lifecycle` (only the lifecycle pass when
// nothing is due: bench/lifecycle.ts), `npm run bench -- usage` (usage accounting and its
// reads at scale: bench/usage.ts) or `npm run bench -- hooks` (what each of the app's
// per-request parts costs: bench/hooks.ts).
const target = process.argv[2] ?? 'api';

if (target === 'api') {
  const { runApiBench } = await import('./run.js');
  await runApiBench();
  // On a database of its own, after the API's: BENCH_LIFECYCLE=0 leaves it out.
  if (process.env.BENCH_LIFECYCLE !== '0') {
    const { runLifecycleBench } = await import('./lifecycle.js');
    await runLifecycleBench();
  }
} else if (target === 'console') {
  const { runConsoleBench } = await import('./console.js');
  await runConsoleBench();
} else if (target === 'lifecycle') {
  const { runLifecycleBench } = await import('./lifecycle.js');
  const { goal } = await runLifecycleBench();
  if (!goal.pass) process.exitCode = 1;
} else if (target === 'usage') {
  const { runUsageBench } = await import('./usage.js');
  const { goals } = await runUsageBench();
  if (goals.some((goal) => !goal.pass)) process.exitCode = 1;
} else if (target === 'hooks') {
  const { runHooksBench } = await import('./hooks.js');
  await runHooksBench();
} else if (target === 'floor') {
  const { runFloorBench } = await import('./floor.js');
  await runFloorBench();
} else {
  console.error(`Unknown bench "${target}": npm run bench [-- api | console | floor | lifecycle | usage | hooks]`);
  process.exitCode = 2;
}
export {};
