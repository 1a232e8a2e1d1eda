// movelog.js: the moves of a match in words, newest last (role "log": a screen reader announces
// each new line). Each game describes one state's `last` action (describe(msg, previous) -> a
// sentence, a list of them, or ""); the log grows while states arrive one move at a time and
// starts again after a jump (a reconnect, a new match, a replay's slider), where only the
// latest move can be told. It keeps the latest `size` lines, scrolled to the newest.

import { el, fill } from "../dom.js";

export const LOG_SIZE = 40;

export function createMoveLog(describe, { size = LOG_SIZE, prefix = "table", title = "Moves" } = {}) {
  let entries = [];
  let previous = null;
  const list = el("ol", { class: `move-log-list ${prefix}-log-list` });
  const element = el("section", { class: `move-log ${prefix}-log`, role: "log", "aria-label": title, hidden: true },
    el("h3", { class: "move-log-title" }, title), list);

  function record(msg) {
    const before = previous;
    previous = msg;
    if (before && before.seq === msg.seq && before.match_id === msg.match_id) return entries;
    const told = describe(msg, before);
    const fresh = (Array.isArray(told) ? told : [told]).filter(Boolean);
    const consecutive = before && before.match_id === msg.match_id && msg.seq === before.seq + 1;
    entries = (consecutive ? [...entries, ...fresh] : fresh).slice(-size);
    return entries;
  }

  return {
    element,
    get entries() { return entries; },
    // record a state and redraw the list, the newest line in view
    update(msg) {
      record(msg);
      element.hidden = !entries.length;
      const newest = entries.length - 1;
      fill(list, entries.map((line, i) => el("li", { class: i === newest ? `move-log-new ${prefix}-log-new` : "" }, line)));
      list.scrollTop = list.scrollHeight;
    },
    record,
  };
}
