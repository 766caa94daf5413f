import { createFakeClock } from "@ask-user/core/testing";
import { describe, expect, it } from "vitest";
import { call, testGateway } from "./harness.ts";
import { ask, deploy, newContext, openPanel, question, releasePlan, screenshot } from "./web-browser.ts";

const TOKEN = "web-panel-test-token-0123456789";

describe("web panel: live, time and auth", { timeout: 30_000 }, () => {
  it("closes the open panel within a second when another surface answers, and keeps two tabs in step", async () => {
    const gw = await testGateway();
    const first = await ask(gw.url, deploy);
    const browser = await newContext();
    const tabA = await openPanel(`${gw.url}/`, {}, browser);
    const tabB = await openPanel(`${gw.url}/`, {}, browser);
    await tabA.getByRole("radiogroup").waitFor();
    await tabB.getByRole("radiogroup").waitFor();
    await tabA.getByText("Live", { exact: true }).waitFor();
    await tabB.getByText("Live", { exact: true }).waitFor();

    // Answered elsewhere (as the CLI, a chat channel or an agent's HTTP client would).
    const answered = await call(`${gw.url}/v1/questions/${first}/answer`, "POST", {
      answers: { deploy_target: ["Staging (Recommended)"] },
      name: "@alice",
    });
    expect(answered.status).toBe(200);
    const sent = Date.now();
    await tabA.getByRole("radiogroup").waitFor({ state: "detached", timeout: 1_000 });
    await tabB.getByRole("radiogroup").waitFor({ state: "detached", timeout: 1_000 });
    expect(Date.now() - sent).toBeLessThan(1_000);
    const card = tabA.locator(`[data-question-id="${first}"]`);
    expect(await card.textContent()).toContain("Answered — @alice via HTTP API");
    expect(await tabA.getByRole("status").textContent()).toContain("Closed: Answered — @alice via HTTP API");

    // A new question reaches both tabs; answering it in one closes it in the other.
    const second = await ask(gw.url, releasePlan);
    await tabA.getByText("Question 1 of 3").waitFor();
    await tabB.getByText("Question 1 of 3").waitFor();
    expect(await tabB.getByRole("status").textContent()).toContain(
      "New question: Environment, Regions, Announce",
    );
    await tabA.getByRole("button", { name: "Skip" }).click();
    await tabB.getByText("Question 1 of 3").waitFor({ state: "detached", timeout: 1_000 });
    await expect
      .poll(() => tabB.locator(`[data-question-id="${second}"]`).textContent())
      .toContain("Skipped — operator via web panel");
    expect(await tabB.locator(".card").count()).toBe(2);
    await screenshot(tabB, "history");
  });

  it("reconnects after the stream drops and shows what happened in the meantime", async () => {
    const gw = await testGateway();
    const first = await ask(gw.url, deploy);
    const page = await openPanel(`${gw.url}/`);
    await page.getByRole("radiogroup").waitFor();
    await page.getByText("Live", { exact: true }).waitFor();

    gw.http.server.closeAllConnections(); // the network drops every open connection
    await page.getByText("Reconnecting…").waitFor();
    await call(`${gw.url}/v1/questions/${first}/skip`, "POST", { surface: "cli" });
    const second = await ask(gw.url, releasePlan);

    await page.getByText("Live", { exact: true }).waitFor({ timeout: 10_000 });
    await page.getByText("Question 1 of 3").waitFor();
    expect(await page.locator(`[data-question-id="${first}"]`).textContent()).toContain(
      "Skipped — operator via CLI",
    );
    expect(await page.locator(`[data-question-id="${second}"]`).getAttribute("data-status")).toBe("pending");
  });

  it("counts down the time left, and at expiry closes the panel and marks the card Expired", async () => {
    const clock = createFakeClock(Date.now());
    const gw = await testGateway({}, { clock });
    const id = await ask(gw.url, { ...deploy, timeoutSeconds: 30 });
    const page = await openPanel(`${gw.url}/`);
    const timer = page.getByRole("timer");
    await timer.waitFor();
    expect(await timer.textContent()).toMatch(/0:(30|2\d) left/);

    await clock.advance(30_000);
    await page.getByRole("radiogroup").waitFor({ state: "detached", timeout: 2_000 });
    const card = page.locator(`[data-question-id="${id}"]`);
    await expect.poll(() => card.textContent()).toContain("Expired at");
    expect(await card.getAttribute("data-status")).toBe("expired");
    expect((await question(gw.url, id)).status).toBe("expired");
    await screenshot(page, "expired");
  });

  it("asks for the token, refuses a wrong one with a clear message, and then sends the right one on every call", async () => {
    const gw = await testGateway({ ASK_USER_TOKEN: TOKEN });
    const auth = { authorization: `Bearer ${TOKEN}` };
    const id = await ask(gw.url, deploy, auth);

    const page = await openPanel(`${gw.url}/?token=not-the-right-token-at-all`);
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      "The token was refused: it does not match the gateway's ASK_USER_TOKEN.",
    );
    expect(new URL(page.url()).searchParams.has("token")).toBe(false);
    expect(await page.getByRole("radiogroup").count()).toBe(0);
    await screenshot(page, "token-refused");

    const apiCalls: Array<string | undefined> = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/v1/questions") apiCalls.push(request.headers().authorization);
    });
    await page.getByLabel("Token").fill(TOKEN);
    await page.getByRole("button", { name: "Open the panel" }).click();
    await page.getByRole("radio", { name: /Production/ }).click();
    await page.getByRole("radiogroup").waitFor({ state: "detached" });
    expect((await question(gw.url, id, auth)).answers).toEqual({ deploy_target: ["Production"] });
    expect(apiCalls.length).toBeGreaterThan(0);
    expect(apiCalls.every((header) => header === `Bearer ${TOKEN}`)).toBe(true);

    // A link with ?token= (which the banner no longer prints) still opens the panel without asking.
    const linked = await openPanel(`${gw.url}/?token=${TOKEN}`);
    await linked.locator(`[data-question-id="${id}"]`).waitFor();
    expect(await linked.getByLabel("Token").count()).toBe(0);
    expect(new URL(linked.url()).search).toBe("");
  });

  it("speaks German to a German browser, with core's strings", async () => {
    const gw = await testGateway();
    await ask(gw.url, releasePlan);
    const page = await openPanel(`${gw.url}/`, { locale: "de-DE" });
    await page.getByText("Frage 1 von 3").waitFor();
    expect(await page.getByRole("button", { name: "Überspringen" }).count()).toBe(1);
    expect(await page.getByRole("radio", { name: /Sonstiges…/ }).count()).toBe(1);
    expect(await page.getByRole("radio", { name: /Staging/ }).textContent()).toContain("★ empfohlen");
    expect(await page.getByRole("timer").textContent()).toMatch(/^noch 1[45]:\d\d$/);
    await screenshot(page, "german");
  });
});
