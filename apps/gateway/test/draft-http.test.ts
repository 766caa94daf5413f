import { createAskUserClient, type GatewayEvent } from "@ask-user/client";
import { createFakeClock } from "@ask-user/core/testing";
import { describe, expect, it } from "vitest";
import { call, testGateway } from "./harness.ts";

const plan = {
  questions: [
    {
      id: "environment",
      header: "Environment",
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
  ],
};

async function create(url: string): Promise<string> {
  const { status, body } = await call(`${url}/v1/questions`, "POST", plan);
  expect(status).toBe(201);
  return body.id as string;
}

describe("PUT /v1/questions/:id/draft", () => {
  it("stages one question's values in the shared draft (200), merged, canonical, and never answers", async () => {
    const gw = await testGateway();
    const id = await create(gw.url);
    const url = `${gw.url}/v1/questions/${id}/draft`;
    const first = await call(url, "PUT", { question: "environment", values: ["production"], surface: "web" });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id, status: "pending", draft: { environment: ["Production"] } });
    const second = await call(url, "PUT", { question: "regions", values: ["Asia", "eu"] });
    expect(second.body.draft).toEqual({ environment: ["Production"], regions: ["EU", "Asia"] });
    // Every question has a value: still pending until someone sends.
    const read = await call(`${gw.url}/v1/questions/${id}`, "GET");
    expect(read.body).toMatchObject({ status: "pending", draft: { regions: ["EU", "Asia"] } });
    expect(read.body.answers).toBeUndefined();
    const cleared = await call(url, "PUT", { question: "environment", values: [] });
    expect(cleared.body.draft).toEqual({ regions: ["EU", "Asia"] });
  });

  it("answers 404 for an unknown question, 422 with issues for bad bodies and values", async () => {
    const gw = await testGateway();
    const id = await create(gw.url);
    const url = `${gw.url}/v1/questions/${id}/draft`;
    const unknown = `${gw.url}/v1/questions/nope/draft`;
    expect((await call(unknown, "PUT", { question: "environment", values: ["EU"] })).status).toBe(404);
    expect((await call(unknown, "PUT", {})).status).toBe(404);

    const cases: Array<[unknown, string, RegExp]> = [
      [{ values: ["EU"] }, "question", /question is required/],
      [{ question: "regions" }, "values", /values is required/],
      [{ question: "regions", values: ["EU"], colour: "red" }, "colour", /Unknown field "colour"/],
      [{ question: "region", values: ["EU"] }, "question", /the questions are: environment, regions/],
      [{ question: "environment", values: ["Productoin"] }, "values[0]", /did you mean "Production"/],
      [{ question: "environment", values: ["Staging", "Production"] }, "values", /one answer/],
      [{ question: "regions", values: [1] }, "values[0]", /string/],
    ];
    for (const [body, path, message] of cases) {
      const response = await call(url, "PUT", body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.error.code).toBe("invalid_draft");
      const issue = (response.body.error.issues as { path: string; message: string }[]).find(
        (i) => i.path === path,
      );
      expect(issue?.message, JSON.stringify(body)).toMatch(message);
    }
    expect((await call(`${gw.url}/v1/questions/${id}`, "GET")).body.draft).toBeUndefined();
    // A state-changing request: JSON only, and never from another site's page.
    expect((await call(url, "PUT", "question=regions")).status).toBe(400);
    const foreign = await call(
      url,
      "PUT",
      { question: "regions", values: ["EU"] },
      {
        origin: "https://evil.example",
      },
    );
    expect(foreign.status).toBe(403);
  });

  it("answers 409 with the reason once the question ended, or when it is past its deadline", async () => {
    const clock = createFakeClock(Date.now());
    const gw = await testGateway({}, { clock });
    const id = await create(gw.url);
    await call(`${gw.url}/v1/questions/${id}/answer`, "POST", {
      answers: { environment: "Staging", regions: ["US"] },
      name: "@alice",
    });
    const late = await call(`${gw.url}/v1/questions/${id}/draft`, "PUT", {
      question: "regions",
      values: ["EU"],
    });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({ code: "answered", message: expect.stringContaining("@alice") });

    const overdue = await create(gw.url);
    const { expiresAt } = (await call(`${gw.url}/v1/questions/${overdue}`, "GET")).body;
    clock.jump(expiresAt - clock.now()); // the deadline passed; no timer has fired yet
    const expired = await call(`${gw.url}/v1/questions/${overdue}/draft`, "PUT", {
      question: "regions",
      values: ["EU"],
    });
    expect(expired.status).toBe(409);
    expect(expired.body.error.code).toBe("expired");
    expect((await call(`${gw.url}/v1/questions/${overdue}`, "GET")).body.status).toBe("expired");
  });

  it("tells every open event stream (question.updated with the draft), staged through the client", async () => {
    const gw = await testGateway();
    const client = createAskUserClient({ url: gw.url, surface: "cli", name: "bob" });
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), 10_000);
    const seen: GatewayEvent[] = [];
    const events = client.events({ signal: abort.signal });
    let id = "";
    try {
      const created = create(gw.url).then((value) => {
        id = value;
      });
      for await (const event of events) {
        seen.push(event);
        if (event.type === "question.requested") {
          await created;
          const staged = await client.stage(id, "regions", ["US"]);
          expect(staged.draft).toEqual({ regions: ["US"] });
        }
        if (event.type === "question.updated") break;
      }
    } finally {
      clearTimeout(timer);
      abort.abort();
    }
    const updated = seen.at(-1);
    expect(updated).toMatchObject({ type: "question.updated", question: { id, draft: { regions: ["US"] } } });
  });
});
