/** What a CLI run ended with: its exit status and everything it wrote to stdout and to stderr. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The streams a CLI's `main(argv, io)` writes to (admin/credentials-cli.ts, admin/policy.ts, seed/load.ts). */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/** Runs a CLI's `main` in-process, its stdout and stderr captured as strings. */
export async function runCli(
  main: (argv: readonly string[], io: CliIo) => Promise<number>,
  argv: readonly string[],
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}
