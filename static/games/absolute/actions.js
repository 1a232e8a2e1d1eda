// absolute/actions.js: what this seat may do now (the state's `legal`, best plays first), and
// sending a move: draw, discard, or a play or swap built in draft.js / swap.js.
// `tbl` is the table's shared state and parts (see ../absolute.js): its state (msg, previous,
// busy, lg, selected, draft, swap), ctx, words, ui and the other parts' functions.

import { scoreSet } from "./rules.js";

export function actionsPart(tbl) {
  function emptyLegal() {
    return { drawDeck: false, drawDiscard: false, hold: false, discards: new Set(), swaps: [], plays: [] };
  }

  function readLegal() {
    const legal = tbl.seated() && tbl.msg && Array.isArray(tbl.msg.legal) ? tbl.msg.legal : [];
    const found = emptyLegal();
    for (const action of legal) {
      if (action.type === "draw" && action.source === "deck") found.drawDeck = true;
      else if (action.type === "draw" && action.source === "discard") found.drawDiscard = true;
      else if (action.type === "hold") found.hold = true;
      else if (action.type === "discard") found.discards.add(action.card);
      else if (action.type === "swap") found.swaps.push(action);
      else if (action.type === "play") found.plays.push(action);
    }
    // Best plays first, for "Suggest a set".
    const own = new Map(tbl.view().sets.filter((s) => s.owner === tbl.ctx.seat).map((s) => [s.id, s]));
    const gain = (action) => action.groups.reduce((total, group) => {
      const from = [...own.values()].filter((s) => s.cards.some((c) => group.includes(c)));
      return total + scoreSet(group).score - from.reduce((t, s) => t + s.score, 0);
    }, 0);
    found.plays = found.plays.map((a) => ({ a, g: gain(a) })).sort((x, y) => y.g - x.g).map((x) => x.a);
    return found;
  }


  function send(action, focusAfter = null) {
    if (tbl.busy) return;
    tbl.busy = true;
    tbl.render();
    tbl.ctx.act(action).then(() => {
      if (action.type === "play") { tbl.draft = tbl.emptyDraft(); tbl.selected.clear(); }
      if (action.type === "swap") { tbl.swap = null; tbl.selected.clear(); }
      if (action.type === "discard") tbl.selected.delete(action.card);
    }, () => {}).finally(() => {
      tbl.busy = false;
      if (tbl.msg) { tbl.tidy(); tbl.render(focusAfter); }
    });
  }

  function draw(source) {
    if (tbl.busy) return;
    const ok = source === "deck" ? tbl.lg.drawDeck : tbl.lg.drawDiscard;
    if (ok) { send({ type: "draw", source }, "hand"); return; }
    const v = tbl.view();
    if (!tbl.seated()) return;
    if (tbl.isOver()) tbl.ctx.explain("The match is over.");
    else if (!tbl.myTurn()) tbl.ctx.explain(`It is not your turn: ${tbl.name(v.turn)} is playing.`);
    else if (v.phase !== "draw") tbl.ctx.explain("You have already drawn this turn.");
    else if (source === "deck") tbl.ctx.explain("The deck is empty and there is nothing to reshuffle: take the discard instead.");
    else tbl.ctx.explain("The discard pile is empty.");
  }

  function discardSelected() {
    const [card] = [...tbl.selected];
    if (tbl.selected.size !== 1 || !tbl.lg.discards.has(card)) {
      tbl.ctx.explain("Select exactly one card of your hand to discard.");
      return;
    }
    send({ type: "discard", card }, "hand");
  }

  return { discardSelected, draw, emptyLegal, readLegal, send };
}
