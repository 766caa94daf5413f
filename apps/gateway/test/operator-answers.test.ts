import { describe, expect, it } from "vitest";
import { call, deployInput, testGateway } from "./harness.ts";

describe("operator answers over HTTP", () => {
  it("refuses a misspelt label with 'did you mean', and takes it as free text when marked other:", async () => {
    const gw = await testGateway();
    const { body } = await call(`${gw.url}/v1/questions`, "POST", deployInput);
    const typo = await call(`${gw.url}/v1/questions/${body.id}/answer`, "POST", {
      answers: { deploy_target: ["Prodution"] },
    });
    expect(typo.status).toBe(422);
    expect(typo.body.error.issues).toEqual([
      {
        path: "answers.deploy_target[0]",
        message:
          '"Prodution" is not an option of Deploy: did you mean "Production"? To give it as your own answer, send "other: Prodution".',
      },
    ]);
    expect((await call(`${gw.url}/v1/questions/${body.id}`, "GET")).body.status).toBe("pending");
    const marked = await call(`${gw.url}/v1/questions/${body.id}/answer`, "POST", {
      answers: { deploy_target: ["other: Prodution"] },
    });
    expect(marked.body.result).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Prodution"] } },
    });
  });
});

describe("create: every problem at once", () => {
  it("lists an unknown top-level field together with every problem in the questions", async () => {
    const gw = await testGateway();
    const bad = await call(`${gw.url}/v1/questions`, "POST", {
      timeout: 60,
      questions: [{ id: "Deploy", header: "Deploy", question: "", options: [{ label: "A" }] }],
    });
    expect(bad.status).toBe(422);
    const paths = bad.body.error.issues.map((i: { path: string }) => i.path);
    expect(paths[0]).toBe("timeout");
    expect(bad.body.error.issues[0].message).toContain('Did you mean "timeoutSeconds"?');
    expect(paths).toEqual(
      expect.arrayContaining(["questions[0].id", "questions[0].question", "questions[0].options"]),
    );
    expect((await call(`${gw.url}/v1/questions`, "GET")).body.questions).toEqual([]);
  });
});
