/** Everything written to stdout and stderr while `run` runs (Powertools' logger writes JSON lines to both). */
export async function capturedOutput(run: () => Promise<unknown>): Promise<string> {
  const written: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  };
  const out = jest.spyOn(process.stdout, 'write').mockImplementation(capture);
  const err = jest.spyOn(process.stderr, 'write').mockImplementation(capture);
  try {
    await run();
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return written.join('');
}
