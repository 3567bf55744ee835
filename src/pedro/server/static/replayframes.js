// The replay's frames rebuilt from what the server sends: frame 0 whole, then for each action only
// what changed (docs/server.md, "Replay frames"). Unchanged parts are shared with the frame before,
// so a long game's frames take memory in proportion to its length.

/** Every frame whole, from frame 0 and the deltas after it. */
export function expandFrames(sent) {
  if (!sent.length) return [];
  const frames = [sent[0]];
  for (let i = 1; i < sent.length; i++) frames.push(applyDelta(frames[i - 1], sent[i]));
  return frames;
}

function applyDelta(prev, delta) {
  const { hands, game, append, ...whole } = delta;
  const frame = { ...prev, ...whole };
  if (hands) frame.hands = hands.map((cards, seat) => cards ?? prev.hands[seat]);
  if (game || append) {
    frame.game = { ...prev.game, ...game };
    for (const [key, items] of Object.entries(append || {})) frame.game[key] = prev.game[key].concat(items);
  }
  return frame;
}
