import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { call, testGateway } from "./harness.ts";
import { ask, deploy, openPanel, question, regions, releasePlan } from "./web-browser.ts";

/** Issue #22 item 8: the panel's choices are the question's one shared draft; the history's scroll. */

const checked = (page: Page, role: "radio" | "checkbox", name: RegExp) =>
  page.getByRole(role, { name }).getAttribute("aria-checked");

async function stageElsewhere(url: string, id: string, body: unknown): Promise<void> {
  const staged = await call(`${url}/v1/questions/${id}/draft`, "PUT", body);
  expect(staged.status).toBe(200);
}

describe("web panel: one shared draft", { timeout: 40_000 }, () => {
  it("stages each choice, survives a reload at the step after it, and shows drafts staged elsewhere live", async () => {
    const gw = await testGateway();
    const id = await ask(gw.url, releasePlan);
    const page = await openPanel(`${gw.url}/`);
    await page.getByText("Question 1 of 3").waitFor();
    await page.getByRole("radio", { name: /Production/ }).click();
    await page.getByText("Question 2 of 3").waitFor();
    await expect
      .poll(async () => (await question(gw.url, id)).draft)
      .toEqual({ environment: ["Production"] });

    await page.reload();
    await page.getByText("Question 2 of 3").waitFor();
    // Staged elsewhere (a chat tap, the CLI, another panel): shown here at once — the untouched panel
    // goes on to the first question still without a value.
    await stageElsewhere(gw.url, id, { question: "regions", values: ["Asia", "EU"] });
    await page.getByText("Question 3 of 3").waitFor();
    await page.getByRole("button", { name: "Back" }).click();
    expect(await checked(page, "checkbox", /Asia/)).toBe("true");
    expect(await checked(page, "checkbox", /EU/)).toBe("true");
    expect(await checked(page, "checkbox", /US/)).toBe("false");
    await page.getByRole("checkbox", { name: /US/ }).click();
    await expect
      .poll(async () => (await question(gw.url, id)).draft)
      .toEqual({ environment: ["Production"], regions: ["EU", "US", "Asia"] });
    await page.getByRole("button", { name: "Back" }).click();
    expect(await checked(page, "radio", /Production/)).toBe("true");
    expect((await question(gw.url, id)).status).toBe("pending");
  });

  it("keeps an own answer being typed while the draft changes elsewhere, stages it on Enter, then sends", async () => {
    const gw = await testGateway();
    const id = await ask(gw.url, releasePlan);
    await stageElsewhere(gw.url, id, { question: "environment", values: ["Staging"] });
    await stageElsewhere(gw.url, id, { question: "regions", values: ["US"] });
    const page = await openPanel(`${gw.url}/`);
    await page.getByText("Question 3 of 3").waitFor();
    await page.getByRole("radio", { name: /Other…/ }).click();
    await page.getByLabel("Your answer").fill("Blog psot");
    await stageElsewhere(gw.url, id, { question: "announce", values: ["Blog post"] });
    await stageElsewhere(gw.url, id, { question: "regions", values: ["EU"] });
    // The other questions follow; the one being typed in stays as typed.
    await page.getByRole("button", { name: "Back" }).click();
    await expect.poll(() => checked(page, "checkbox", /EU/)).toBe("true");
    expect(await checked(page, "checkbox", /US/)).toBe("false");
    await page.getByRole("button", { name: "Next" }).click();
    expect(await page.getByLabel("Your answer").inputValue()).toBe("Blog psot");
    expect(await checked(page, "radio", /Blog post/)).toBe("false");
    await page.getByLabel("Your answer").press("Enter");
    await page.getByRole("button", { name: "Send answers" }).waitFor();
    await expect
      .poll(async () => (await question(gw.url, id)).draft)
      .toEqual({ environment: ["Staging (Recommended)"], regions: ["EU"], announce: ["Blog psot"] });
    await page.getByRole("button", { name: "Send answers" }).click();
    await expect.poll(async () => (await question(gw.url, id)).status).toBe("answered");
    expect((await question(gw.url, id)).answers).toEqual({
      environment: ["Staging (Recommended)"],
      regions: ["EU"],
      announce: ["Blog psot"],
    });
  });
});

describe("web panel: the history's scroll", { timeout: 40_000 }, () => {
  it("shows the newest match after the filter or the search changes, as on load", async () => {
    const gw = await testGateway();
    const ids: string[] = [];
    for (let i = 0; i < 14; i++) {
      const id = await ask(gw.url, i % 5 === 0 ? regions : deploy);
      await call(`${gw.url}/v1/questions/${id}/${i % 5 === 0 ? "skip" : "answer"}`, "POST", {
        answers: i % 5 === 0 ? undefined : { deploy_target: ["Production"] },
      });
      ids.push(id);
    }
    const page = await openPanel(`${gw.url}/`);
    await page.locator(".history .card").nth(13).waitFor();
    const history = page.locator("main.history-scroll");
    const atNewest = () =>
      history.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight);
    const newestShown = (id: string) =>
      page.locator(`[data-question-id="${id}"]`).evaluate((card) => {
        const box = card.getBoundingClientRect();
        const view = card.closest("main")?.getBoundingClientRect();
        return view !== undefined && box.bottom <= view.bottom + 1 && box.bottom > view.top;
      });
    expect(await history.evaluate((e) => e.scrollHeight > e.clientHeight + 100)).toBe(true);
    await expect.poll(atNewest).toBeLessThan(48);

    const filter = page.getByRole("combobox", { name: "Show" });
    await filter.selectOption("skipped");
    await filter.selectOption("all");
    await expect.poll(atNewest).toBeLessThan(48);
    expect(await newestShown(ids[13] ?? "")).toBe(true);

    await history.evaluate((element) => {
      element.scrollTop = 0; // the reader scrolled up to the oldest
    });
    const search = page.getByRole("searchbox", { name: "Search questions" });
    await search.fill("Regions");
    await expect.poll(atNewest).toBeLessThan(48);
    expect(await newestShown(ids[10] ?? "")).toBe(true); // the newest skipped one (Regions)
    await search.fill("");
    await expect.poll(atNewest).toBeLessThan(48);
    expect(await newestShown(ids[13] ?? "")).toBe(true);
  });
});
