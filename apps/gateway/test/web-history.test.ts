import { describe, expect, it } from "vitest";
import { call, testGateway } from "./harness.ts";
import { ask, deploy, newContext, openPanel, regions, releasePlan, screenshot } from "./web-browser.ts";

/** Issue #22: status in words, the history's filter, search and ids, the tab title, notifications. */
describe("web panel: history, title and notifications", { timeout: 40_000 }, () => {
  it("says every status in words beside an SVG icon that needs no emoji font", async () => {
    const gw = await testGateway();
    const answered = await ask(gw.url, deploy);
    await call(`${gw.url}/v1/questions/${answered}/answer`, "POST", {
      answers: { deploy_target: ["Production"] },
      name: "@alice",
    });
    const skipped = await ask(gw.url, regions);
    await call(`${gw.url}/v1/questions/${skipped}/skip`, "POST", { surface: "cli" });
    const pending = await ask(gw.url, deploy);
    const page = await openPanel(`${gw.url}/`);
    await page.getByRole("radiogroup").waitFor();

    const status = (id: string) => page.locator(`[data-question-id="${id}"] .card-status`);
    expect(await status(answered).textContent()).toMatch(/^Answered — @alice via HTTP API at /);
    expect(await status(skipped).textContent()).toMatch(/^Skipped — operator via CLI at /);
    expect(await status(pending).textContent()).toMatch(/^Waiting for an answer · /);
    for (const id of [answered, skipped, pending]) {
      expect(await status(id).locator('svg[aria-hidden="true"]').count()).toBe(1);
    }
    expect(await page.locator("body").textContent()).not.toMatch(/[✅⏭⌛✖⚠]/u);
  });

  it("filters the history by status, searches its text and ids, and copies an id", async () => {
    const gw = await testGateway();
    const answered = await ask(gw.url, deploy);
    await call(`${gw.url}/v1/questions/${answered}/answer`, "POST", {
      answers: { deploy_target: ["Production"] },
    });
    const skipped = await ask(gw.url, regions);
    await call(`${gw.url}/v1/questions/${skipped}/skip`, "POST", {});
    const pending = await ask(gw.url, releasePlan);
    const context = await newContext();
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const page = await openPanel(`${gw.url}/`, {}, context);
    await page.getByText("Question 1 of 3").waitFor();
    const shown = () =>
      page
        .locator(".history .card")
        .evaluateAll((cards) => cards.map((card) => card.getAttribute("data-question-id")));
    await expect.poll(shown).toEqual([answered, skipped, pending]);

    const filter = page.getByRole("combobox", { name: "Show" });
    await filter.selectOption("skipped");
    await expect.poll(shown).toEqual([skipped]);
    await filter.selectOption("all");

    const search = page.getByRole("searchbox", { name: "Search questions" });
    await search.fill("REGIONS");
    await expect.poll(shown).toEqual([skipped, pending]);
    await search.fill("production");
    await expect.poll(shown).toEqual([answered, pending]); // an answer, and an option of the pending one
    await search.fill(answered.slice(2, 12));
    await expect.poll(shown).toEqual([answered]);
    await search.fill("no such thing");
    await page.getByText("No question matches.").waitFor();
    await search.press("Escape"); // the search field's own Esc: clears it, the panel stays open
    await expect.poll(shown).toEqual([answered, skipped, pending]);
    expect(await page.getByText("Question 1 of 3").count()).toBe(1);

    const card = page.locator(`[data-question-id="${answered}"]`);
    expect(await card.locator("code").textContent()).toBe(answered);
    await card.getByRole("button", { name: `Copy id ${answered}` }).click();
    await card.getByText("Copied").waitFor();
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(answered);
    await screenshot(page, "history-filter");
  });

  it("counts pending questions in the tab title", async () => {
    const gw = await testGateway();
    const first = await ask(gw.url, deploy);
    const page = await openPanel(`${gw.url}/`);
    await expect.poll(() => page.title()).toBe("(1) ask-user");
    await ask(gw.url, regions);
    await expect.poll(() => page.title()).toBe("(2) ask-user");
    await call(`${gw.url}/v1/questions/${first}/skip`, "POST", {});
    await expect.poll(() => page.title()).toBe("(1) ask-user");
    await page.keyboard.press("1");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.title()).toBe("ask-user");
  });

  it("asks for notification permission only from Notify me, then notifies; a click opens that question", async () => {
    const gw = await testGateway();
    await ask(gw.url, deploy);
    const context = await newContext();
    // A recording stand-in for the browser's Notification (headless Chromium shows none).
    await context.addInitScript(`
      const record = { requests: [], shown: [], focused: 0 };
      const instances = [];
      class FakeNotification {
        static permission = "default";
        static requestPermission() {
          record.requests.push(navigator.userActivation.isActive);
          FakeNotification.permission = "granted";
          return Promise.resolve("granted");
        }
        onclick = null;
        constructor(title, options) {
          record.shown.push({ title, tag: options.tag, body: options.body });
          instances.push(this);
        }
        close() {}
      }
      window.Notification = FakeNotification;
      window.notifications = record;
      window.clickNotification = (index) => instances[index]?.onclick?.();
      window.focus = () => {
        record.focused++;
      };
    `);
    const page = await openPanel(`${gw.url}/`, {}, context);
    await page.getByRole("radio", { name: /Staging/ }).waitFor();
    const record = () =>
      page.evaluate<{
        requests: boolean[];
        shown: { title: string; tag: string; body: string }[];
        focused: number;
      }>("notifications");
    expect((await record()).requests).toEqual([]); // never on load

    await page.getByRole("button", { name: "Notify me" }).click();
    await page.getByText("Notifications on").waitFor();
    expect((await record()).requests).toEqual([true]); // on the click, a user gesture

    const second = await ask(gw.url, regions);
    await expect
      .poll(async () => (await record()).shown)
      .toEqual([
        { title: "New question: Regions", tag: second, body: "Which regions should get the release?" },
      ]);
    expect(await page.getByRole("radio", { name: /Staging/ }).count()).toBe(1); // the oldest is still asked
    await page.evaluate("clickNotification(0)");
    await page.getByRole("checkbox", { name: /EU/ }).waitFor();
    expect((await record()).focused).toBe(1);
  });
});
