// The offline app's games, kept in the browser (IndexedDB): each is what the worker's
// `saved()` answers — its setup, its actions, and a line for the list — stored after every
// action, so a closed tab's game resumes where it stopped. Imported records are kept too, to be
// watched again.
const DB = "pedro-offline";
const GAMES = "games";
const RECORDS = "records";

let opened = null;

function db() {
  if (!opened) {
    opened = new Promise((resolve, reject) => {
      const request = indexedDB.open(DB, 1);
      request.onupgradeneeded = () => {
        const base = request.result;
        base.createObjectStore(GAMES, { keyPath: "setup.id" });
        base.createObjectStore(RECORDS, { keyPath: "id" });
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }
  return opened;
}

async function request(store, mode, act) {
  const base = await db();
  return new Promise((resolve, reject) => {
    const tx = base.transaction(store, mode);
    const req = act(tx.objectStore(store));
    tx.oncomplete = () => resolve(req ? req.result : undefined);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/** Keep a game (the worker's `saved()`), stamped with the time it was last played. */
export function saveGame(saved) {
  return request(GAMES, "readwrite", (s) => s.put({ ...saved, at: Date.now() }));
}

export function loadGame(id) {
  return request(GAMES, "readonly", (s) => s.get(id));
}

/** Every kept game, the last played first. */
export async function listGames() {
  const games = (await request(GAMES, "readonly", (s) => s.getAll())) || [];
  return games.sort((a, b) => b.at - a.at);
}

export function deleteGame(id) {
  return request(GAMES, "readwrite", (s) => s.delete(id));
}

/** Keep an imported record's text under an id, to watch it again. */
export function saveRecord(id, text, name) {
  return request(RECORDS, "readwrite", (s) => s.put({ id, text, name, at: Date.now() }));
}

export function loadRecord(id) {
  return request(RECORDS, "readonly", (s) => s.get(id));
}
