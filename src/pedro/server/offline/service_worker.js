// The offline app's service worker (made by pedro.server.offline.bundle, which fills in VERSION):
// at install it caches every file that files.json lists, then serves them cache-first, so after
// the first visit the app works with no network. Its cache is named by the tree's version and
// its scope: a changed tree is a new cache, and the caches of other versions of this same
// scope are dropped when the new worker takes over.
const VERSION = "__PEDRO_TREE_VERSION__";
const PREFIX = `pedro-play:${self.registration.scope}:`;
const CACHE = PREFIX + VERSION;

/** A path of the tree as the URL this worker caches it under. */
const address = (path) => new URL(path, self.registration.scope).href;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const listing = await fetch(address("files.json"), { cache: "reload" });
      if (!listing.ok) throw new Error(`files.json: HTTP ${listing.status}`);
      const tree = await listing.clone().json();
      // a newer tree was put in place meanwhile: its own worker will install it
      if (tree.version !== VERSION) throw new Error(`files.json is version ${tree.version}, not ${VERSION}`);
      const cache = await caches.open(CACHE);
      await Promise.all(
        tree.files.map(async (path) => {
          // revalidated, not reloaded: a file the page has just fetched is not downloaded again
          const response = await fetch(address(path), { cache: "no-cache" });
          if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
          await cache.put(address(path), response);
        }),
      );
      await cache.put(address("files.json"), listing);
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      // the first visit's page is served from the cache from now on too
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  const scope = new URL(self.registration.scope);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  // the folder's own address (the start URL) is its index.html
  const key = url.pathname === scope.pathname ? address("index.html") : url.href;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      const hit = await cache.match(key, { ignoreSearch: true });
      return hit || fetch(request);
    })(),
  );
});
