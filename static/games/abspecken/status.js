// abspecken/status.js: the head of the table: the round, what to do now (with your turn
// clock), the last move and the news of a round just over.
// `tbl` is the table's shared state and parts (see ../abspecken.js): its state (msg, busy, sel,
// preview, ...), ctx, words, ui and the other parts' functions.

import { el, fill } from "../../js/dom.js";
import { clockNode, deadlineOf } from "../../js/table/clock.js";
import { listWords, plural } from "../../js/words.js";
import { HAND_SIZE, orWords } from "./cards.js";
import { describeMove } from "./moves.js";

export function statusPart(tbl) {
  // ------------------------------------------------------------- head and status
  function renderHead() {
    const view = tbl.v();
    const bits = [`Round ${view.round}`];
    if (view.playthrough) bits.push(`playthrough ${view.playthrough}`);
    bits.push(`game ends at ${plural(view.options.end_threshold, "penalty point")}`);
    if (view.options.piggy_die) bits.push("Piggy die on");
    tbl.ui.round.textContent = bits.join(" · ");
    const { text, mine } = statusText();
    tbl.ui.status.textContent = text;
    tbl.ui.status.classList.toggle("spk-status-you", mine);
    const deadline = deadlineOf(tbl.msg, tbl.ctx.seat);
    if (deadline && mine) {
      const after = tbl.v().phase === "decide"
        ? (tbl.legalOf("cannot").length ? "then the timer declares it for you" : "then the timer makes the smallest legal discard for you")
        : "then the timer chooses for you";
      tbl.ui.status.append(" ", clockNode(deadline, { className: "tag spk-clock spk-clock-status", label: "Your time left" }), el("span", { class: "spk-clock-note" }, ` ${after}`));
    }
    const last = describeMove(tbl.msg, null, tbl.words);
    tbl.ui.last.textContent = last;
    tbl.ui.last.hidden = !last;
    const rounds = view.rounds || [];
    const ended = rounds[rounds.length - 1];
    if (view.phase === "pick" && ended && !tbl.isOver()) {
      const winners = ended.finishers.map(tbl.name);
      fill(tbl.ui.news, `Round ${ended.round} is over: ${listWords(winners)} emptied hand and piles. `,
        `Totals so far: ${view.players.map((p) => `${tbl.plainName(p.seat)} ${p.total}`).join(", ")}. `,
        `Round ${view.round} starts: everyone has 24 cards again.`);
      tbl.ui.news.hidden = false;
    } else {
      fill(tbl.ui.news);
      tbl.ui.news.hidden = true;
    }
  }

  function statusText() {
    const view = tbl.v();
    const phase = view.phase;
    const spectator = tbl.ctx.seat === null;
    const waiting = tbl.toAct().filter((s) => s !== tbl.ctx.seat);
    if (tbl.isOver()) return { text: "The game is over.", mine: false };
    if (tbl.busy) return { text: "Sending…", mine: true };
    if (phase === "pick") {
      if (tbl.legalOf("pick").length) return { text: `Pick your opening hand: any ${HAND_SIZE} cards from your draw piles. Everyone picks at the same time, in secret.`, mine: true };
      if (!spectator && view.pending) return { text: `Your hand is chosen. Waiting for ${tbl.joinNames(waiting)} to pick.`, mine: false };
      return { text: `Everyone picks an opening hand in secret: ${committedCount()} chosen.`, mine: false };
    }
    if (phase === "piggy") {
      if (tbl.legalOf("roll").length) return { text: "You roll this time. Add the Piggy die to the roll?", mine: true };
      return { text: `${tbl.plainName(view.roller)} rolls and decides whether to add the Piggy die.`, mine: false };
    }
    if (phase === "gift") {
      if (tbl.legalOf("gift").length) {
        if (tbl.legalOf("no_gift").length) return { text: "Smiling piggy! You may give one of your cards to another player before anyone discards.", mine: true };
        return { text: `Smiling piggy! You must give one of your cards to another player before anyone discards: ${giftReason()}.`, mine: true };
      }
      return { text: `Smiling piggy: ${tbl.plainName(view.roller)} ${giftRule()} a card to another player.`, mine: false };
    }
    if (phase === "decide") {
      if (!spectator && view.pending && view.pending.type === "cannot" && tbl.finished(tbl.ctx.seat)) {
        return { text: `You have finished this round: no cards left in your hand or piles. Waiting for ${tbl.joinNames(waiting)} to decide.`, mine: false };
      }
      if (tbl.legalOf("cannot").length) return { text: "Nothing in your hand fits these dice: declare “I cannot ABspecken!”", mine: true };
      if (tbl.legalOf("discard").length) return { text: `Your move: ${ruleWords(view.targets)}`, mine: true };
      if (!spectator && view.pending) return { text: `You have decided. Waiting for ${tbl.joinNames(waiting)}.`, mine: false };
      return { text: `Everyone decides in secret: ${committedCount()} decided.`, mine: false };
    }
    if (phase === "take") {
      if (tbl.legalOf("take").length) return { text: "You could not discard: take a card from a player who did.", mine: true };
      return { text: `${tbl.name(view.taker)} could not discard and ${view.taker === tbl.ctx.seat ? "take" : "takes"} a card from a player who did.`, mine: false };
    }
    if (phase === "give") {
      const giving = view.giving || {};
      if (tbl.legalOf("give").length) return { text: `${tbl.plainName(giving.taker)} takes a card from you: choose which one to hand over.`, mine: true };
      return { text: `${tbl.name(giving.source)} ${giving.source === tbl.ctx.seat ? "choose" : "chooses"} a card to hand to ${tbl.lname(giving.taker)}.`, mine: false };
    }
    if (phase === "refill") {
      const need = tbl.ctx.seat !== null ? view.players[tbl.ctx.seat].refill_need : 0;
      if (tbl.legalOf("refill").length) return { text: `Top up your hand: take ${plural(need, "card")} of your choice from your draw piles.`, mine: true };
      return { text: `Waiting for ${tbl.joinNames(waiting)} to top up to ${HAND_SIZE} cards.`, mine: false };
    }
    return { text: "", mine: false };
  }

  // The smiling piggy's gift as others see it (the roller's hand is secret): option smile_gift
  // "mandatory" (must), "optional" (may) or "seed" (must only when the roller cannot discard).
  function giftRule() {
    const rule = tbl.v().options.smile_gift;
    if (rule === "mandatory") return "must give";
    if (rule === "optional") return "may give";
    return "may (or, if unable to discard, must) give";
  }

  // why the viewer's gift is compulsory (no "no_gift" among the legal actions)
  function giftReason() {
    return tbl.v().options.smile_gift === "mandatory"
      ? "the gift is compulsory at this table"
      : "none of your cards fits these dice, so the gift is compulsory";
  }

  function committedCount() {
    const players = tbl.v().players;
    return `${players.filter((p) => p.committed).length} of ${players.length}`;
  }

  // "discard cards adding up to 6, or one card showing 2 or 4; no 4s (blue)"
  function ruleWords(targets) {
    const dice = tbl.v().dice;
    if (!dice) return "";
    const sums = targets && targets.length ? targets : [dice.sum];
    const dieValues = [...new Set([dice.d1, dice.d2])].filter((d) => d !== dice.forbidden);
    const dieText = dieValues.length ? `, or one card showing ${orWords(dieValues)}` : "";
    return `discard cards adding up to ${orWords(sums)}${dieText}. No ${dice.forbidden}s (${dice.forbidden_colour}).`;
  }

  return { committedCount, giftReason, giftRule, renderHead, ruleWords, statusText };
}
