import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { askWhereToDeploy } from "../examples/ask.ts";
import { createAskUserClient } from "../src/index.ts";
import { inProcessGateway, until } from "./gateways.ts";

const read = (path: string) => readFileSync(new URL(path, import.meta.url), "utf8");

describe("the README example", () => {
  it("is examples/ask.ts, word for word", () => {
    expect(read("../README.md")).toContain(["```ts", read("../examples/ask.ts").trimEnd(), "```"].join("\n"));
  });

  it("runs against a gateway and returns the answer a person gives", async () => {
    const gateway = await inProcessGateway();
    const person = createAskUserClient({ url: gateway.url, name: "alice" });
    const asking = askWhereToDeploy(gateway.url);
    const pending = await until(async () => (await person.listPage({ runId: "example" })).questions[0]);
    await person.answer(pending.id, { deploy_target: ["Production"] });
    expect(await asking).toEqual({
      status: "answered",
      answers: { answers: { deploy_target: ["Production"] } },
    });
  });
});
