/** One finding of `ask-user doctor`: passed, worth a look, or failed. */
export type CheckStatus = "ok" | "warn" | "fail";

/** What `ask-user doctor` looked at, in the order it prints them. */
export type CheckGroup = "setup" | "config" | "store" | "gateway";

/** One line of `ask-user doctor`; `--json` prints these as they are. */
export interface DoctorCheck {
  /** Stable for scripts: `node`, `config`, `channel.telegram`, `store.lock`, `gateway.token`, … */
  id: string;
  group: CheckGroup;
  status: CheckStatus;
  /** One line for a person: what was found and, when it is not ok, how to fix it. */
  message: string;
}

/** What `ask-user doctor --json` prints. */
export interface DoctorReport {
  /** False when any check failed (the exit code is then 1); warnings leave it true. */
  ok: boolean;
  /** The gateway that was checked. */
  url: string;
  checks: DoctorCheck[];
}

/** A check of `group`. */
export function check(group: CheckGroup, id: string, status: CheckStatus, message: string): DoctorCheck {
  return { id, group, status, message };
}

/** The system error code of a failure (`ECONNREFUSED`, `EACCES`, `SQLITE_NOTADB`), if it has one. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** An error's message, for a line. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
