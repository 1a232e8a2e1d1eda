// plus_minus/board.js: each seat's board: its name, total and tags (dealer, turn, who passes to
// whom, the turn clock), its Plus and Minus stacks (lit as targets while you play, swap or pick
// a King's players) and its hand (backs, or the cards in a replay).
// `tbl` is the table's shared state and parts (see ../plus_minus.js): its state (msg, busy,
// pick, swapPicks, kingPicks, focusNext), ctx, words, ui and the other parts' functions.

import { cardEl, cardName, cardText } from "../../js/cards.js";
import { el } from "../../js/dom.js";
import { clockNode, deadlineOf } from "../../js/table/clock.js";
import { capital, plural, signedNumber } from "../../js/words.js";
import { KINDS, KIND_TITLE, isWild, stackKey } from "./cards.js";

export function boardPart(tbl) {
  function seatBoard(seat) {
    const view = tbl.v();
    const entry = view.seats[seat];
    const mine = seat === tbl.me();
    const active = !tbl.isOver() && view.current === seat;
    const phase = tbl.myPhase();
    const chosen = tbl.kingPicks.includes(seat);
    const tags = [];
    if (mine) tags.push(el("span", { class: "tag tag-you" }, "You"));
    if (view.dealer === seat) tags.push(el("span", { class: "tag" }, "Dealer"));
    if (active) tags.push(el("span", { class: "tag tag-turn" }, "To play"));
    // who passes to whom, seen from the front seat (named when a spectator follows it)
    const anchor = tbl.me() === null ? tbl.plainName(tbl.front()) : null;
    if (seat !== tbl.front() && seat === tbl.leftOf(tbl.front())) {
      tags.push(el("span", { class: "tag pm-tag-dir", title: anchor ? `${anchor} passes cards to this player` : "You pass your cards to this player" },
        anchor ? `Gets ${anchor}'s pass` : "Gets your pass"));
    } else if (seat !== tbl.front() && seat === tbl.rightOf(tbl.front())) {
      tags.push(el("span", { class: "tag pm-tag-dir", title: anchor ? `This player passes cards to ${anchor}` : "This player passes cards to you" },
        anchor ? `Passes to ${anchor}` : "Passes to you"));
    }
    const deadline = deadlineOf(tbl.msg, seat);
    if (deadline) tags.push(clockNode(deadline, { className: "tag pm-clock", label: `Time left for ${tbl.plainName(seat)}`, after: " left" }));

    let kingToggle = null;
    if (phase === "king" && tbl.kingSeats().includes(seat)) {
      kingToggle = el("button", {
        type: "button", class: "btn btn-small pm-king-toggle" + (chosen ? " btn-primary" : ""),
        "aria-pressed": String(chosen), dataset: { focus: `king-board-${seat}` },
        onclick: () => tbl.toggleKing(seat),
      }, chosen ? "✓ Chosen" : "Choose");
    }

    const hand = tbl.handOf(seat);
    const handLine = mine && !Array.isArray(entry.hand) ? null : el("div", { class: "pm-seat-hand" },
      hand
        ? el("span", { class: "pm-mini-hand", "aria-label": `${tbl.plainName(seat)}'s hand: ${hand.map(cardName).join(", ") || "empty"}` },
          hand.length ? hand.map((c) => cardEl(c, { class: "card-small" })) : el("span", { class: "muted" }, "empty hand"))
        : el("span", { class: "pm-backs", "aria-hidden": "true" },
          Array.from({ length: Math.min(entry.hand_count, 6) }, () => el("span", { class: "pm-back" }))),
      hand ? null : el("span", { class: "muted" }, `${plural(entry.hand_count, "card")} in hand`));

    return el("article", {
      class: "pm-seat" + (mine ? " pm-seat-me" : "") + (tbl.followed(seat) ? " pm-seat-followed" : "") + (active ? " pm-seat-active" : "") + (chosen ? " pm-seat-chosen" : ""),
      dataset: { seat },
      "aria-label": `${mine ? "Your" : `${tbl.plainName(seat)}'s`} stacks, total ${entry.total} points`,
    },
    el("header", { class: "pm-seat-head" },
      el("div", { class: "pm-seat-title" },
        el("span", { class: "pm-name" }, mine ? `${tbl.plainName(seat)} (you)` : tbl.plainName(seat)),
        el("span", { class: "pm-total", title: "Total score so far" },
          el("strong", { dataset: { total: seat } }, signedNumber(entry.total, "")), el("span", { class: "pm-total-unit" }, " pts"))),
      tags.length ? el("div", { class: "pm-tags" }, tags) : null),
    el("div", { class: "pm-stacks" }, KINDS.map((kind) => stackEl(seat, kind))),
    chosen ? el("p", { class: "pm-king-note" }, `King: ${plural(Math.min(entry.minus.size, 2), "Minus card")} → Plus`) : null,
    kingToggle,
    handLine);
  }

  function stackEl(seat, kind) {
    const stack = tbl.stackOf(seat, kind);
    const key = stackKey(seat, kind);
    const phase = tbl.myPhase();
    const name = tbl.stackName(seat, kind);
    const label = el("span", { class: "pm-stack-label" },
      el("span", { class: "pm-sign", "aria-hidden": "true" }, kind === "plus" ? "+" : "−"),
      KIND_TITLE[kind]);
    const layers = Math.min(Math.max(stack.size - 1, 0), 3);
    const face = stack.top
      ? cardEl(stack.top, { class: "pm-top-card" })
      : el("span", { class: "pm-empty", "aria-hidden": "true" }, "empty");
    const pileInner = [
      el("span", { class: `pm-layers pm-layers-${layers}`, "aria-hidden": "true" }),
      face,
    ];
    const meta = el("span", { class: "pm-stack-meta" },
      el("span", { class: "pm-size" }, plural(stack.size, "card")),
      isWild(stack.top) && stack.size >= 0 ? el("span", { class: "pm-wild", title: "An Ace, a King or an empty stack takes any card" }, "takes any") : null);

    let pile;
    let cls = "pm-pile";
    const base = `${capital(name)} stack, ${tbl.topText(seat, kind)}`;
    if (phase === "play" && tbl.pick) {
      const target = tbl.targetsOf(tbl.pick).find((a) => a.seat === seat && a.stack === kind);
      if (target) {
        pile = el("button", {
          type: "button", class: `${cls} pm-target`, dataset: { focus: `stack-${key}`, stack: key },
          "aria-label": `Play the ${cardName(tbl.pick)} on ${name} stack (${tbl.topText(seat, kind)})`,
          onclick: () => tbl.send(target),
        }, pileInner);
      } else {
        pile = el("div", {
          class: `${cls} pm-not-target`, role: "img", "aria-label": base, dataset: { stack: key },
          onclick: () => tbl.ctx.explain(`The ${cardText(tbl.pick)} does not fit on ${name} stack (top ${cardText(stack.top)}): play the same rank or one higher or lower, or anything on an Ace, a King or an empty stack.`),
        }, pileInner);
      }
    } else if (phase === "swap" && tbl.swapKeys().has(key)) {
      const at = tbl.swapPicks.indexOf(key);
      const canPick = at >= 0 || tbl.swapPicks.length === 0 || (tbl.swapPicks.length === 1 && tbl.swapFor(tbl.swapPicks[0], key));
      if (canPick) {
        pile = el("button", {
          type: "button", class: `${cls} pm-target pm-swappable${at >= 0 ? " pm-picked" : ""}`,
          "aria-pressed": String(at >= 0), dataset: { focus: `stack-${key}`, stack: key, pickNo: at >= 0 ? at + 1 : undefined },
          "aria-label": `${at >= 0 ? `Picked ${at === 0 ? "first" : "second"}: ` : "Swap "}${name} stack (${tbl.topText(seat, kind)})`,
          onclick: () => tbl.toggleSwap(key),
        }, pileInner);
      } else {
        pile = el("div", {
          class: `${cls} pm-not-target`, role: "img", "aria-label": base, dataset: { stack: key },
          onclick: () => tbl.ctx.explain("You have picked two stacks already: swap them, or start over."),
        }, pileInner);
      }
    } else {
      pile = el("div", {
        class: cls, role: "img", "aria-label": base, dataset: { stack: key },
        onclick: () => {
          if (phase === "play") tbl.ctx.explain("Pick a card from your hand first; the stacks it fits will light up.");
          else if (phase === "pass") tbl.ctx.explain(`Your plays are done: pass one card from your hand to ${tbl.plainName(tbl.leftOf(tbl.me()))}.`);
          else if (phase === "king") tbl.ctx.explain("Your King: choose two other players (the buttons on their boards or below your hand).");
          else tbl.notYourTurn();
        },
      }, pileInner);
    }
    const revealed = Array.isArray(stack.cards) && stack.cards.length > 1
      ? el("span", { class: "pm-under", title: "Cards under the top (shown in the replay)" },
        "under: ", stack.cards.slice(0, -1).reverse().map(cardText).join(" "))
      : null;
    return el("div", { class: `pm-stack pm-stack-${kind}` }, label, pile, meta, revealed);
  }

  function toggleSwap(key) {
    const at = tbl.swapPicks.indexOf(key);
    if (at >= 0) tbl.swapPicks = tbl.swapPicks.filter((k) => k !== key);
    else if (tbl.swapPicks.length < 2) tbl.swapPicks = [...tbl.swapPicks, key];
    tbl.focusNext = tbl.swapPicks.length === 2 ? "swap-confirm" : `stack-${key}`;
    tbl.render();
  }

  function toggleKing(seat) {
    if (tbl.kingPicks.includes(seat)) tbl.kingPicks = tbl.kingPicks.filter((s) => s !== seat);
    else if (tbl.kingPicks.length >= 2) {
      tbl.ctx.explain("A King moves cards for exactly two players: unselect one first.");
      return;
    } else tbl.kingPicks = [...tbl.kingPicks, seat];
    tbl.render();
  }

  return { seatBoard, toggleSwap, toggleKing };
}
