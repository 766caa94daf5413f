import { afterEach, describe, expect, it } from "vitest";
import { createFakeDiscord, type FakeDiscord, type FakeDiscordOptions } from "../src/discord/index.ts";

// Plain HTTP against the fake: what Discord refuses, with Discord's error bodies.
const fakes: FakeDiscord[] = [];
afterEach(async () => {
  for (const fake of fakes.splice(0)) await fake.close();
});

async function fake(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  const discord = await createFakeDiscord(options);
  fakes.push(discord);
  return discord;
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function api(
  discord: FakeDiscord,
  method: string,
  path: string,
  body?: unknown,
  auth = true,
): Promise<Answer> {
  const response = await fetch(`${discord.apiUrl}/v10${path}`, {
    method,
    headers: {
      "content-type": "application/json",
      ...(auth ? { authorization: `Bot ${discord.token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

const button = (n: number, extra: Record<string, unknown> = {}) => ({
  type: 2,
  style: 2,
  label: `B${n}`,
  custom_id: `b${n}`,
  ...extra,
});
const row = (...components: unknown[]) => ({ type: 1, components });

function formError(answer: Answer): unknown {
  expect(answer.status).toBe(400);
  expect(answer.body).toMatchObject({ code: 50035, message: "Invalid Form Body" });
  return answer.body.errors;
}

describe("messages", () => {
  it("refuses content over 2000 characters (counted in code points) and empty messages", async () => {
    const discord = await fake();
    const channel = `/channels/${discord.guild.channelId}/messages`;
    expect((await api(discord, "POST", channel, { content: "😀".repeat(2000) })).status).toBe(200);
    expect(formError(await api(discord, "POST", channel, { content: "x".repeat(2001) }))).toEqual({
      content: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: "Must be 2000 or fewer in length." }] },
    });
    expect(await api(discord, "POST", channel, { content: "  " })).toEqual({
      status: 400,
      body: { code: 50006, message: "Cannot send an empty message" },
    });
  });

  it("refuses six buttons in a row, six rows, long ids and labels, duplicate ids and link buttons without url", async () => {
    const discord = await fake();
    const channel = `/channels/${discord.guild.channelId}/messages`;
    const six = [1, 2, 3, 4, 5, 6].map((n) => button(n));
    expect(formError(await api(discord, "POST", channel, { components: [row(...six)] }))).toEqual({
      components: {
        "0": {
          components: {
            _errors: [{ code: "BASE_TYPE_BAD_LENGTH", message: "Must be between 1 and 5 in length." }],
          },
        },
      },
    });
    const sixRows = [1, 2, 3, 4, 5, 6].map((n) => row(button(n)));
    expect(formError(await api(discord, "POST", channel, { components: sixRows }))).toMatchObject({
      components: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: "Must be 5 or fewer in length." }] },
    });
    const bad = row(
      button(1, { custom_id: "x".repeat(101) }),
      button(2, { label: "y".repeat(81) }),
      button(3, { custom_id: "b1x" }),
      button(4, { custom_id: "b1x" }),
      { type: 2, style: 5, label: "Docs" },
    );
    expect(formError(await api(discord, "POST", channel, { components: [bad] }))).toEqual({
      components: {
        "0": {
          components: {
            "0": {
              custom_id: {
                _errors: [{ code: "BASE_TYPE_BAD_LENGTH", message: "Must be between 1 and 100 in length." }],
              },
            },
            "1": {
              label: {
                _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: "Must be 80 or fewer in length." }],
              },
            },
            "3": {
              custom_id: {
                _errors: [
                  {
                    code: "COMPONENT_CUSTOM_ID_DUPLICATED",
                    message: "Component custom id cannot be duplicated",
                  },
                ],
              },
            },
            "4": {
              url: { _errors: [{ code: "BUTTON_COMPONENT_URL_REQUIRED", message: "A url is required" }] },
            },
          },
        },
      },
    });
    const fine = [1, 2, 3, 4, 5].map((r) =>
      row(...[1, 2, 3, 4, 5].map((n) => button(r * 10 + n, { label: "z".repeat(80) }))),
    );
    expect((await api(discord, "POST", channel, { content: "ok", components: fine })).status).toBe(200);
  });

  it("records who a message would ping, following allowed_mentions", async () => {
    const discord = await fake();
    discord.user({ id: "42", username: "ada" });
    const channel = `/channels/${discord.guild.channelId}/messages`;
    const content = "@everyone <@42> <@&7>";
    const send = async (extra: Record<string, unknown>) => {
      const sent = await api(discord, "POST", channel, { content, ...extra });
      return discord.message(discord.guild.channelId, String(sent.body.id))?.pings;
    };
    expect(await send({})).toEqual({ everyone: true, users: ["42"], roles: ["7"] });
    expect(await send({ allowed_mentions: { parse: [] } })).toEqual({
      everyone: false,
      users: [],
      roles: [],
    });
    expect(await send({ allowed_mentions: { parse: ["users"] } })).toEqual({
      everyone: false,
      users: ["42"],
      roles: [],
    });
    expect(await send({ allowed_mentions: { users: ["42"], roles: ["7"] } })).toEqual({
      everyone: false,
      users: ["42"],
      roles: ["7"],
    });
    expect(await send({ content: "@\u200beveryone \\@here" })).toEqual({
      everyone: false,
      users: [],
      roles: [],
    });
    expect(
      formError(
        await api(discord, "POST", channel, {
          content,
          allowed_mentions: { parse: ["users"], users: ["42"] },
        }),
      ),
    ).toMatchObject({
      allowed_mentions: { _errors: [{ code: "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE" }] },
    });
    const user = discord.user({ id: "42", username: "ada" }).send(discord.guild.channelId, "hi");
    const reply = async (allowed?: Record<string, unknown>) => {
      const body = {
        content: "re",
        message_reference: { message_id: user.id },
        ...(allowed ? { allowed_mentions: allowed } : {}),
      };
      const sent = await api(discord, "POST", channel, body);
      return discord.message(discord.guild.channelId, String(sent.body.id));
    };
    expect((await reply())?.pings.users).toEqual(["42"]);
    expect((await reply({ parse: [] }))?.pings.users).toEqual([]);
    expect((await reply({ parse: [], replied_user: true }))?.pings.users).toEqual(["42"]);
    expect((await reply())?.message_reference).toMatchObject({ message_id: user.id, type: 0 });
  });

  it("edits only the bot's own messages and knows unknown channels, messages and tokens", async () => {
    const discord = await fake();
    const id = discord.guild.channelId;
    const own = await api(discord, "POST", `/channels/${id}/messages`, { content: "v1" });
    const edited = await api(discord, "PATCH", `/channels/${id}/messages/${String(own.body.id)}`, {
      content: "v2",
      components: [],
    });
    expect(edited.body).toMatchObject({ content: "v2", components: [] });
    expect(discord.message(id, String(own.body.id))?.edited_timestamp).not.toBeNull();
    const theirs = discord.user({ id: "42", username: "ada" }).send(id, "mine");
    expect(
      (await api(discord, "PATCH", `/channels/${id}/messages/${theirs.id}`, { content: "x" })).body,
    ).toEqual({
      code: 50005,
      message: "Cannot edit a message authored by another user",
    });
    expect((await api(discord, "PATCH", `/channels/${id}/messages/1`, { content: "x" })).body.code).toBe(
      10008,
    );
    expect(
      (await api(discord, "POST", "/channels/999999999999999999/messages", { content: "x" })).body.code,
    ).toBe(10003);
    expect((await api(discord, "POST", `/channels/${id}/messages`, { content: "x" }, false)).status).toBe(
      401,
    );
    expect((await api(discord, "GET", "/nope")).status).toBe(404);
    expect(discord.calls.at(-1)).toMatchObject({ route: "unknown", status: 404 });
  });

  it("fails the next call of a route as told", async () => {
    const discord = await fake();
    discord.failNext("createMessage", { status: 403, code: 50001, message: "Missing Access" });
    const path = `/channels/${discord.guild.channelId}/messages`;
    expect(await api(discord, "POST", path, { content: "x" })).toEqual({
      status: 403,
      body: { code: 50001, message: "Missing Access" },
    });
    expect((await api(discord, "POST", path, { content: "x" })).status).toBe(200);
  });
});

describe("interactions", () => {
  async function clicked(options: FakeDiscordOptions = {}) {
    const discord = await fake(options);
    const id = discord.guild.channelId;
    const sent = await api(discord, "POST", `/channels/${id}/messages`, {
      content: "Q",
      components: [row(button(1))],
    });
    const ada = discord.user({ id: "42", username: "ada" });
    const interaction = ada.click(id, String(sent.body.id), "B1");
    const callback = (body: unknown) =>
      api(discord, "POST", `/interactions/${interaction.id}/${interaction.token}/callback`, body, false);
    const webhook = (method: string, suffix: string, body?: unknown) =>
      api(discord, method, `/webhooks/${discord.applicationId}/${interaction.token}${suffix}`, body, false);
    return { discord, ada, interaction, callback, webhook, messageId: String(sent.body.id) };
  }

  it("accepts one response within the deadline and refuses a second one", async () => {
    const { discord, interaction, callback } = await clicked();
    expect((await callback({ type: 7, data: { content: "done", components: [] } })).status).toBe(204);
    expect(await callback({ type: 4, data: { content: "again" } })).toEqual({
      status: 400,
      body: { code: 40060, message: "Interaction has already been acknowledged." },
    });
    expect(discord.interaction(interaction.id)?.response).toMatchObject({ type: 7 });
  });

  it("refuses a first response after the deadline as an unknown interaction", async () => {
    const { callback } = await clicked({ responseDeadlineMs: 50 });
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await callback({ type: 6 })).toEqual({
      status: 404,
      body: { code: 10062, message: "Unknown interaction" },
    });
  });

  it("opens follow-ups and @original only after the response, for 15 minutes", async () => {
    let now = Date.now();
    const { discord, callback, webhook, messageId, ada } = await clicked({ now: () => now });
    expect((await webhook("POST", "", { content: "early" })).body.code).toBe(10015);
    expect((await callback({ type: 6 })).status).toBe(204);
    expect(
      (await webhook("PATCH", "/messages/@original", { content: "edited", components: [] })).status,
    ).toBe(200);
    expect(discord.message(discord.guild.channelId, messageId)?.content).toBe("edited");
    expect((await webhook("POST", "", { content: "only you", flags: 64 })).status).toBe(200);
    expect(discord.ephemerals(ada.id).map((m) => m.content)).toEqual(["only you"]);
    expect(discord.messages(discord.guild.channelId).map((m) => m.content)).toEqual(["edited"]);
    now += 15 * 60 * 1000 + 1;
    expect((await webhook("POST", "", { content: "late" })).body).toEqual({
      code: 50027,
      message: "Invalid Webhook Token",
    });
  });

  it("checks modals: title, 1-5 components, text input label, placeholder, value and lengths", async () => {
    const { callback } = await clicked();
    const input = (extra: Record<string, unknown>) =>
      row({ type: 4, custom_id: "a", style: 2, label: "Answer", ...extra });
    const errors = formError(
      await callback({
        type: 9,
        data: {
          custom_id: "m",
          title: "t".repeat(46),
          components: [
            input({ label: "l".repeat(46), custom_id: "a1" }),
            input({ placeholder: "p".repeat(101), custom_id: "a2" }),
            input({ max_length: 4001, custom_id: "a3" }),
            input({ value: "v".repeat(4001), custom_id: "a4" }),
            input({ custom_id: "a5" }),
            input({ custom_id: "a6" }),
          ],
        },
      }),
    ) as { data: Record<string, unknown> };
    expect(errors.data.title).toEqual({
      _errors: [{ code: "BASE_TYPE_BAD_LENGTH", message: "Must be between 1 and 45 in length." }],
    });
    expect(errors.data.components).toMatchObject({
      _errors: [{ code: "BASE_TYPE_BAD_LENGTH", message: "Must be between 1 and 5 in length." }],
      "0": { components: { "0": { label: { _errors: [{ code: "BASE_TYPE_BAD_LENGTH" }] } } } },
      "1": { components: { "0": { placeholder: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH" }] } } } },
      "2": { components: { "0": { max_length: { _errors: [{ code: "NUMBER_TYPE_MAX" }] } } } },
      "3": { components: { "0": { value: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH" }] } } } },
    });
    expect(
      formError(await callback({ type: 9, data: { custom_id: "m", title: "T", components: [] } })),
    ).toBeDefined();
    expect(
      (
        await callback({
          type: 9,
          data: { custom_id: "m", title: "T", components: [input({ max_length: 4000 })] },
        })
      ).status,
    ).toBe(204);
  });

  it("lets users submit only what the client allows, and refuses a modal answering a modal", async () => {
    const { discord, ada, interaction, callback, messageId } = await clicked();
    expect(() => ada.submitModal(interaction, "x")).toThrow(/opened no modal/);
    await callback({
      type: 9,
      data: {
        custom_id: "m",
        title: "T",
        components: [
          row({ type: 4, custom_id: "a", style: 2, label: "Answer", required: true, max_length: 5 }),
        ],
      },
    });
    expect(() => ada.submitModal(interaction, "")).toThrow(/required/);
    expect(() => ada.submitModal(interaction, "toolong")).toThrow(/0-5 characters/);
    const submitted = ada.submitModal(interaction, "fine");
    expect(submitted).toMatchObject({
      type: 5,
      custom_id: "m",
      values: { a: "fine" },
      message_id: messageId,
    });
    const modalAgain = await api(
      discord,
      "POST",
      `/interactions/${submitted.id}/${submitted.token}/callback`,
      { type: 9, data: { custom_id: "m", title: "T", components: [] } },
      false,
    );
    expect(modalAgain.body).toMatchObject({
      code: 50035,
      errors: { type: { _errors: [{ code: "INTERACTION_RESPONSE_TYPE_INVALID" }] } },
    });
    expect(() => ada.click(discord.guild.channelId, messageId, "Nope")).toThrow(/no clickable button "Nope"/);
  });
});
