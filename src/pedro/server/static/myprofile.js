// The profile this browser holds (docs/server.md, "Profiles and ratings"): `{id, name, secret}`, kept
// under "pedro-profile" (storage.js keeps the seats' secrets the same way). The secret is the only key
// to the profile: it is sent when taking a seat and for the holder's own page, and no page shows it.
const KEY = "pedro-profile";

/** `{id, name, secret}`, or null when this browser holds no profile. */
export function loadProfile() {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) || "null");
    return value && typeof value.secret === "string" && typeof value.id === "string" ? value : null;
  } catch {
    return null;
  }
}

export function saveProfile({ id, name, secret }) {
  localStorage.setItem(KEY, JSON.stringify({ id, name, secret }));
  localStorage.setItem("pedro-name", name);
}

export function forgetProfile() {
  localStorage.removeItem(KEY);
}

/** The secret to send with a seat request (the profile's name becomes the seat's), or undefined. */
export function profileSecret() {
  const profile = loadProfile();
  return profile ? profile.secret : undefined;
}
