/**
 * The report: every line goes to stdout as it comes and is kept, so that a full run can write it to
 * `results/latest.txt` at the end.
 */
const lines: string[] = [];

/** Prints one line (or several, joined by newlines) of the report. */
export function print(line = ""): void {
  console.log(line);
  lines.push(line);
}

/** Everything printed so far. */
export function printed(): string {
  return `${lines.join("\n")}\n`;
}
