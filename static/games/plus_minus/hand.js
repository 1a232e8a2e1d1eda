// plus_minus/hand.js: your hand (the cards you may play or pass are buttons) and the guide under
// it: the steps of a play, a 10's swap, a King's two players or a pass, with their buttons.
// `tbl` is the table's shared state and parts (see ../plus_minus.js): its state (msg, busy,
// pick, swapPicks, kingPicks, focusNext), ctx, words, ui and the other parts' functions.

import { cardEl, cardName, cardText } from "../../js/cards.js";
import { el, fill } from "../../js/dom.js";
import { capital, plural } from "../../js/words.js";
import { pointsOf, stackKey } from "./cards.js";

export function handPart(tbl) {
  function renderHand() {
    const view = tbl.v();
    if (tbl.me() === null) {
      const shown = tbl.v().seats.some((entry) => tbl.handOf(entry.seat));
      fill(tbl.ui.handArea, el("p", { class: "muted pm-watch" }, shown
        ? "Replay: the hands shown are the players' real hands."
        : `You are watching ${tbl.plainName(tbl.front())}'s side of the table: each stack shows its top card and its size; hands stay hidden.`));
      return;
    }
    const hand = view.hand || [];
    const phase = tbl.myPhase();
    const playable = tbl.playableCards();
    const received = view.last_pass && view.last_pass.to === tbl.me() && view.last_pass.card && hand.includes(view.last_pass.card)
      ? view.last_pass.card : null;
    const handPoints = hand.reduce((sum, c) => sum + pointsOf(c), 0);

    const slots = hand.map((card) => {
      const pts = el("span", { class: "pm-pts", "aria-hidden": "true" }, plural(pointsOf(card), "pt"));
      const isNew = card === received ? el("span", { class: "pm-new", title: `Passed to you by ${tbl.plainName(view.last_pass.from)}` }, `new · ${pointsOf(card)} pts`) : null;
      const selected = tbl.pick === card;
      let node;
      if ((phase === "play" && playable.has(card)) || (phase === "pass" && tbl.passFor(card))) {
        const verb = phase === "play" ? "Play" : "Pass";
        node = cardEl(card, {
          tag: "button",
          class: `pm-hand-card pm-choosable${selected ? " pm-selected" : ""}`,
          "aria-pressed": String(selected),
          "aria-label": `${verb} the ${cardName(card)} (${pointsOf(card)} points)${selected ? ", selected" : ""}`,
          dataset: { card, focus: `card-${card}` },
          onclick: (event) => tbl.selectCard(card, event.detail === 0),
        });
      } else {
        node = cardEl(card, {
          class: `pm-hand-card${phase === "play" ? " pm-dim" : ""}`,
          onclick: () => {
            if (phase === "play") tbl.ctx.explain(`The ${cardText(card)} fits no stack: each top is more than one rank away, and no stack shows an Ace, a King or is empty.`);
            else if (phase === "swap") tbl.ctx.explain("First finish your 10: pick two stacks to swap.");
            else if (phase === "king") tbl.ctx.explain("First finish your King: choose two players.");
            else tbl.notYourTurn();
          },
        });
      }
      return el("li", { class: "pm-slot" + (selected ? " pm-slot-selected" : "") }, node, isNew || pts);
    });

    fill(tbl.ui.handArea,
      el("h3", { class: "pm-hand-title" }, "Your hand",
        el("span", { class: "muted" }, ` · ${plural(hand.length, "card")}`
          + (tbl.isOver() ? "" : ` · ${handPoints} pts if kept at the end`))),
      received ? el("p", { class: "pm-received" }, `${tbl.plainName(view.last_pass.from)} passed you the `,
        el("strong", {}, cardText(received)), ".") : null,
      hand.length ? el("ul", { class: "pm-hand", "aria-label": "Your hand" }, slots) : el("p", { class: "muted" }, "Your hand is empty."),
      guide());
  }

  function selectCard(card, byKeyboard) {
    const phase = tbl.myPhase();
    tbl.pick = tbl.pick === card && phase === "play" ? null : card; // a second click puts a card back
    if (tbl.pick && phase === "play" && byKeyboard) {
      const first = tbl.targetsOf(tbl.pick)[0];
      if (first) tbl.focusNext = `stack-${stackKey(first.seat, first.stack)}`;
    } else if (tbl.pick && phase === "pass" && byKeyboard) tbl.focusNext = "pass-confirm";
    tbl.ctx.explain("");
    tbl.render();
  }

  function guide() {
    const view = tbl.v();
    const phase = tbl.myPhase();
    const box = (title, text, ...controls) => el("div", { class: "pm-guide", role: "group", "aria-label": title },
      el("p", { class: "pm-guide-title" }, title),
      text ? el("p", { class: "pm-guide-text" }, text) : null,
      controls.flat().filter(Boolean).length ? el("div", { class: "pm-guide-controls" }, controls) : null);
    if (tbl.busy) return box("Sending…", "");
    if (tbl.isOver()) return null;
    if (phase === null) {
      const current = view.current;
      if (current === null) return null;
      return box(`${tbl.plainName(current)}'s turn`, "Wait for your turn. Meanwhile: same rank or one off fits a stack; an Ace or a King on top takes any card.");
    }
    if (phase === "play") {
      const extra = view.turn.plays > 0 ? `Extra play from your 5: ${plural(view.plays_left, "play")} left. ` : "";
      if (!tbl.pick) {
        return box(`${extra}Step 1: pick a card`,
          "Bright cards fit at least one stack (same rank, or one higher or lower; anything goes on an Ace, a King or an empty stack). Your own and everyone else's stacks count.");
      }
      const targets = tbl.targetsOf(tbl.pick);
      const note = tbl.effectNote(tbl.pick);
      return box(`Step 2: play the ${cardText(tbl.pick)} on a lit stack`,
        `${note ? `It is ${note}. ` : ""}A card on a Plus stack counts for its owner, on a Minus stack against them.`,
        targets.map((a) => el("button", {
          type: "button", class: "btn btn-small pm-target-btn" + (a.stack === "plus" ? " pm-btn-plus" : " pm-btn-minus"),
          dataset: { focus: `go-${a.seat}-${a.stack}` }, onclick: () => tbl.send(a),
        }, `${a.stack === "plus" ? "+" : "−"} ${capital(tbl.stackName(a.seat, a.stack))}`,
        el("span", { class: "btn-sub" }, tbl.stackOf(a.seat, a.stack).top ? `on ${cardText(tbl.stackOf(a.seat, a.stack).top)}` : "empty"))),
        el("button", { type: "button", class: "btn btn-small btn-quiet", dataset: { focus: "cancel" }, onclick: () => { tbl.pick = null; tbl.render(); } }, "Choose another card"));
    }
    if (phase === "swap") {
      const names = tbl.swapPicks.map((k) => {
        const [s, kind] = k.split(":");
        return `${tbl.stackName(Number(s), kind)} (${tbl.topText(Number(s), kind)})`;
      });
      if (tbl.swapPicks.length < 2) {
        return box(tbl.swapPicks.length === 0 ? "Your 10, step 1 of 2: pick a stack" : "Step 2 of 2: pick the stack to swap it with",
          tbl.swapPicks.length === 0
            ? "The 10 swaps two whole stacks, any owners, your own included (Plus with Minus, Minus with Minus…). Click a lit stack."
            : `First pick: ${names[0]}. Click it again to undo.`,
          tbl.swapPicks.length ? el("button", { type: "button", class: "btn btn-small btn-quiet", dataset: { focus: "swap-reset" }, onclick: () => { tbl.swapPicks = []; tbl.render(); } }, "Start over") : null);
      }
      const action = tbl.swapFor(tbl.swapPicks[0], tbl.swapPicks[1]);
      return box("Swap these two stacks?", `${capital(names[0])} ⇄ ${names[1]}.`,
        el("button", { type: "button", class: "btn btn-primary", dataset: { focus: "swap-confirm" }, disabled: !action, onclick: () => action && tbl.send(action) }, "Swap them"),
        el("button", { type: "button", class: "btn btn-small btn-quiet", dataset: { focus: "swap-reset" }, onclick: () => { tbl.swapPicks = []; tbl.render(); } }, "Start over"));
    }
    if (phase === "king") {
      const options = tbl.kingSeats();
      const action = tbl.kingPicks.length === 2 ? tbl.kingFor(tbl.kingPicks) : null;
      return box(tbl.kingPicks.length < 2 ? `Your King: choose two players (${tbl.kingPicks.length} of 2)` : "Move their cards?",
        "For each chosen player, the top 2 cards of their Minus stack move onto their own Plus stack (the Minus top becomes the Plus top).",
        options.map((s) => {
          const chosen = tbl.kingPicks.includes(s);
          const minus = tbl.stackOf(s, "minus");
          return el("button", {
            type: "button", class: "btn btn-small pm-king-btn" + (chosen ? " pm-king-on" : ""),
            "aria-pressed": String(chosen), dataset: { focus: `king-${s}` }, onclick: () => tbl.toggleKing(s),
          }, `${chosen ? "✓ " : ""}${tbl.plainName(s)}`,
          el("span", { class: "btn-sub" }, minus.top ? `Minus ${cardText(minus.top)}, ${plural(minus.size, "card")}` : "Minus empty"));
        }),
        el("button", { type: "button", class: "btn btn-primary", dataset: { focus: "king-confirm" }, disabled: !action, onclick: () => action && tbl.send(action) },
          action ? `Move for ${tbl.plainName(tbl.kingPicks[0])} and ${tbl.plainName(tbl.kingPicks[1])}` : "Choose two players"));
    }
    if (phase === "pass") {
      const left = tbl.plainName(tbl.leftOf(tbl.me()));
      const stuck = view.turn.plays === 0 && view.turn.lost > 0;
      const lostExtra = view.turn.plays > 0 && view.turn.lost > 0;
      const why = stuck ? "None of your cards fits any stack, so you lose your play this turn. "
        : lostExtra ? `Nothing fits for your remaining ${plural(view.turn.lost, "extra play")}, so ${view.turn.lost === 1 ? "it is" : "they are"} lost. ` : "";
      const action = tbl.pick ? tbl.passFor(tbl.pick) : null;
      return box(action ? `Pass the ${cardText(tbl.pick)} to ${left}?` : `Pick a card to pass to ${left}`,
        `${why}One card goes face down to your left neighbour; only the two of you see it. Cards still in hand at the end cost their points.`,
        action ? el("button", { type: "button", class: "btn btn-primary", dataset: { focus: "pass-confirm" }, onclick: () => tbl.send(action) },
          `Pass the ${cardText(tbl.pick)}`) : null,
        action ? el("button", { type: "button", class: "btn btn-small btn-quiet", dataset: { focus: "cancel" }, onclick: () => { tbl.pick = null; tbl.render(); } }, "Choose another card") : null);
    }
    return null;
  }

  return { renderHand, selectCard };
}
