/** ANSI styles for a terminal, or plain text when colour is off. */
export interface Paint {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

/**
 * Whether to colour a stream: only a terminal, and never when `NO_COLOR` is set (to anything but the
 * empty string, per no-color.org) or `TERM=dumb`; `FORCE_COLOR` (not `0`) forces it on.
 */
export function colorEnabled(isTTY: boolean | undefined, env: Record<string, string | undefined>): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0") return true;
  return isTTY === true && env.TERM !== "dumb";
}

function style(on: boolean, open: number, close: number): (text: string) => string {
  return on ? (text) => `\x1b[${open}m${text}\x1b[${close}m` : (text) => text;
}

/** The styles, each a no-op when `on` is false. */
export function paint(on: boolean): Paint {
  return {
    bold: style(on, 1, 22),
    dim: style(on, 2, 22),
    red: style(on, 31, 39),
    green: style(on, 32, 39),
    yellow: style(on, 33, 39),
    cyan: style(on, 36, 39),
  };
}

/** A question status in its colour: pending yellow, answered green, the other endings dim. */
export function paintStatus(p: Paint, status: string): string {
  if (status === "pending") return p.yellow(status);
  if (status === "answered") return p.green(status);
  return p.dim(status);
}
