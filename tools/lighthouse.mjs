// Lighthouse on each URL given, as its CLI runs one (tools/website.py's `lighthouse` calls this):
// a fresh Chromium per page, started by chrome-launcher as the CLI starts it, the same settings,
// and one line of JSON per page on stdout: its category scores and the audits they weigh.
// Why not the CLI: after writing its report it idles 3.5-4 s per page until an HTTP keep-alive
// socket closes (measured on Lighthouse 12.8.2); this process exits when the last page is done.
//
// node tools/lighthouse.mjs '{"device": "desktop"|"mobile", "chromePath": ..., "chromeFlags": [...],
//                            "categories": [...], "wait": ms}' URL...
// "wait": how long a page may take to paint and to load (Lighthouse's own 30 s and 45 s are short
// for a busy slow machine; the caller's limit is there to end a hang, not to time the page).
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktop from 'lighthouse/core/config/desktop-config.js';

const [options, ...urls] = process.argv.slice(2);
const {device, chromePath, chromeFlags, categories, wait} = JSON.parse(options);
if (!['desktop', 'mobile'].includes(device)) throw new Error(`device must be desktop or mobile, not ${device}`);
if (!urls.length) throw new Error('no URL given');

for (const url of urls) {
  const chrome = await chromeLauncher.launch({chromePath, chromeFlags, logLevel: 'silent'});
  try {
    const flags = {port: chrome.port, logLevel: 'silent', output: 'json', onlyCategories: categories,
                   maxWaitForFcp: wait, maxWaitForLoad: wait,
                   disableFullPageScreenshot: true};  // pictures for the HTML report only: 2-3 s a page
    const {lhr} = await lighthouse(url, flags, device === 'desktop' ? desktop : undefined);
    if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    const page = {url, categories: {}, audits: {}};
    for (const [id, category] of Object.entries(lhr.categories)) {
      page.categories[id] = {score: category.score, weights: category.auditRefs.map(ref => [ref.id, ref.weight])};
    }
    for (const [id, audit] of Object.entries(lhr.audits)) page.audits[id] = audit.score;
    console.log(JSON.stringify(page));
  } finally {
    await chrome.kill();
  }
}
process.exit(0);
