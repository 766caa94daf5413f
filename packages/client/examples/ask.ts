import { createAskUserClient } from "@ask-user/client";

/** Asks where to deploy through a running gateway (`pnpm start`), then lists this run's questions. */
export async function askWhereToDeploy(url = process.env.ASK_USER_URL ?? "http://127.0.0.1:7310") {
  const client = createAskUserClient({ url, token: process.env.ASK_USER_TOKEN });
  const question = {
    id: "deploy_target",
    header: "Deploy",
    question: "Where should I deploy?",
    options: [{ label: "Staging (Recommended)" }, { label: "Production" }],
  };
  // Waits across gateway restarts; aborting (here after 10 minutes) cancels the question.
  const result = await client.ask(
    { questions: [question] },
    { runId: "example", signal: AbortSignal.timeout(600_000) },
  );
  for await (const page of client.list({ runId: "example" })) {
    for (const q of page.questions) console.log(q.id, q.status, q.resolvedBy?.displayName ?? "");
  }
  return result;
}

if (process.argv[1] === new URL(import.meta.url).pathname)
  console.log(JSON.stringify(await askWhereToDeploy()));
