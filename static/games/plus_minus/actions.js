// plus_minus/actions.js: the viewer's legal moves (a play's target stacks, the swaps of a 10, the
// pairs of a King, a pass) and sending a move.
// `tbl` is the table's shared state and parts (see ../plus_minus.js): its state (msg, busy,
// pick, swapPicks, kingPicks, focusNext), ctx, words, ui and the other parts' functions.

import { stackKey } from "./cards.js";

export function actionsPart(tbl) {
  const legal = () => (tbl.me() === null || !tbl.msg || tbl.busy || tbl.isOver() ? [] : tbl.msg.legal || []);
  const myPhase = () => {
    const actions = legal();
    return actions.length ? actions[0].type : null;
  };
  const plays = () => legal().filter((a) => a.type === "play");
  const playableCards = () => new Set(plays().map((a) => a.card));
  const targetsOf = (card) => plays().filter((a) => a.card === card);
  const swapFor = (a, b) => {
    const [as, ak] = a.split(":");
    const [bs, bk] = b.split(":");
    return legal().find((x) => x.type === "swap" && (
      (x.a_seat === Number(as) && x.a_stack === ak && x.b_seat === Number(bs) && x.b_stack === bk)
      || (x.a_seat === Number(bs) && x.a_stack === bk && x.b_seat === Number(as) && x.b_stack === ak))) || null;
  };
  const swapKeys = () => {
    const keys = new Set();
    for (const x of legal()) {
      if (x.type !== "swap") continue;
      keys.add(stackKey(x.a_seat, x.a_stack));
      keys.add(stackKey(x.b_seat, x.b_stack));
    }
    return keys;
  };
  const kingSeats = () => [...new Set(legal().filter((a) => a.type === "king").flatMap((a) => a.seats))];
  const kingFor = (seats) => legal().find((a) => a.type === "king"
    && a.seats.length === seats.length && seats.every((s) => a.seats.includes(s))) || null;
  const passFor = (card) => legal().find((a) => a.type === "pass" && a.card === card) || null;

  function send(action) {
    if (tbl.busy) return;
    tbl.busy = true;
    tbl.render();
    tbl.ctx.act(action).catch(() => { tbl.busy = false; tbl.render(); });
  }

  function notYourTurn() {
    if (tbl.isOver()) return;
    if (tbl.me() === null) return;
    if (tbl.busy) return;
    const current = tbl.v().current;
    tbl.ctx.explain(current === null ? "" : `It is not your turn: ${tbl.plainName(current)} is playing.`);
  }

  return { legal, myPhase, plays, playableCards, targetsOf, swapFor, swapKeys, kingSeats, kingFor, passFor, send, notYourTurn };
}
