import { describe, expect, it } from "vitest";
import { fakeTerminal, KEY, runInTerminal } from "./cli-terminal.ts";
import { call, testGateway } from "./harness.ts";

const plan = {
  questions: [
    {
      id: "environment",
      header: "Env",
      question: "Which environment first?",
      options: [{ label: "Staging (Recommended)" }, { label: "Production" }],
    },
    {
      id: "regions",
      header: "Regions",
      question: "Which regions?",
      options: [{ label: "EU" }, { label: "US" }, { label: "Asia" }],
      multiSelect: true,
    },
    {
      id: "notes",
      header: "Notes",
      question: "Anything else?",
      options: [{ label: "Nothing" }, { label: "Later" }],
    },
  ],
};

/** Polls the question's draft every 25 ms until it equals `expected` (at most 5 s). */
async function draftBecomes(url: string, id: string, expected: unknown): Promise<void> {
  let draft: unknown;
  for (let i = 0; i < 200; i++) {
    draft = (await call(`${url}/v1/questions/${id}`, "GET")).body.draft;
    if (JSON.stringify(draft) === JSON.stringify(expected)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  expect(draft).toEqual(expected);
}

describe("ask-user answer stages into the shared draft", () => {
  it("stages each choice as it is made, so a panel or chat sees it, and Esc later keeps it", async () => {
    const gw = await testGateway();
    const { id } = (await call(`${gw.url}/v1/questions`, "POST", plan)).body;
    const term = fakeTerminal();
    const running = runInTerminal(["answer", id], term, { ASK_USER_URL: gw.url });
    await term.waitFor("Env (1/3): Which environment first?");
    await term.press(KEY.down, KEY.enter);
    await term.waitFor("Regions (2/3): Which regions?");
    await draftBecomes(gw.url, id, { environment: ["Production"] });
    // Own words that look like a misspelt label are staged as typed (Other… marks them).
    await term.press(KEY.space, KEY.down, KEY.down, KEY.down, KEY.space, KEY.enter);
    await term.waitFor("Regions: your answer");
    await term.press(..."Asai", KEY.enter);
    await term.waitFor("Notes (3/3): Anything else?");
    await draftBecomes(gw.url, id, { environment: ["Production"], regions: ["EU", "Asai"] });
    await term.press(KEY.escape);
    await term.waitFor(`Stopped; question ${id} is not answered (what you chose stays in its draft).`);
    expect((await running).code).toBe(130);
    expect((await call(`${gw.url}/v1/questions/${id}`, "GET")).body).toMatchObject({
      status: "pending",
      draft: { environment: ["Production"], regions: ["EU", "Asai"] },
    });

    // The next `ask-user answer` starts from that draft and sends it with the last choice.
    const again = fakeTerminal();
    const second = runInTerminal(["answer", id], again, { ASK_USER_URL: gw.url });
    await again.waitFor("● Production");
    await again.press(KEY.enter);
    await again.waitFor("Regions (2/3)");
    await again.press(KEY.enter);
    await again.waitFor("Regions: your answer");
    await again.press(KEY.enter); // the staged own answer is the field's text
    await again.waitFor("Notes (3/3)");
    await again.press(KEY.enter);
    await again.waitFor("Answered Env: Production · Regions: EU, Asai · Notes: Nothing");
    expect((await second).code).toBe(0);
  }, 30_000);

  it("says so and sends nothing more when the question ended elsewhere while it was being filled", async () => {
    const gw = await testGateway();
    const { id } = (await call(`${gw.url}/v1/questions`, "POST", plan)).body;
    const term = fakeTerminal();
    const running = runInTerminal(["answer", id], term, { ASK_USER_URL: gw.url });
    await term.waitFor("Env (1/3): Which environment first?");
    await call(`${gw.url}/v1/questions/${id}/skip`, "POST", { name: "@alice" });
    await term.press(KEY.enter);
    await term.waitFor("This question was skipped");
    await term.waitFor(`Question ${id} is skipped: nothing to answer.`);
    expect((await running).code).toBe(1);
  }, 20_000);
});
