// Your-turn alerts. A player who switched to another tab or app must learn that the table waits
// for them: the tab's title and icon change on their turn, and, as they choose at the table (kept
// in this browser), a short sound plays and a notification shows while the tab is hidden. The
// browser's permission for notifications is asked when the player switches them on, never before.
import { t } from "./i18n.js";

const ICON = "static/icons/icon.svg";
const TURN_ICON = "static/icons/icon-turn.svg";

/** Whether this browser can show notifications at all. */
export function notificationsSupported() {
  return typeof window.Notification === "function";
}

/**
 * Ask the browser for notifications: resolves true when they are allowed. Called from the switch's
 * change (a user's gesture, which browsers require), so the question comes only when wanted.
 */
export async function allowNotifications() {
  if (!notificationsSupported()) return false;
  if (Notification.permission === "granted") return true;
  if (Notification.permission === "denied") return false;
  try {
    return (await Notification.requestPermission()) === "granted";
  } catch {
    return false;
  }
}

export class TurnAlerts {
  constructor() {
    this.wasTurn = false;
    this.note = null;
    this.audio = null;
  }

  /** Called at every render: alerts fire once as the turn comes, and are taken back as it goes. */
  update(myTurn, title, prefs) {
    document.title = `${myTurn ? `● ${t("table.yourTurnTitle")} — ` : ""}${title} — Pedro`;
    setIcon(myTurn ? TURN_ICON : ICON);
    if (myTurn && !this.wasTurn) {
      if (prefs.turnSound) this.chime();
      if (prefs.turnNotify && document.hidden) this.notify(title);
    }
    if (!myTurn && this.note) {
      this.note.close();
      this.note = null;
    }
    this.wasTurn = myTurn;
  }

  /** Two short soft tones made on the spot (no sound file to fetch or cache). */
  chime() {
    try {
      this.audio = this.audio || new AudioContext();
      const audio = this.audio;
      if (audio.state === "suspended") audio.resume().catch(() => {});
      [660, 880].forEach((pitch, i) => {
        const start = audio.currentTime + i * 0.16;
        const tone = audio.createOscillator();
        const gain = audio.createGain();
        tone.frequency.value = pitch;
        gain.gain.setValueAtTime(0.0001, start);
        gain.gain.exponentialRampToValueAtTime(0.2, start + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.14);
        tone.connect(gain).connect(audio.destination);
        tone.start(start);
        tone.stop(start + 0.15);
      });
      document.body.dataset.chimes = String(Number(document.body.dataset.chimes || 0) + 1);
    } catch {
      // no audio here (or not allowed yet): the title and icon still say it
    }
  }

  notify(title) {
    if (!notificationsSupported() || Notification.permission !== "granted") return;
    try {
      this.note = new Notification(t("alerts.turnTitle"), {
        body: t("alerts.turnBody", { table: title }),
        icon: "static/icons/icon-192.png",
        tag: "pedro-turn",
      });
      this.note.onclick = () => {
        window.focus();
        this.note?.close();
      };
    } catch {
      // some phones show notifications only from a service worker: the title and icon remain
    }
  }
}

function setIcon(href) {
  const link = document.querySelector('link[rel="icon"]');
  if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
}
