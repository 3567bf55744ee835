// benchmarks/offline.py runs this in the offline app's page: a game played in the worker, each
// computer decision timed there (club computers; the person's seat takes its first legal action),
// and the page's main-thread long tasks noted meanwhile.
async ([variant, decisions]) => {
  const { engine } = await import("./static/soloengine.js");
  const e = engine();
  await e.ready;
  const longest = [];
  const observer = new PerformanceObserver((list) => list.getEntries().forEach((t) => longest.push(t.duration)));
  observer.observe({ type: "longtask", buffered: false });
  const call = async (name, ...args) => JSON.parse((await e.timed(name, ...args)).result);
  const setup = { variant, seats: [null, "club", "club", "club"], name: "Bench", seed: "bench" };
  const opened = await call("open_game", JSON.stringify({ setup }));
  if (opened.type === "error") throw new Error(opened.message);
  let state = (await call("receive", JSON.stringify({ type: "join", secret: "" }))).pop();
  const times = [];
  while (times.length < decisions && !state.finished) {
    if ((await e.timed("computer_to_act")).result) {
      const answer = await e.timed("computer_move");
      times.push(answer.ms);
      state = JSON.parse(answer.result).pop();
    } else {
      const legal = state.game.legal;
      const action =
        legal.kind === "list"
          ? legal.actions[0].action
          : legal.alternatives.length
            ? legal.alternatives[0].action
            : `${legal.verb} ${legal.sets[0]}`;
      state = (await call("receive", JSON.stringify({ type: "act", action, seq: state.seq }))).pop();
      if (state.type !== "state") throw new Error(JSON.stringify(state));
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
  observer.disconnect();
  return { times, longest: longest.length ? Math.max(...longest) : 0 };
}
