// Discord's limits on forms (PLATFORMS.md, the Discord docs), checked through the real discord.js against
// the fake, which refuses what Discord refuses: long texts are cut with "…", and a prompt with more
// options than a select takes is sent as readable text.
import { newActionToken, type PromptQuestion } from "@ask-user/core/channel";
import { sampleRecord } from "@ask-user/core/testing";
import { DiscordAPIError, Routes } from "discord.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discordLimits, discordView, renderFormComponents } from "../src/index.ts";
import { ALICE, closeWorld, createWorld, promptIn, selectsOf, setup, type World } from "./harness.ts";

let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(() => closeWorld(world));

const chars = (text: string) => [...text].length;
const FAMILY = "👨‍👩‍👧‍👦"; // one grapheme, seven code points

/** What Discord answers when the bot posts `body` to a channel: "ok", or the form error's paths. */
async function post(channelId: string, body: unknown): Promise<string> {
  try {
    await world.client.rest.post(Routes.channelMessages(channelId), { body });
    return "ok";
  } catch (error) {
    if (!(error instanceof DiscordAPIError)) throw error;
    return `${error.code}: ${error.message}`;
  }
}

const question = (options: number, multiSelect = true): PromptQuestion => ({
  id: "many",
  header: "Many",
  question: "Which ones?",
  multiSelect,
  options: Array.from({ length: options }, (_, i) => ({ label: `Option ${i + 1}` })),
});

describe("a form's select", () => {
  it("cuts option labels and descriptions to Discord's 100 characters with …, and Discord takes it", async () => {
    const { broker, channelId } = await setup(world);
    const input = {
      questions: [
        {
          id: "emoji",
          header: "Emoji",
          question: "Which family?",
          multiSelect: true,
          options: [
            { label: FAMILY.repeat(64), description: "d".repeat(500) },
            { label: "Short", description: "Fits" },
          ],
        },
      ],
    };
    await broker.create(input, {
      target: { channel: "discord", conversation: channelId },
      creator: { channel: "discord", userId: ALICE.id },
    });
    const prompt = await promptIn(world, channelId);

    const options = selectsOf(prompt)[0]?.options as Array<{ label: string; description: string }>;
    expect(chars(options[0]?.label ?? "")).toBeLessThanOrEqual(discordLimits.SELECT_OPTION_LABEL_MAX_CHARS);
    expect(options[0]?.label).toBe(`${FAMILY.repeat(14)}…`);
    expect(options[0]?.description).toBe(`${"d".repeat(99)}…`);
    expect(options[1]).toEqual({ label: "Short", value: "1", description: "Fits" });
  });

  it("is refused by Discord past its limits: 26 options, a 101-character label, max_values 26", async () => {
    const { channelId } = await setup(world);
    // The largest select the channel renders (10 options: core numbers at most ten; Discord takes 25): accepted.
    const record = sampleRecord({
      prompt: { questions: [question(10)], timeoutSeconds: 900 },
      tokens: [newActionToken(Date.UTC(2026, 11, 5))],
    });
    const [row] = renderFormComponents(discordView(record, false));
    const select = row?.components[0];
    const options = Array.from({ length: 26 }, (_, i) => ({ label: `O${i}`, value: String(i) }));
    const withSelect = (fields: Record<string, unknown>) => ({
      components: [{ type: 1, components: [{ ...select, ...fields }] }],
    });

    expect(await post(channelId, withSelect({}))).toBe("ok");
    expect(await post(channelId, withSelect({ options }))).toMatch(
      /^50035: Invalid Form Body\ncomponents\[0\]\.components\[0\]\.options\[BASE_TYPE_BAD_LENGTH\]/,
    );
    expect(await post(channelId, withSelect({ options: [{ label: "x".repeat(101), value: "0" }] }))).toMatch(
      /options\[0\]\.label\[BASE_TYPE_BAD_LENGTH\]: Must be between 1 and 100 in length/,
    );
    expect(await post(channelId, withSelect({ max_values: 26 }))).toMatch(
      /max_values\[NUMBER_TYPE_MAX\]: int value should be less than or equal to 25/,
    );
    expect(await post(channelId, withSelect({ placeholder: "p".repeat(151) }))).toMatch(
      /placeholder\[BASE_TYPE_MAX_LENGTH\]/,
    );
  });

  it("falls back to readable text when a question has more options than a select takes", async () => {
    const { mounted, channelId } = await setup(world);
    const questions = [question(26), { ...question(2, false), id: "other", header: "Other" }];
    const record = sampleRecord({
      prompt: { questions, timeoutSeconds: 900 },
      target: { channel: "discord", conversation: channelId },
      tokens: questions.map(() => newActionToken(Date.UTC(2026, 11, 5))),
    });

    const { messageId } = await mounted.deliver({ record, locale: "en", text: "", buttons: false });

    const message = world.discord.message(channelId, messageId);
    expect(message?.components).toEqual([]);
    expect(message?.content).toContain("26\\. Option 26");
    expect(message?.content).toContain("Reply with one line per question");
  });
});
