// `npm run bench -- console`: not written yet (issue 14).
export async function runConsoleBench(): Promise<void> {
  throw new Error('npm run bench -- console is not written yet');
}
