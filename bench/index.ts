// `npm run bench` (the API: bench/run.ts), `npm run bench -- console` (the console: bench/console.ts)
// or `npm run bench -- floor` (the pinned stack's own weight and Lighthouse score: bench/floor.ts).
const target = process.argv[2] ?? 'api';

if (target === 'api') {
  const { runApiBench } = await import('./run.js');
  await runApiBench();
} else if (target === 'console') {
  const { runConsoleBench } = await import('./console.js');
  await runConsoleBench();
} else if (target === 'floor') {
  const { runFloorBench } = await import('./floor.js');
  await runFloorBench();
} else {
  console.error(`Unknown bench "${target}": npm run bench [-- api | console | floor]`);
  process.exitCode = 2;
}
export {};
