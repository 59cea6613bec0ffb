// /live-worker.js: a service worker that lets a browser's own EventSource read /v1/live/stream.
//
// EventSource cannot send request headers, and the API takes keys only in a header (a key in
// the query string is refused). This worker sits between the page and the network: for a
// request to /v1/live/stream (this server or any other) it adds "Authorization: Bearer <key>"
// and passes everything else of the request on untouched, Last-Event-ID included, so the
// browser's EventSource reconnects and resumes exactly as the SSE standard has it.
//
// The page hands the key over with postMessage({key}) ({key: null} forgets it). The worker
// keeps it in Cache Storage of this origin (a worker is stopped when idle and its memory lost;
// the next reconnect, ~5 minutes later, must still find the key).
"use strict";

const STORE = "live-worker-key";
const ENTRY = "/live-worker/key";

async function storedKey() {
  const cache = await caches.open(STORE);
  const hit = await cache.match(ENTRY);
  return hit ? (await hit.text()) : null;
}

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", event => event.waitUntil(self.clients.claim()));

self.addEventListener("message", event => {
  const key = event.data && event.data.key;
  event.waitUntil((async () => {
    const cache = await caches.open(STORE);
    if (key) await cache.put(ENTRY, new Response(key));
    else await cache.delete(ENTRY);
    if (event.source) event.source.postMessage({stored: Boolean(key)});
  })());
});

self.addEventListener("fetch", event => {
  if (new URL(event.request.url).pathname !== "/v1/live/stream") return;  // everything else: untouched
  event.respondWith((async () => {
    const key = await storedKey();
    const headers = new Headers(event.request.headers);
    if (key) headers.set("Authorization", "Bearer " + key);
    return fetch(new Request(event.request, {headers}));
  })());
});
