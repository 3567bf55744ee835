// Words shared by several pages.

export const humanize = (name) => name.replaceAll("_", " ");

/**
 * A table's options in a line: "target 11, slam, no keep nontrumps"; none is "standard rules".
 * `omit`: option names told elsewhere (e.g. "target", shown from the table's own `target`).
 */
export function optionsText(options, omit = []) {
  const entries = Object.entries(options || {}).filter(([k]) => !omit.includes(k));
  if (!entries.length) return "standard rules";
  return entries
    .map(([k, v]) => (v === true ? humanize(k) : v === false ? `no ${humanize(k)}` : `${humanize(k)} ${v === null ? "none" : humanize(String(v))}`))
    .join(", ");
}
