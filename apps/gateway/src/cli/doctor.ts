import { paint } from "./color.ts";
import { type Command, connect, GATEWAY_OPTIONS, parse, URL_HELP } from "./command.ts";
import type { CheckGroup, DoctorCheck, DoctorReport } from "./doctor-check.ts";
import { type CliIo, EXIT, writeLine } from "./io.ts";

export type { CheckGroup, CheckStatus, DoctorCheck, DoctorReport } from "./doctor-check.ts";

const TITLES: Record<CheckGroup, string> = {
  setup: "Setup",
  config: "Configuration (this environment, as `ask-user start` reads it)",
  store: "Store",
  gateway: "Gateway",
};

/** The report for a person: the checks by group, one line each with ✓, ! or ✗, then a summary. */
export function formatReport(report: DoctorReport, color: boolean): string {
  const p = paint(color);
  const mark = { ok: p.green("✓"), warn: p.yellow("!"), fail: p.red("✗") };
  const lines: string[] = [];
  for (const group of Object.keys(TITLES) as CheckGroup[]) {
    const inGroup = report.checks.filter((item) => item.group === group);
    if (inGroup.length === 0) continue;
    lines.push(p.bold(group === "gateway" ? `${TITLES.gateway} at ${report.url}` : TITLES[group]));
    for (const item of inGroup) lines.push(`  ${mark[item.status]} ${item.message}`);
    lines.push("");
  }
  const count = (status: DoctorCheck["status"]) =>
    report.checks.filter((item) => item.status === status).length;
  const failed = count("fail");
  const warned = count("warn");
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (failed === 0 && warned === 0) lines.push(p.green("Everything looks right."));
  else if (failed === 0) lines.push(p.yellow(`No problems; ${plural(warned, "warning")} (!) above.`));
  else
    lines.push(
      p.red(
        `${plural(failed, "problem")} (✗)${warned > 0 ? ` and ${plural(warned, "warning")} (!)` : ""} above: each line says how to fix it.`,
      ),
    );
  return lines.join("\n");
}

/** `ask-user doctor`: what is wrong with this setup and how to fix it. */
export const doctorCommand: Command = {
  name: "doctor",
  summary: "check the setup (Node.js, configuration, store, the gateway) and say how to fix what is wrong",
  help: `Usage: ask-user doctor [options]

Checks, one line each (✓ fine, ! worth a look, ✗ a problem, with the fix in the line):
  Setup          Node.js, pnpm (in the repository), the build (gateway and web panel)
  Configuration  the ASK_USER_* and channel variables of this environment, read as \`ask-user start\`
                 reads them; every problem, and for each channel whether it is on and what turns it on
  Store          the SQLite folder and file (opened read-only), its lock (another gateway using it);
                 or Redis answering PING within 2 s when ASK_USER_REDIS_URL is set
  Gateway        the gateway at --url answering /healthz, the token accepted, each channel's state,
                 and the port a start would take
It changes nothing (the SQLite file is opened read-only; SQLite may leave its -wal/-shm files).
Exit code 0 when nothing failed (warnings allowed), 1 otherwise.

Options:
${URL_HELP}
  --json              print the checks as JSON: {"ok", "url", "checks": [{"id", "group", "status", "message"}]}
  -h, --help          show this help`,
  async run(args, context) {
    const { values } = parse(args, { ...GATEWAY_OPTIONS, json: { type: "boolean" } }, false);
    const url = connect(context, values.url).url;
    const { runDoctor } = await import("./doctor-run.ts");
    const report = await runDoctor(context.io.env, url);
    print(context.io, report, values.json === true);
    return report.ok ? EXIT.ok : EXIT.failed;
  },
};

function print(io: CliIo, report: DoctorReport, json: boolean): void {
  if (json) writeLine(io.stdout, JSON.stringify(report, null, 2));
  else writeLine(io.stdout, formatReport(report, io.color?.stdout === true));
}
