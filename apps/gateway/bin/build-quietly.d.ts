/** See build-quietly.js. */
export function buildQuietly(
  command: string,
  args: readonly string[],
  options?: {
    cwd?: string;
    stderr?: { write(text: string): unknown };
    firstStart?: boolean;
    slowMs?: number;
  },
): Promise<number>;
