#!/usr/bin/env node
// `npm start`: build the console and the server when their sources are newer than the last
// build, then run the compiled server with plain `node` (it migrates the database and serves
// the console, the API and realtime). One command for a fresh clone, so nobody has to remember
// a separate build step; in the image (Dockerfile) both are built already and the sources are
// absent, so nothing is rebuilt.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, serverBuildDir } from './build-server.mjs';
import { serverNodeFlags } from './server-node-flags.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const builtIndex = join(root, 'dist', 'index.html');
const consoleSources = ['src', 'public', 'index.html', 'vite.config.ts', 'vite.chunks.ts', 'package-lock.json'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function consoleBuildIsStale() {
  if (!existsSync(builtIndex)) return true;
  const builtAt = statSync(builtIndex).mtimeMs;
  return consoleSources.some((source) => newestMtime(join(root, source)) > builtAt);
}

if (process.env.SKIP_CONSOLE_BUILD !== '1' && consoleBuildIsStale()) {
  console.log('Building the console (dist/)…');
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const build = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('The console build failed; see the messages above.');
    process.exit(build.status ?? 1);
  }
}

const serverMain = join(serverBuildDir, 'main.js');
const serverIsStale = () =>
  !existsSync(serverMain) || Math.max(newestMtime(join(root, 'server', 'src')), newestMtime(join(root, 'package-lock.json'))) > statSync(serverMain).mtimeMs;
if (process.env.SKIP_SERVER_BUILD !== '1' && serverIsStale()) {
  try {
    await buildServer();
  } catch (error) {
    console.error('The server build failed; see the messages above.');
    process.exit(1);
  }
}

// The server handles SIGTERM, SIGINT and SIGHUP itself (drains requests, closes websockets with
// a reconnect code, exits 0); this wrapper passes them on and exits with its code.
// V8's heap flags and why: scripts/server-node-flags.mjs.
//
// It also ends when whoever started it goes away without a word. `npm start` runs this script
// through `sh -c`: a SIGTERM to npm alone (a process manager, `kill <npm's pid>`) reaches the
// shell, which dies of it without passing it on, and this process would be left to init with
// the server and its ports. So the parent is watched (a new process.ppid means it is gone), and
// the server is linked to this process by an IPC channel: when this one ends, even by SIGKILL,
// the channel closes and the server stops as on SIGTERM (server/src/main.ts).
const parentAtStart = process.ppid;
const server = spawn(process.execPath, [...serverNodeFlags, serverMain], { cwd: root, stdio: ['inherit', 'inherit', 'inherit', 'ipc'] });
const stopServer = (signal) => {
  if (server.exitCode === null && server.signalCode === null) server.kill(signal);
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stopServer(signal));
const parentWatch = setInterval(() => {
  if (process.ppid === parentAtStart) return;
  clearInterval(parentWatch);
  console.error(`The process that started the server (pid ${parentAtStart}) is gone: stopping the server.`);
  stopServer('SIGTERM');
}, 500);
parentWatch.unref();
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
