// The V8 flags the server runs with, wherever it runs: `npm start` (scripts/start.mjs), the
// benchmarks that stand in for it (bench/), and the image (the Dockerfile's CMD repeats them;
// server/test/deploy.test.ts fails when the two differ).
//
// --max-semi-space-size=2 (MB): V8's young generation otherwise grows to 16 MB per semi-space and
// stays committed, some 30 MB of an idle server's memory; at 2 MB the bench measured no change
// in CPU per request (the idle RSS goal of docs/benchmarks.md).
// --max-old-space-size=1024 (MB): with a heap limit under 2 GB, V8 lets the old generation grow
// to about 1.6 times what is live before a full collection, instead of up to 4 times with the
// default limit (2-4 GB on most machines). Garbage that outlives the small young generation (a
// CSV export's rows, read in batches while the client drains them) is then collected within a
// few MB instead of after 20-90 MB (the goal: < 50 MB during the export of 100,000 users). The
// requests that allocate most (the admin users page, the export) pay 13-19% more CPU for the
// extra full collections, the member's requests nothing measurable; at 384 MB the export cost
// 45% more (docs/benchmarks.md). No request of the server comes near the limit.
export const serverNodeFlags = ['--enable-source-maps', '--max-semi-space-size=2', '--max-old-space-size=1024'];
