import { describe, expect, it } from "vitest";
import { fakeTerminal, KEY, runInTerminal } from "./cli-terminal.ts";
import { call, deployInput, testGateway, textWebhook } from "./harness.ts";

const threeQuestions = {
  questions: [
    deployInput.questions[0],
    {
      id: "regions",
      header: "Regions",
      question: "Which regions?",
      multiSelect: true,
      options: [{ label: "EU" }, { label: "US" }, { label: "Asia" }],
    },
    {
      id: "notes",
      header: "Notes",
      question: "Anything else?",
      options: [{ label: "Nothing" }, { label: "Later" }],
    },
  ],
};

describe("ask-user answer in a terminal", () => {
  it("picks questions one after another and answers with arrows, Space, Enter, Other… and Skip", async () => {
    const gw = await testGateway();
    const created = await call(`${gw.url}/v1/questions`, "POST", threeQuestions);
    expect(created.status).toBe(201);
    const first = created.body.id as string;
    const second = (await call(`${gw.url}/v1/questions`, "POST", deployInput)).body.id as string;
    const term = fakeTerminal();
    const running = runInTerminal(["answer"], term, { ASK_USER_URL: gw.url });

    await term.waitFor("2 questions wait for an answer. Which one?");
    await term.waitFor("Deploy +2: Where should I deploy?");
    await term.press(KEY.enter);
    await term.waitFor("Deploy (1/3): Where should I deploy?");
    await term.waitFor("Staging (Recommended)");
    await term.press(KEY.down, KEY.enter);
    await term.waitFor("Regions (2/3): Which regions?");
    await term.press(KEY.space, KEY.down, KEY.down, KEY.space, KEY.enter);
    await term.waitFor("Notes (3/3): Anything else?");
    await term.press(KEY.down, KEY.down, KEY.enter); // Other…
    await term.waitFor("Notes: your answer");
    await term.press(..."ship it", KEY.enter);
    await term.waitFor("Answered Deploy: Production · Regions: EU, Asia · Notes: ship it");

    // The one left comes next by itself; Skip is the last choice.
    await term.waitFor("Deploy: Where should I deploy?");
    await term.press(KEY.down, KEY.down, KEY.down, KEY.enter);
    await term.waitFor("Skipped Deploy: the agent gets no answer.");
    await term.waitFor("No more pending questions.");
    expect((await running).code).toBe(0);

    const answered = (await call(`${gw.url}/v1/questions/${first}`, "GET")).body;
    expect(answered).toMatchObject({
      status: "answered",
      answers: { deploy_target: ["Production"], regions: ["EU", "Asia"], notes: ["ship it"] },
      resolvedBy: { channel: "cli" },
    });
    expect((await call(`${gw.url}/v1/questions/${second}`, "GET")).body).toMatchObject({
      status: "skipped",
      resolvedBy: { channel: "cli" },
    });
  }, 20_000);

  it("preselects what was already picked in the chat (the shared draft)", async () => {
    const gw = await testGateway({ ASK_USER_TEXT_WEBHOOK_URL: (await textWebhook()).url });
    const input = { questions: threeQuestions.questions.slice(0, 2) };
    const { id } = (await call(`${gw.url}/v1/questions`, "POST", { ...input, target: "text:alice" })).body;
    // Alice answers the first question in the chat; the text stepper keeps it as the draft.
    await call(`${gw.url}/v1/channels/text/inbound`, "POST", {
      conversation: "alice",
      userId: "alice",
      text: "1: 2",
      replyTo: "m1",
    });
    expect((await call(`${gw.url}/v1/questions/${id}`, "GET")).body.draft).toEqual({
      deploy_target: ["Production"],
    });
    const term = fakeTerminal();
    const running = runInTerminal(["answer", id], term, { ASK_USER_URL: gw.url });
    await term.waitFor("Deploy (1/2): Where should I deploy?");
    await term.waitFor("● Production");
    await term.press(KEY.enter); // keeps the preselected Production
    await term.waitFor("Regions (2/2): Which regions?");
    await term.press(KEY.down, KEY.space, KEY.enter);
    await term.waitFor("Answered Deploy: Production · Regions: US");
    expect((await running).code).toBe(0);
  }, 20_000);

  it("stops on Esc without sending anything, and says so", async () => {
    const gw = await testGateway();
    const { id } = (await call(`${gw.url}/v1/questions`, "POST", deployInput)).body;
    const term = fakeTerminal();
    const running = runInTerminal(["answer"], term, { ASK_USER_URL: gw.url });
    await term.waitFor("Deploy: Where should I deploy?");
    await term.press(KEY.down, KEY.escape);
    await term.waitFor(`Stopped; nothing was sent for question ${id}.`);
    expect((await running).code).toBe(130);
    expect((await call(`${gw.url}/v1/questions/${id}`, "GET")).body.status).toBe("pending");
  });

  it("says when nothing waits, and when the question it was given has ended", async () => {
    const gw = await testGateway();
    const term = fakeTerminal();
    expect((await runInTerminal(["answer"], term, { ASK_USER_URL: gw.url })).code).toBe(0);
    await term.waitFor("No pending questions.");
    const { id } = (await call(`${gw.url}/v1/questions`, "POST", deployInput)).body;
    await call(`${gw.url}/v1/questions/${id}`, "DELETE");
    expect((await runInTerminal(["answer", id], term, { ASK_USER_URL: gw.url })).code).toBe(1);
    await term.waitFor(`Question ${id} is cancelled: nothing to answer.`);
    const unknown = await runInTerminal(["answer", "nope"], term, { ASK_USER_URL: gw.url });
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringContaining("no question with id nope") });
  });
});
