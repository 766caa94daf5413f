import { createFakeSlack, type FakeSlack } from "@ask-user/testkit/slack";
import { afterEach, describe, expect, it } from "vitest";
import { call, deployInput, testGateway } from "./harness.ts";

const fakes: FakeSlack[] = [];
afterEach(async () => {
  for (const fake of fakes.splice(0)) await fake.close();
});

describe("the gateway with Slack (real Bolt in Socket Mode against the fake)", () => {
  it("a question asked over HTTP is answered by a Slack tap, and the message is updated to the summary", async () => {
    const slack = await createFakeSlack();
    fakes.push(slack);
    const gw = await testGateway({
      ASK_USER_ANSWERERS: "conversation", // a shared channel, no creator
      SLACK_BOT_TOKEN: slack.botToken,
      SLACK_APP_TOKEN: slack.appToken,
      SLACK_API_URL: slack.apiUrl,
    });
    expect(gw.channels.map((c) => c.describe)).toEqual([expect.stringContaining("slack")]);

    const created = await call(`${gw.url}/v1/questions`, "POST", {
      ...deployInput,
      target: "slack:C0GENERAL",
    });
    expect(created.status).toBe(201);
    const prompt = await slack.waitUntil(() =>
      slack.messages("C0GENERAL").find((m) => m.text.includes("Where should I deploy?")),
    );
    const alice = slack.user({ id: "U0ALICE", name: "alice" });
    await alice.press("C0GENERAL", prompt.ts, "Production");

    const polled = await call(`${gw.url}/v1/questions/${created.body.id}?wait=5`, "GET");
    expect(polled.body).toMatchObject({
      status: "answered",
      resolvedBy: { channel: "slack", userId: "U0ALICE" },
      result: { status: "answered", answers: { answers: { deploy_target: ["Production"] } } },
    });
    const updated = await slack.waitUntil(() => {
      const message = slack.message("C0GENERAL", prompt.ts);
      return message?.text.startsWith("✅") ? message : undefined;
    }, 5_000);
    expect(updated.text).toContain("✅ Deploy: Production");
    expect(JSON.stringify(updated.blocks)).not.toContain('"actions"');
  }, 30_000);
});
