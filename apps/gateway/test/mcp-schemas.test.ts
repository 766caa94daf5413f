import {
  type AskUserResult,
  askUserTool,
  createAskUser,
  createMemoryStore,
  InvalidAskUserInputError,
  normalizeAskUserInput,
} from "@ask-user/core";
import { createFakeClock } from "@ask-user/core/testing";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { afterEach, describe, expect, it } from "vitest";
import { askUserMcpTool } from "../src/mcp/tool.ts";

// The validator an MCP client runs on the tool's schemas (the SDK's Client checks structuredContent
// against outputSchema with it).
const validator = new AjvJsonSchemaValidator();
const tool = askUserMcpTool();
const validResult = validator.getValidator(tool.outputSchema as never);
const validInput = validator.getValidator(tool.inputSchema as never);

const silent = { warn: () => {}, error: () => {} };
const brokers: Array<ReturnType<typeof createAskUser>> = [];
afterEach(async () => {
  for (const broker of brokers.splice(0)) await broker.close();
});

const input = {
  questions: [
    {
      id: "deploy_target",
      header: "Deploy",
      question: "Where should I deploy?",
      options: [{ label: "Staging (Recommended)" }, { label: "Production" }],
    },
  ],
  timeoutSeconds: 60,
};
const operator = { channel: "http", userId: "alice" };

/** One real result of each kind, from a broker on the memory store. */
async function realResults(): Promise<Record<string, AskUserResult>> {
  const clock = createFakeClock(Date.UTC(2026, 0, 5, 9));
  const broker = createAskUser({ store: createMemoryStore(), channels: [], clock, logger: silent });
  brokers.push(broker);
  const ended = async (end: (id: string) => Promise<unknown>) => {
    const record = await broker.create(input);
    await end(record.id);
    return broker.wait(record.id);
  };
  const answered = await ended((id) => broker.answer(id, { deploy_target: ["production"] }, operator));
  const skipped = await ended((id) => broker.skip(id, operator));
  const cancelled = await ended((id) => broker.cancel(id));
  const undeliverable = await broker.ask(input, { target: { channel: "pager", conversation: "7" } });
  const expiring = await broker.create(input);
  await clock.advance(61_000);
  const expired = await broker.wait(expiring.id);
  return { answered, skipped, cancelled, expired, undeliverable };
}

describe("the MCP tool's outputSchema, generated from askUserResultSchema", () => {
  it("accepts every real result the broker gives (answered, skipped, expired, cancelled, undeliverable)", async () => {
    const results = await realResults();
    expect(results).toEqual({
      answered: { status: "answered", answers: { answers: { deploy_target: ["Production"] } } },
      skipped: { status: "no_answer", reason: "skipped" },
      cancelled: { status: "no_answer", reason: "cancelled" },
      expired: { status: "no_answer", reason: "expired" },
      undeliverable: { status: "no_answer", reason: "undeliverable" },
    });
    for (const result of Object.values(results)) expect(validResult(result).errorMessage).toBeUndefined();
  });

  it.each([
    [{ status: "no_answer", reason: "bored" }],
    [{ status: "answered", answers: { deploy_target: ["Production"] } }],
    [{ status: "answered", answers: { answers: { deploy_target: "Production" } } }],
    [{ status: "no_answer", reason: "expired", answers: { answers: {} } }],
    [{ status: "maybe" }],
  ])("refuses a result that is not an AskUserResult: %j", (result) => {
    expect(validResult(result).valid).toBe(false);
  });

  it("is a plain JSON Schema object MCP accepts: type object at the root, no $ref", () => {
    expect(tool.outputSchema?.type).toBe("object");
    expect(JSON.stringify(tool.outputSchema)).not.toContain("$ref");
    expect(JSON.stringify(tool.inputSchema)).not.toContain("$ref");
  });
});

describe("the MCP tool's inputSchema and the normaliser count a label the same way", () => {
  const family = "👨‍👩‍👧‍👦"; // one grapheme cluster, 11 UTF-16 units, 7 code points
  const withLabel = (label: string) => ({
    questions: [{ ...input.questions[0], options: [{ label }, { label: "Production" }] }],
  });

  it("accepts a label of 64 emoji in both, though it is 704 UTF-16 units long", () => {
    const raw = withLabel(family.repeat(64));
    expect(validInput(raw).errorMessage).toBeUndefined();
    expect(normalizeAskUserInput(raw).questions[0]?.options[0]?.label).toBe(family.repeat(64));
  });

  it("refuses 65 in the normaliser, and the schema the client reads says where the line is", () => {
    expect(() => normalizeAskUserInput(withLabel(family.repeat(65)))).toThrow(InvalidAskUserInputError);
    // biome-ignore lint/suspicious/noExplicitAny: walking a JSON Schema document in a test
    const label = (tool.inputSchema as any).properties.questions.items.properties.options.items.properties
      .label;
    expect(label.maxLength).toBeUndefined();
    expect(label.description).toContain("at most 64 characters, counted as user-perceived characters");
    expect(tool.inputSchema.properties?.questions).toEqual(
      (askUserTool.inputSchema.properties as Record<string, unknown>).questions,
    );
  });
});
