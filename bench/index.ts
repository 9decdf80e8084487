// `npm run bench` (the API: bench/run.ts) or `npm run bench -- console` (the console: bench/console.ts).
const target = process.argv[2] ?? 'api';

if (target === 'api') {
  const { runApiBench } = await import('./run.js');
  await runApiBench();
} else if (target === 'console') {
  const { runConsoleBench } = await import('./console.js');
  await runConsoleBench();
} else {
  console.error(`Unknown bench "${target}": npm run bench [-- api | console]`);
  process.exitCode = 2;
}
export {};
