// Drives Debian's Chromium through playwright-core over the service's two pages (run by
// tests/service/test_pages.py): /docs (paste a key in Authorize, try GET /v1/countries, see 200
// with data; an error's docs anchor lands on its row) and /live (connect with a Live key, see a
// score change arrive). Every request to another host is refused: the pages must work offline.
// Prints one JSON line per stage on stdout; the Python side answers "LIVE_CONNECTED" by changing
// a score.
"use strict";
const { chromium } = require("playwright-core");

async function main() {
  const [base, key, liveKey, eventId, expected, outDir] = process.argv.slice(2);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM, args: ["--no-sandbox"] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const foreign = [];
  await page.route("**/*", (route) => {
    if (route.request().url().startsWith(base)) return route.continue();
    foreign.push(route.request().url());
    return route.abort();
  });
  const report = (stage, fields) => console.log(JSON.stringify({ stage, ...fields }));

  // /docs: the interactive reference, a try-it call with a key pasted into Authorize
  await page.goto(base + "/docs");
  await page.waitForSelector(".opblock-summary-path", { timeout: 30000 });
  const operations = await page.locator('.opblock-summary-path[data-path^="/v1/"]').count();
  await page.locator("button.authorize").first().click();
  await page.locator(".auth-container input").first().fill(key);
  await page.locator(".auth-container button.authorize").first().click();
  await page.locator("button.btn-done").first().click();
  const op = page.locator(".opblock", { has: page.locator('.opblock-summary-path[data-path="/v1/countries"]') }).first();
  await op.locator(".opblock-summary").first().click();
  await op.locator("button.try-out__btn").click();
  await op.locator("button.execute").click();
  const status = op.locator(".live-responses-table .response .response-col_status").first();
  await status.waitFor({ timeout: 30000 });
  const body = await op.locator(".live-responses-table .response-col_description pre").first().innerText();
  await op.scrollIntoViewIfNeeded();
  await page.screenshot({ path: outDir + "/docs.png" });
  report("docs", { operations, status: (await status.innerText()).trim(), body: body.slice(0, 2000) });

  // an error's docs URL: /docs#rate_limited shows that row
  await page.goto(base + "/docs#rate_limited");
  await page.waitForSelector(".opblock-summary-path", { timeout: 30000 });
  await page.waitForTimeout(300);
  const row = page.locator("#rate_limited");
  const box = await row.boundingBox();
  report("anchor", { found: await row.count(), text: await row.innerText(), top: box ? box.y : null });

  // /live: connect with the key in the fragment, wait for the score change the test makes
  await page.goto(base + "/live#key=" + liveKey);
  await page.waitForFunction(() => document.querySelectorAll("#rows tr").length > 0, null, { timeout: 30000 });
  await page.waitForFunction(() => document.querySelector("#next").textContent.includes("in play"), null,
                              { timeout: 30000 });
  report("live-connected", { rows: await page.locator("#rows tr").count(), next: await page.locator("#next").innerText() });
  try {
    await page.waitForFunction(([id, want]) => [...document.querySelectorAll("#rows tr")].some(
      (tr) => tr.children[0].textContent === id && tr.children[5].textContent === want), [eventId, expected],
      { timeout: 30000 });
  } catch (err) {
    const rows = await page.locator("#rows tr").allInnerTexts();
    throw new Error(`no row ${eventId} with games ${expected}; state: ${await page.locator("#state").innerText()}; ` +
                    `rows: ${rows.join(" | ")}`);
  }
  await page.screenshot({ path: outDir + "/live.png" });
  report("live-changed", { state: await page.locator("#state").innerText() });
  report("done", { foreign });
  await browser.close();
}

main().catch((err) => { console.log(JSON.stringify({ stage: "error", message: String(err && err.stack || err) })); process.exit(1); });
