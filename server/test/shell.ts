import { spawn } from 'node:child_process';

export interface ShellRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `command` with sh -c asynchronously (so a server in this process keeps answering the
 * script), with `env` over this process's environment; killed after a minute.
 */
export function runShell(command: string, env: Record<string, string>, onStdout?: (stdoutSoFar: string) => void): Promise<ShellRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      onStdout?.(stdout);
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
