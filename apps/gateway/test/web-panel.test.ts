import { describe, expect, it } from "vitest";
import { testGateway } from "./harness.ts";
import { ask, deploy, openPanel, question, regions, releasePlan, screenshot } from "./web-browser.ts";

describe("web panel: answering", { timeout: 30_000 }, () => {
  it("answers a single question with a click, and the card keeps who answered, where and when", async () => {
    const gw = await testGateway();
    const id = await ask(gw.url, deploy);
    const page = await openPanel(`${gw.url}/`);

    const staging = page.getByRole("radio", { name: /Staging/ });
    await staging.waitFor();
    expect(await staging.textContent()).toContain("★ recommended");
    expect(await page.getByRole("radio", { name: /Production/ }).textContent()).toContain(
      "Customers get it right away",
    );
    expect(await page.getByRole("radiogroup", { name: "Where should I deploy the release?" }).count()).toBe(
      1,
    );
    expect(await page.getByRole("timer").textContent()).toMatch(/1[45]:\d\d left/);
    await screenshot(page, "single-question");

    await page.getByRole("radio", { name: /Production/ }).click();
    await page.getByRole("radiogroup").waitFor({ state: "detached" });
    const card = page.locator(`[data-question-id="${id}"]`);
    await expect.poll(() => card.textContent()).toContain("Answered — operator via web panel at");
    expect(await card.textContent()).toContain("→ Production");
    expect(await page.getByText("Nothing is waiting").count()).toBe(1);
    await screenshot(page, "answered");

    const stored = await question(gw.url, id);
    expect(stored).toMatchObject({
      status: "answered",
      answers: { deploy_target: ["Production"] },
      resolvedBy: { channel: "web" },
    });
  });

  it("picks an option with its number key", async () => {
    const gw = await testGateway();
    const id = await ask(gw.url, deploy);
    const page = await openPanel(`${gw.url}/`);
    await page.getByRole("radio", { name: /Staging/ }).waitFor();
    await page.keyboard.press("1");
    await page.getByRole("radiogroup").waitFor({ state: "detached" });
    expect((await question(gw.url, id)).answers).toEqual({ deploy_target: ["Staging (Recommended)"] });
  });

  it("answers a multi-select question with toggles and Confirm, in option order", async () => {
    const gw = await testGateway();
    const id = await ask(gw.url, regions);
    const page = await openPanel(`${gw.url}/`);
    const confirm = page.getByRole("button", { name: "Confirm" });
    await confirm.waitFor();
    expect(await confirm.isDisabled()).toBe(true);

    await page.getByRole("checkbox", { name: /Asia/ }).click();
    await page.getByRole("checkbox", { name: /US/ }).click();
    await page.keyboard.press("2"); // number keys toggle too: US off again
    await page.getByRole("checkbox", { name: /EU/ }).click();
    expect(await page.getByRole("checkbox", { name: /US/ }).getAttribute("aria-checked")).toBe("false");
    expect(await page.getByRole("checkbox", { name: /EU/ }).getAttribute("aria-checked")).toBe("true");
    await screenshot(page, "multi-select");

    await confirm.click();
    await page.getByRole("group").waitFor({ state: "detached" });
    expect((await question(gw.url, id)).answers).toEqual({ regions: ["EU", "Asia"] });
  });

  it("steps through three questions, keeps earlier choices when going back, and sends Other… text", async () => {
    const gw = await testGateway();
    const id = await ask(gw.url, releasePlan);
    const page = await openPanel(`${gw.url}/`);

    await page.getByText("Question 1 of 3").waitFor();
    await page.getByRole("radio", { name: /Production/ }).click();
    await page.getByText("Question 2 of 3").waitFor();
    await page.getByRole("checkbox", { name: /US/ }).click();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByText("Question 3 of 3").waitFor();

    await page.getByRole("radio", { name: "Other…" }).click();
    const text = page.getByRole("textbox", { name: "Your answer" });
    await text.waitFor();
    expect(await text.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await text.fill("Release notes in the team channel");
    await screenshot(page, "stepper-other");

    await page.getByRole("button", { name: "Back" }).click();
    await page.getByText("Question 2 of 3").waitFor();
    expect(await page.getByRole("checkbox", { name: /US/ }).getAttribute("aria-checked")).toBe("true");
    await page.getByRole("button", { name: "Back" }).click();
    await page.getByText("Question 1 of 3").waitFor();
    expect(await page.getByRole("radio", { name: /Production/ }).getAttribute("aria-checked")).toBe("true");
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByText("Question 3 of 3").waitFor();
    expect(await page.getByRole("textbox", { name: "Your answer" }).inputValue()).toBe(
      "Release notes in the team channel",
    );
    await page.getByRole("textbox", { name: "Your answer" }).press("Enter");

    // The review of every answer comes before the Send (issue #22).
    const review = page.getByRole("region", { name: "Review your answers" });
    await review.waitFor();
    expect(await review.textContent()).toContain("Release notes in the team channel");
    await page.getByRole("button", { name: "Send answers" }).click();
    await review.waitFor({ state: "detached" });
    expect((await question(gw.url, id)).answers).toEqual({
      environment: ["Production"],
      regions: ["US"],
      announce: ["Release notes in the team channel"],
    });
  });

  it("Skip declines the whole prompt (asking first, with an answer staged)", async () => {
    const gw = await testGateway();
    const id = await ask(gw.url, releasePlan);
    const page = await openPanel(`${gw.url}/`);
    await page.getByRole("radio", { name: /Production/ }).click();
    await page.getByRole("button", { name: "Skip" }).click();
    await page.getByRole("button", { name: "Skip all 3" }).click();
    const card = page.locator(`[data-question-id="${id}"]`);
    await expect.poll(() => card.textContent()).toContain("Skipped — operator via web panel");
    expect(await page.getByRole("radiogroup").count()).toBe(0);
    expect(await question(gw.url, id)).toMatchObject({ status: "skipped", resolvedBy: { channel: "web" } });
    await screenshot(page, "skipped");
  });

  it("asks the oldest pending prompt first, queues the others, collapses on Esc and moves with the arrows", async () => {
    const gw = await testGateway();
    const first = await ask(gw.url, deploy);
    const second = await ask(gw.url, regions);
    const page = await openPanel(`${gw.url}/`);

    await page.getByRole("radio", { name: /Staging/ }).waitFor();
    expect(await page.getByText("1 more waiting after this one").count()).toBe(1);

    await page.keyboard.press("Escape");
    const bar = page.getByRole("button", { name: /2 questions waiting/ });
    await bar.waitFor();
    expect(await page.getByRole("radiogroup").count()).toBe(0);
    expect(await bar.getAttribute("aria-expanded")).toBe("false");
    await screenshot(page, "collapsed");

    await bar.click();
    const staging = page.getByRole("radio", { name: /Staging/ });
    await staging.waitFor();
    await staging.focus();
    await page.keyboard.press("ArrowDown");
    expect(
      await page
        .getByRole("radio", { name: /Production/ })
        .evaluate((el) => el === el.ownerDocument.activeElement),
    ).toBe(true);
    await page.keyboard.press("Enter");

    await page.getByRole("checkbox", { name: /EU/ }).waitFor();
    expect(await page.getByText(/more waiting/).count()).toBe(0);
    expect((await question(gw.url, first)).answers).toEqual({ deploy_target: ["Production"] });
    expect((await question(gw.url, second)).status).toBe("pending");
  });
});
