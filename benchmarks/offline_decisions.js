// benchmarks/offline.py runs this in the offline app's page: a game of club computers played in
// the worker (the person's seat by the computer too), each decision timed there, and the page's
// main-thread long tasks noted meanwhile.
async ([variant, decisions]) => {
  const { engine } = await import("./static/soloengine.js");
  const e = engine();
  await e.ready;
  const longest = [];
  const observer = new PerformanceObserver((list) => list.getEntries().forEach((t) => longest.push(t.duration)));
  observer.observe({ type: "longtask", buffered: false });
  const setup = { variant, seats: [null, "club", "club", "club"], name: "Bench", seed: "bench" };
  const opened = JSON.parse(await e.call("open_game", JSON.stringify({ setup })));
  if (opened.type === "error") throw new Error(opened.message);
  const times = [];
  let state = null;
  while (times.length < decisions && !(state && state.finished)) {
    const answer = await e.timed("computer_move", true);
    times.push(answer.ms);
    state = JSON.parse(answer.result).pop();
    if (state.type !== "state") throw new Error(JSON.stringify(state));
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
  observer.disconnect();
  return { times, longest: longest.length ? Math.max(...longest) : 0 };
}
