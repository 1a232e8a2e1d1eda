// plus_minus.js: the Plus & Minus table (renderer interface: see static/js/table.js).
//
// view = {phase: "play"|"swap"|"king"|"pass"|"over", players, viewer, round, rounds_total, dealer,
//         current, first_turn, plays_left, turn: {seat, drawn, plays, lost}, last_turn,
//         draw_stack, seats: [{seat, left, hand_count, plus: {top, size}, minus: {top, size},
//         total}], hand: [cards] | null, last_pass: {from, to, card?} | null, totals,
//         round_scores: [[..]], last_round: {round, dealer, scores, totals, seats: [{plus, minus,
//         hand, plus_points, minus_points, hand_points, score}]} | null, options}
// The revealed view of replays adds seats[s].hand, seats[s].plus.cards / minus.cards, deck.
// actions: {"type": "play", card, seat, stack}, {"type": "swap", a_seat, a_stack, b_seat,
//          b_stack}, {"type": "king", seats: [a, b]}, {"type": "pass", card, to}

import { cardEl, cardName, cardText, parseCard } from "../js/cards.js";
import { el, fill } from "../js/dom.js";
import { clockNode, deadlineOf } from "../js/table/clock.js";
import { createMoveLog } from "../js/table/movelog.js";
import { drawOutcome, finalScores, winnersOf } from "../js/table/outcome.js";
import { seatWords } from "../js/table/seats.js";
import { capital, plural } from "../js/words.js";

const KINDS = ["plus", "minus"];
const RANK_NUMBER = { A: 1, J: 11, Q: 12, K: 13 };
const POINTS = { A: 20, 2: 5, 3: 5, 4: 5, 5: 5, 6: 0, 7: 0, 8: 0, 9: 0, 10: 10, J: 10, Q: 10, K: 10 };

const rankOf = (card) => {
  const rank = parseCard(card).rank;
  return RANK_NUMBER[rank] ?? Number(rank);
};
const pointsOf = (card) => POINTS[parseCard(card).rank] ?? 0;
const isWild = (top) => top === null || top === undefined || [1, 13].includes(rankOf(top));
const fits = (card, top) => isWild(top) || Math.abs(rankOf(card) - rankOf(top)) <= 1;
const stackKey = (seat, kind) => `${seat}:${kind}`;
const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");
const KIND_TITLE = { plus: "Plus", minus: "Minus" };

export function mount(root, ctx) {
  let msg = null;
  let prev = null;
  let busy = false;
  let pick = null; // the selected hand card (play or pass)
  let swapPicks = []; // stack keys picked for a 10's swap
  let kingPicks = []; // seats picked for a King
  let focusNext = null; // data-focus key to focus after the next render

  const part = (cls, tag = "div") => el(tag, { class: cls });
  const ui = {
    status: part("pm-status", "p"),
    sub: part("pm-sub", "p"),
    deck: part("pm-deck"),
    outcome: part("pm-outcome", "section"),
    others: part("pm-others"),
    mine: part("pm-mine"),
    handArea: part("pm-hand-area", "section"),
    rounds: part("pm-rounds", "section"),
  };
  ui.outcome.dataset.testid = "outcome";
  ui.outcome.hidden = true;
  ui.status.setAttribute("aria-live", "polite");
  // the latest moves, newest first, with a line for each round just scored
  const log = createMoveLog((state, before) => {
    const view = state.view;
    const fresh = [];
    if (view.last_round && before && before.view.last_round?.round !== view.last_round.round) {
      fresh.push(roundLine(view.last_round));
    }
    if (state.last) fresh.push(describe(state.last));
    return fresh;
  }, { prefix: "pm" });
  const table = el("div", { class: "felt pm" },
    el("div", { class: "pm-top" }, el("div", { class: "pm-top-text" }, ui.status, ui.sub), ui.deck),
    ui.outcome,
    el("section", { class: "pm-board", "aria-label": "The stacks" },
      ui.others,
      el("div", { class: "pm-front" }, ui.mine, ui.handArea)),
    log.element, ui.rounds, helpPanel());
  root.append(table);

  // ------------------------------------------------------------- helpers
  const v = () => msg.view;
  const me = () => ctx.seat; // identity: "you", the hand, the controls
  // Orientation (ctx.perspective): the viewer's own seat, or the seat a spectator follows, sits
  // in front; the others follow it in seat order (the player to its left first).
  const front = () => ctx.perspective ?? ctx.seat ?? 0;
  const followed = (seat) => me() === null && seat === front();
  // A seat's name; seats sharing a name (bots) get their seat number too.
  const plainName = (seat) => {
    const name = ctx.names[seat] || `Seat ${seat + 1}`;
    const twins = ctx.names.filter((other) => other === name).length > 1;
    return twins ? `${name} #${seat + 1}` : name;
  };
  const who = (seat) => (seat === me() ? "you" : plainName(seat));
  const Who = (seat) => capital(who(seat));
  const words = { ...seatWords(ctx), name: plainName, who: Who };
  const stackName = (seat, kind) => (seat === me() ? `your ${KIND_TITLE[kind]}` : `${plainName(seat)}'s ${KIND_TITLE[kind]}`);
  const stackOf = (seat, kind) => v().seats[seat][kind];
  const topText = (seat, kind) => {
    const stack = stackOf(seat, kind);
    return stack.top ? `top ${cardText(stack.top)}, ${plural(stack.size, "card")}` : "empty";
  };
  const isOver = () => Boolean(msg.over) || v().phase === "over";
  const legal = () => (me() === null || !msg || busy || isOver() ? [] : msg.legal || []);
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
  const leftOf = (seat) => (seat + 1) % v().players;
  const rightOf = (seat) => (seat + v().players - 1) % v().players;
  const seatOrder = () => {
    const n = v().players;
    return Array.from({ length: n - 1 }, (_, i) => (front() + 1 + i) % n);
  };
  const handOf = (seat) => {
    const entry = v().seats[seat];
    if (Array.isArray(entry.hand)) return entry.hand;
    if (seat === v().viewer && Array.isArray(v().hand)) return v().hand;
    return null;
  };

  function send(action) {
    if (busy) return;
    busy = true;
    render();
    ctx.act(action).catch(() => { busy = false; render(); });
  }

  function notYourTurn() {
    if (isOver()) return;
    if (me() === null) return;
    if (busy) return;
    const current = v().current;
    ctx.explain(current === null ? "" : `It is not your turn: ${plainName(current)} is playing.`);
  }

  // ------------------------------------------------------------- descriptions
  function effectNote(card) {
    const rank = rankOf(card);
    if (rank === 5) return "a 5: 2 more cards and 2 more plays";
    if (rank === 10) return "a 10: two stacks swap";
    if (rank === 13) {
      return v().players === 3
        ? "a King: both other players move their top 2 Minus cards onto their Plus"
        : "a King: two other players move their top 2 Minus cards onto their Plus";
    }
    if (rank === 1) return "an Ace: that stack takes any card";
    return "";
  }

  function describe(last) {
    if (!last || !last.action) return "";
    const { seat, action } = last;
    if (action.type === "play") {
      const note = effectNote(action.card);
      return `${Who(seat)} played the ${cardText(action.card)} on ${stackName(action.seat, action.stack)}${note ? ` (${note})` : ""}.`;
    }
    if (action.type === "swap") {
      return `${Who(seat)} swapped ${stackName(action.a_seat, action.a_stack)} and ${stackName(action.b_seat, action.b_stack)} stacks.`;
    }
    if (action.type === "king") {
      const [a, b] = action.seats;
      return `${Who(seat)} moved the top Minus cards of ${who(a)} and ${who(b)} onto their Plus stacks.`;
    }
    if (action.type === "pass") {
      if (action.card && action.to === me()) return `${Who(seat)} passed you the ${cardText(action.card)}.`;
      if (action.card) return `${Who(seat)} passed the ${cardText(action.card)} to ${who(action.to)}.`;
      return `${Who(seat)} passed a card face down to ${who(action.to)}.`;
    }
    return `${Who(seat)} moved.`;
  }

  function roundLine(round) {
    return `Round ${round.round} scored: ${round.scores.map((s, i) => `${plainName(i)} ${signed(s)}`).join(", ")}.`;
  }



  // ------------------------------------------------------------- status
  function renderTop() {
    const view = v();
    const phase = myPhase();
    const current = view.current;
    let text;
    if (isOver()) text = "The game is over.";
    else if (phase === "play") {
      const extra = view.turn.plays > 0;
      text = extra ? `Your turn: extra play (${plural(view.plays_left, "play")} left from your 5)` : "Your turn: play a card";
    } else if (phase === "swap") text = "Your 10: swap two stacks";
    else if (phase === "king") text = "Your King: choose two players";
    else if (phase === "pass") text = `Your turn: pass a card to ${plainName(leftOf(me()))}`;
    else if (current === null) text = "";
    else {
      const doing = {
        play: "to play", swap: "is choosing two stacks to swap", king: "is choosing two players for the King",
        pass: `is passing a card to ${who(leftOf(current))}`,
      }[view.phase] || "to play";
      text = `${me() === null ? "" : "Waiting: "}${plainName(current)} ${doing}`;
    }
    ui.status.textContent = text;
    ui.status.classList.toggle("pm-status-you", phase !== null);

    const bits = [`Round ${view.round} of ${view.rounds_total}`, `dealt by ${who(view.dealer)}`];
    if (!isOver() && view.turn) {
      const t = view.turn;
      const drew = t.drawn ? `${who(t.seat)} drew ${plural(t.drawn, "card")}${view.first_turn && t.drawn === 2 && t.plays === 0 ? " (first turn of the round)" : ""}` : `${who(t.seat)} drew nothing`;
      bits.push(drew);
      if (t.lost) bits.push(`${who(t.seat)} could not play${t.plays ? " again" : ""}`);
    }
    ui.sub.textContent = capital(bits.join(" · ")) + ".";

    fill(ui.deck,
      el("span", { class: "pm-back pm-back-deck", "aria-hidden": "true" }),
      el("span", { class: "pm-deck-text" },
        el("strong", { class: "pm-deck-count" }, String(view.draw_stack)),
        el("span", {}, view.draw_stack === 1 ? " card to draw" : " cards to draw"),
        el("span", { class: "pm-deck-note muted" }, isOver() ? "All rounds are played." : "The round ends when it runs out.")));
    ui.deck.setAttribute("aria-label", `Draw stack: ${plural(view.draw_stack, "card")} left`);
    ui.deck.setAttribute("role", "img");
    ui.deck.classList.toggle("pm-deck-low", view.draw_stack <= 4);
  }

  // ------------------------------------------------------------- seats and stacks
  function seatBoard(seat) {
    const view = v();
    const entry = view.seats[seat];
    const mine = seat === me();
    const active = !isOver() && view.current === seat;
    const phase = myPhase();
    const chosen = kingPicks.includes(seat);
    const tags = [];
    if (mine) tags.push(el("span", { class: "tag tag-you" }, "You"));
    if (view.dealer === seat) tags.push(el("span", { class: "tag" }, "Dealer"));
    if (active) tags.push(el("span", { class: "tag tag-turn" }, "To play"));
    // who passes to whom, seen from the front seat (named when a spectator follows it)
    const anchor = me() === null ? plainName(front()) : null;
    if (seat !== front() && seat === leftOf(front())) {
      tags.push(el("span", { class: "tag pm-tag-dir", title: anchor ? `${anchor} passes cards to this player` : "You pass your cards to this player" },
        anchor ? `Gets ${anchor}'s pass` : "Gets your pass"));
    } else if (seat !== front() && seat === rightOf(front())) {
      tags.push(el("span", { class: "tag pm-tag-dir", title: anchor ? `This player passes cards to ${anchor}` : "This player passes cards to you" },
        anchor ? `Passes to ${anchor}` : "Passes to you"));
    }
    const deadline = deadlineOf(msg, seat);
    if (deadline) tags.push(clockNode(deadline, { className: "tag pm-clock", label: `Time left for ${plainName(seat)}`, after: " left" }));

    let kingToggle = null;
    if (phase === "king" && kingSeats().includes(seat)) {
      kingToggle = el("button", {
        type: "button", class: "btn btn-small pm-king-toggle" + (chosen ? " btn-primary" : ""),
        "aria-pressed": String(chosen), dataset: { focus: `king-board-${seat}` },
        onclick: () => toggleKing(seat),
      }, chosen ? "✓ Chosen" : "Choose");
    }

    const hand = handOf(seat);
    const handLine = mine && !Array.isArray(entry.hand) ? null : el("div", { class: "pm-seat-hand" },
      hand
        ? el("span", { class: "pm-mini-hand", "aria-label": `${plainName(seat)}'s hand: ${hand.map(cardName).join(", ") || "empty"}` },
          hand.length ? hand.map((c) => cardEl(c, { class: "card-small" })) : el("span", { class: "muted" }, "empty hand"))
        : el("span", { class: "pm-backs", "aria-hidden": "true" },
          Array.from({ length: Math.min(entry.hand_count, 6) }, () => el("span", { class: "pm-back" }))),
      hand ? null : el("span", { class: "muted" }, `${plural(entry.hand_count, "card")} in hand`));

    return el("article", {
      class: "pm-seat" + (mine ? " pm-seat-me" : "") + (followed(seat) ? " pm-seat-followed" : "") + (active ? " pm-seat-active" : "") + (chosen ? " pm-seat-chosen" : ""),
      dataset: { seat },
      "aria-label": `${mine ? "Your" : `${plainName(seat)}'s`} stacks, total ${entry.total} points`,
    },
    el("header", { class: "pm-seat-head" },
      el("div", { class: "pm-seat-title" },
        el("span", { class: "pm-name" }, mine ? `${plainName(seat)} (you)` : plainName(seat)),
        el("span", { class: "pm-total", title: "Total score so far" },
          el("strong", { dataset: { total: seat } }, String(entry.total)), el("span", { class: "pm-total-unit" }, " pts"))),
      tags.length ? el("div", { class: "pm-tags" }, tags) : null),
    el("div", { class: "pm-stacks" }, KINDS.map((kind) => stackEl(seat, kind))),
    chosen ? el("p", { class: "pm-king-note" }, `King: ${plural(Math.min(entry.minus.size, 2), "Minus card")} → Plus`) : null,
    kingToggle,
    handLine);
  }

  function stackEl(seat, kind) {
    const stack = stackOf(seat, kind);
    const key = stackKey(seat, kind);
    const phase = myPhase();
    const name = stackName(seat, kind);
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
    const base = `${capital(name)} stack, ${topText(seat, kind)}`;
    if (phase === "play" && pick) {
      const target = targetsOf(pick).find((a) => a.seat === seat && a.stack === kind);
      if (target) {
        pile = el("button", {
          type: "button", class: `${cls} pm-target`, dataset: { focus: `stack-${key}`, stack: key },
          "aria-label": `Play the ${cardName(pick)} on ${name} stack (${topText(seat, kind)})`,
          onclick: () => send(target),
        }, pileInner);
      } else {
        pile = el("div", {
          class: `${cls} pm-not-target`, role: "img", "aria-label": base, dataset: { stack: key },
          onclick: () => ctx.explain(`The ${cardText(pick)} does not fit on ${name} stack (top ${cardText(stack.top)}): play the same rank or one higher or lower, or anything on an Ace, a King or an empty stack.`),
        }, pileInner);
      }
    } else if (phase === "swap" && swapKeys().has(key)) {
      const at = swapPicks.indexOf(key);
      const canPick = at >= 0 || swapPicks.length === 0 || (swapPicks.length === 1 && swapFor(swapPicks[0], key));
      if (canPick) {
        pile = el("button", {
          type: "button", class: `${cls} pm-target pm-swappable${at >= 0 ? " pm-picked" : ""}`,
          "aria-pressed": String(at >= 0), dataset: { focus: `stack-${key}`, stack: key, pickNo: at >= 0 ? at + 1 : undefined },
          "aria-label": `${at >= 0 ? `Picked ${at === 0 ? "first" : "second"}: ` : "Swap "}${name} stack (${topText(seat, kind)})`,
          onclick: () => toggleSwap(key),
        }, pileInner);
      } else {
        pile = el("div", {
          class: `${cls} pm-not-target`, role: "img", "aria-label": base, dataset: { stack: key },
          onclick: () => ctx.explain("You have picked two stacks already: swap them, or start over."),
        }, pileInner);
      }
    } else {
      pile = el("div", {
        class: cls, role: "img", "aria-label": base, dataset: { stack: key },
        onclick: () => {
          if (phase === "play") ctx.explain("Pick a card from your hand first; the stacks it fits will light up.");
          else if (phase === "pass") ctx.explain(`Your plays are done: pass one card from your hand to ${plainName(leftOf(me()))}.`);
          else if (phase === "king") ctx.explain("Your King: choose two other players (the buttons on their boards or below your hand).");
          else notYourTurn();
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
    const at = swapPicks.indexOf(key);
    if (at >= 0) swapPicks = swapPicks.filter((k) => k !== key);
    else if (swapPicks.length < 2) swapPicks = [...swapPicks, key];
    focusNext = swapPicks.length === 2 ? "swap-confirm" : `stack-${key}`;
    render();
  }

  function toggleKing(seat) {
    if (kingPicks.includes(seat)) kingPicks = kingPicks.filter((s) => s !== seat);
    else if (kingPicks.length >= 2) {
      ctx.explain("A King moves cards for exactly two players: unselect one first.");
      return;
    } else kingPicks = [...kingPicks, seat];
    render();
  }

  // ------------------------------------------------------------- hand and guide
  function renderHand() {
    const view = v();
    if (me() === null) {
      const shown = v().seats.some((entry) => handOf(entry.seat));
      fill(ui.handArea, el("p", { class: "muted pm-watch" }, shown
        ? "Replay: the hands shown are the players' real hands."
        : `You are watching ${plainName(front())}'s side of the table: each stack shows its top card and its size; hands stay hidden.`));
      return;
    }
    const hand = view.hand || [];
    const phase = myPhase();
    const playable = playableCards();
    const received = view.last_pass && view.last_pass.to === me() && view.last_pass.card && hand.includes(view.last_pass.card)
      ? view.last_pass.card : null;
    const handPoints = hand.reduce((sum, c) => sum + pointsOf(c), 0);

    const slots = hand.map((card) => {
      const pts = el("span", { class: "pm-pts", "aria-hidden": "true" }, `${pointsOf(card)} pt${pointsOf(card) === 1 ? "" : "s"}`);
      const isNew = card === received ? el("span", { class: "pm-new", title: `Passed to you by ${plainName(view.last_pass.from)}` }, `new · ${pointsOf(card)} pts`) : null;
      const selected = pick === card;
      let node;
      if ((phase === "play" && playable.has(card)) || (phase === "pass" && passFor(card))) {
        const verb = phase === "play" ? "Play" : "Pass";
        node = cardEl(card, {
          tag: "button",
          class: `pm-hand-card pm-choosable${selected ? " pm-selected" : ""}`,
          "aria-pressed": String(selected),
          "aria-label": `${verb} the ${cardName(card)} (${pointsOf(card)} points)${selected ? ", selected" : ""}`,
          dataset: { card, focus: `card-${card}` },
          onclick: (event) => selectCard(card, event.detail === 0),
        });
      } else {
        node = cardEl(card, {
          class: `pm-hand-card${phase === "play" ? " pm-dim" : ""}`,
          onclick: () => {
            if (phase === "play") ctx.explain(`The ${cardText(card)} fits no stack: each top is more than one rank away, and no stack shows an Ace, a King or is empty.`);
            else if (phase === "swap") ctx.explain("First finish your 10: pick two stacks to swap.");
            else if (phase === "king") ctx.explain("First finish your King: choose two players.");
            else notYourTurn();
          },
        });
      }
      return el("li", { class: "pm-slot" + (selected ? " pm-slot-selected" : "") }, node, isNew || pts);
    });

    fill(ui.handArea,
      el("h3", { class: "pm-hand-title" }, "Your hand",
        el("span", { class: "muted" }, ` · ${plural(hand.length, "card")} · ${handPoints} pts if kept at the end`)),
      received ? el("p", { class: "pm-received" }, `${plainName(view.last_pass.from)} passed you the `,
        el("strong", {}, cardText(received)), ".") : null,
      hand.length ? el("ul", { class: "pm-hand", "aria-label": "Your hand" }, slots) : el("p", { class: "muted" }, "Your hand is empty."),
      guide());
  }

  function selectCard(card, byKeyboard) {
    const phase = myPhase();
    pick = pick === card && phase === "play" ? null : card; // a second click puts a card back
    if (pick && phase === "play" && byKeyboard) {
      const first = targetsOf(pick)[0];
      if (first) focusNext = `stack-${stackKey(first.seat, first.stack)}`;
    } else if (pick && phase === "pass" && byKeyboard) focusNext = "pass-confirm";
    ctx.explain("");
    render();
  }

  function guide() {
    const view = v();
    const phase = myPhase();
    const box = (title, text, ...controls) => el("div", { class: "pm-guide", role: "group", "aria-label": title },
      el("p", { class: "pm-guide-title" }, title),
      text ? el("p", { class: "pm-guide-text" }, text) : null,
      controls.flat().filter(Boolean).length ? el("div", { class: "pm-guide-controls" }, controls) : null);
    if (busy) return box("Sending…", "");
    if (isOver()) return null;
    if (phase === null) {
      const current = view.current;
      if (current === null) return null;
      return box(`${plainName(current)}'s turn`, "Wait for your turn. Meanwhile: same rank or one off fits a stack; an Ace or a King on top takes any card.");
    }
    if (phase === "play") {
      const extra = view.turn.plays > 0 ? `Extra play from your 5: ${plural(view.plays_left, "play")} left. ` : "";
      if (!pick) {
        return box(`${extra}Step 1: pick a card`,
          "Bright cards fit at least one stack (same rank, or one higher or lower; anything goes on an Ace, a King or an empty stack). Your own and everyone else's stacks count.");
      }
      const targets = targetsOf(pick);
      const note = effectNote(pick);
      return box(`Step 2: play the ${cardText(pick)} on a lit stack`,
        `${note ? `It is ${note}. ` : ""}A card on a Plus stack counts for its owner, on a Minus stack against them.`,
        targets.map((a) => el("button", {
          type: "button", class: "btn btn-small pm-target-btn" + (a.stack === "plus" ? " pm-btn-plus" : " pm-btn-minus"),
          dataset: { focus: `go-${a.seat}-${a.stack}` }, onclick: () => send(a),
        }, `${a.stack === "plus" ? "+" : "−"} ${capital(stackName(a.seat, a.stack))}`,
        el("span", { class: "btn-sub" }, stackOf(a.seat, a.stack).top ? `on ${cardText(stackOf(a.seat, a.stack).top)}` : "empty"))),
        el("button", { type: "button", class: "btn btn-small btn-quiet", dataset: { focus: "cancel" }, onclick: () => { pick = null; render(); } }, "Choose another card"));
    }
    if (phase === "swap") {
      const names = swapPicks.map((k) => {
        const [s, kind] = k.split(":");
        return `${stackName(Number(s), kind)} (${topText(Number(s), kind)})`;
      });
      if (swapPicks.length < 2) {
        return box(swapPicks.length === 0 ? "Your 10, step 1 of 2: pick a stack" : "Step 2 of 2: pick the stack to swap it with",
          swapPicks.length === 0
            ? "The 10 swaps two whole stacks, any owners, your own included (Plus with Minus, Minus with Minus…). Click a lit stack."
            : `First pick: ${names[0]}. Click it again to undo.`,
          swapPicks.length ? el("button", { type: "button", class: "btn btn-small btn-quiet", dataset: { focus: "swap-reset" }, onclick: () => { swapPicks = []; render(); } }, "Start over") : null);
      }
      const action = swapFor(swapPicks[0], swapPicks[1]);
      return box("Swap these two stacks?", `${capital(names[0])} ⇄ ${names[1]}.`,
        el("button", { type: "button", class: "btn btn-primary", dataset: { focus: "swap-confirm" }, disabled: !action, onclick: () => action && send(action) }, "Swap them"),
        el("button", { type: "button", class: "btn btn-small btn-quiet", dataset: { focus: "swap-reset" }, onclick: () => { swapPicks = []; render(); } }, "Start over"));
    }
    if (phase === "king") {
      const options = kingSeats();
      const action = kingPicks.length === 2 ? kingFor(kingPicks) : null;
      return box(kingPicks.length < 2 ? `Your King: choose two players (${kingPicks.length} of 2)` : "Move their cards?",
        "For each chosen player, the top 2 cards of their Minus stack move onto their own Plus stack (the Minus top becomes the Plus top).",
        options.map((s) => {
          const chosen = kingPicks.includes(s);
          const minus = stackOf(s, "minus");
          return el("button", {
            type: "button", class: "btn btn-small pm-king-btn" + (chosen ? " pm-king-on" : ""),
            "aria-pressed": String(chosen), dataset: { focus: `king-${s}` }, onclick: () => toggleKing(s),
          }, `${chosen ? "✓ " : ""}${plainName(s)}`,
          el("span", { class: "btn-sub" }, minus.top ? `Minus ${cardText(minus.top)}, ${plural(minus.size, "card")}` : "Minus empty"));
        }),
        el("button", { type: "button", class: "btn btn-primary", dataset: { focus: "king-confirm" }, disabled: !action, onclick: () => action && send(action) },
          action ? `Move for ${plainName(kingPicks[0])} and ${plainName(kingPicks[1])}` : "Choose two players"));
    }
    if (phase === "pass") {
      const left = plainName(leftOf(me()));
      const stuck = view.turn.plays === 0 && view.turn.lost > 0;
      const lostExtra = view.turn.plays > 0 && view.turn.lost > 0;
      const why = stuck ? "None of your cards fits any stack, so you lose your play this turn. "
        : lostExtra ? `Nothing fits for your remaining ${plural(view.turn.lost, "extra play")}, so ${view.turn.lost === 1 ? "it is" : "they are"} lost. ` : "";
      const action = pick ? passFor(pick) : null;
      return box(action ? `Pass the ${cardText(pick)} to ${left}?` : `Pick a card to pass to ${left}`,
        `${why}One card goes face down to your left neighbour; only the two of you see it. Cards still in hand at the end cost their points.`,
        action ? el("button", { type: "button", class: "btn btn-primary", dataset: { focus: "pass-confirm" }, onclick: () => send(action) },
          `Pass the ${cardText(pick)}`) : null,
        action ? el("button", { type: "button", class: "btn btn-small btn-quiet", dataset: { focus: "cancel" }, onclick: () => { pick = null; render(); } }, "Choose another card") : null);
    }
    return null;
  }

  // ------------------------------------------------------------- log, rounds, outcome


  function renderRounds() {
    const view = v();
    const last = view.last_round;
    if (!last) { fill(ui.rounds); ui.rounds.hidden = true; return; }
    ui.rounds.hidden = false;
    const fresh = !isOver() && view.round === last.round + 1 && view.first_turn;
    const n = view.players;
    const cards = (list) => (list.length ? list.map(cardText).join(" ") : "–");
    fill(ui.rounds,
      el("h3", {}, `Round ${last.round} result`, el("span", { class: "muted" }, ` · dealt by ${who(last.dealer)}`),
        fresh ? el("span", { class: "tag tag-turn" }, "just scored") : null),
      el("div", { class: "table-scroll" }, el("table", { class: "score-table pm-score-table" },
        el("thead", {}, el("tr", {},
          el("th", { scope: "col" }, "Player"),
          el("th", { scope: "col", class: "num" }, "Plus"),
          el("th", { scope: "col", class: "num" }, "Minus"),
          el("th", { scope: "col", class: "num" }, "Hand"),
          el("th", { scope: "col", class: "num" }, "Round"),
          el("th", { scope: "col", class: "num" }, "Total"))),
        el("tbody", {}, last.seats.map((s, i) => el("tr", { class: i === me() ? "pm-row-me" : followed(i) ? "pm-row-followed" : "" },
          el("th", { scope: "row" }, plainName(i)),
          el("td", { class: "num pm-plus-pts", title: cards(s.plus) }, s.plus_points ? `+${s.plus_points}` : "0"),
          el("td", { class: "num pm-minus-pts", title: cards(s.minus) }, s.minus_points ? `−${s.minus_points}` : "0"),
          el("td", { class: "num pm-minus-pts", title: cards(s.hand) }, s.hand_points ? `−${s.hand_points}` : "0"),
          el("td", { class: "num" }, el("strong", {}, signed(s.score))),
          el("td", { class: "num" }, String(last.totals[i])))))),
      ),
      el("details", { class: "pm-details" },
        el("summary", {}, `Cards of round ${last.round}`),
        el("ul", { class: "pm-round-cards" }, last.seats.map((s, i) => el("li", {},
          el("strong", {}, plainName(i)), `: Plus ${cards(s.plus)} · Minus ${cards(s.minus)} · hand ${cards(s.hand)}`)))),
      view.round_scores.length > 1 ? el("details", { class: "pm-details" },
        el("summary", {}, `All rounds (${view.round_scores.length})`),
        el("div", { class: "table-scroll" }, el("table", { class: "score-table pm-score-table" },
          el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Round"),
            Array.from({ length: n }, (_, s) => el("th", { scope: "col", class: "num" }, plainName(s))))),
          el("tbody", {}, view.round_scores.map((scores, r) => el("tr", {},
            el("td", {}, String(r + 1)),
            scores.map((score) => el("td", { class: "num" }, signed(score))))))))) : null);
  }

  function renderOutcome() {
    const view = v();
    const scores = finalScores(msg, view.totals);
    drawOutcome(ui.outcome, {
      msg, over: isOver(), words, prefix: "pm", listClass: "pm-final-list", scores,
      winners: winnersOf(msg, scores), headlineWords: { shared: "A shared win" },
      normal: `After ${plural(view.round_scores.length, "round")}, one per dealer.`,
    });
  }

  // ------------------------------------------------------------- render
  function render() {
    if (!msg) return;
    const active = document.activeElement;
    const focused = focusNext || (table.contains(active) ? active.dataset.focus : null);
    focusNext = null;
    table.classList.toggle("is-spectator", me() === null);
    table.dataset.seq = String(msg.seq);
    table.dataset.phase = myPhase() || "wait";
    table.classList.toggle("pm-my-turn", myPhase() !== null);
    renderTop();
    renderOutcome();
    fill(ui.others, seatOrder().map(seatBoard));
    ui.others.dataset.count = String(seatOrder().length);
    fill(ui.mine, seatBoard(front()));
    renderHand();
    renderRounds();
    if (focused) {
      const again = table.querySelector(`[data-focus="${CSS.escape(focused)}"]`);
      if (again) again.focus({ preventScroll: false });
    }
  }

  return {
    update(next) {
      const sameTurn = msg && next.match_id === msg.match_id && next.view.phase === msg.view.phase
        && next.view.current === msg.view.current && next.seq === msg.seq;
      prev = msg;
      msg = next;
      busy = false;
      if (!sameTurn) {
        const hand = v().hand || [];
        if (!(pick && hand.includes(pick) && myPhase() === "play" && playableCards().has(pick) && prev && prev.view.phase === "play")) pick = null;
        if (myPhase() !== "swap") swapPicks = [];
        if (myPhase() !== "king") kingPicks = [];
        if (myPhase() === "pass" && hand.length === 1) pick = hand[0];
      }
      log.update(next);
      render();
    },
    destroy() {
      table.remove();
    },
  };
}

function helpPanel() {
  return el("details", { class: "pm-help" },
    el("summary", {}, "How to play"),
    el("ul", {},
      el("li", {}, "Everyone has a ", el("strong", {}, "Plus"), " stack (counts for them) and a ", el("strong", {}, "Minus"), " stack (counts against them). Only the top card shows."),
      el("li", {}, "On your turn you draw (2 on the round's first turn, then 1) and must play one card on any stack if one fits: the same rank or one higher or lower. An Ace, a King or an empty stack takes any card."),
      el("li", {}, el("strong", {}, "5"), ": draw 2 more and play twice more. ", el("strong", {}, "10"), ": swap any two whole stacks. ",
        el("strong", {}, "King"), ": two other players move the top 2 cards of their Minus onto their Plus."),
      el("li", {}, "Then pass one card face down to your left neighbour."),
      el("li", {}, "When the draw stack runs out the round is scored: Plus points − Minus points − points left in hand. A = 20; 10, J, Q, K = 10; 2–5 = 5; 6–9 = 0. One round per dealer; the highest total wins.")));
}
