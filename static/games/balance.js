// balance.js: the Balance table (renderer interface: see static/js/table.js).
//
// view = {mode: "multi"|"solo", phase: "playing"|"over", round, dealer, to_move, you,
//         balance, pile: [{kind: "play"|"start"|"automaton", seat, card, direction, before,
//         after, points, matched?}], stock (count), hand ([cards] | null), drawn, hand_counts,
//         points, round_points, eliminated, last_play, rounds, last_round, options,
//         rules: {limit, win_points, out_points} | {limit, target}, result, automaton (solo)}
// A replay frame (engine.reveal) adds hands: [[cards] per seat] and stock_cards (next first).
// action: {"type": "play", "card": "7H", "direction": 1 | -1}

import { cardEl, cardName, cardText, isJoker, parseCard } from "../js/cards.js";
import { el, fill } from "../js/dom.js";
import { clockNode, deadlineOf } from "../js/table/clock.js";
import { createMoveLog } from "../js/table/movelog.js";
import { drawOutcome, finalScores, headline as headlineOf } from "../js/table/outcome.js";
import { seatWords } from "../js/table/seats.js";
import { plural } from "../js/words.js";

const SCALE = 20; // the gauge shows -20 .. +20; values beyond sit at its ends with an arrow
const TRAIL = 8; // how many recent pile cards the strip shows

const DECISIONS = {
  win: "reached the winning total with the highest score",
  tie: "Several players reached the winning total with the same score: another round.",
  last_survivor: "is the last player not eliminated",
  all_eliminated: "Everyone left fell to the elimination total; the best of them wins.",
  round_cap: "The round limit was reached; the best total wins.",
};

export function mount(root, ctx) {
  let msg = null;
  let busy = false;
  let keepFocus = false;

  const part = (cls, tag = "div", props = {}) => el(tag, { class: cls, ...props });
  const ui = {
    board: part("bl-players", "ul", { "aria-label": "Points" }),
    meta: part("bl-meta", "p"),
    outcome: part("bl-outcome", "section", { "aria-label": "Result", dataset: { testid: "outcome" } }),
    status: part("bl-status", "p"),
    news: part("bl-news", "p"),
    stock: part("bl-stock"),
    meter: part("bl-meter"),
    pile: part("bl-pile"),
    trail: part("bl-trail-area", "section", { "aria-label": "This round's balance pile" }),
    hand: part("bl-hand-area", "section", { "aria-labelledby": "bl-hand-title" }),
    hands: part("bl-hands", "section", { "aria-label": "Every hand" }),
    rounds: part("bl-rounds", "section", { "aria-label": "Rounds" }),
    legend: part("bl-legend", "details"),
  };
  ui.outcome.hidden = true;
  const words = seatWords(ctx, { numberTwins: false });
  const log = createMoveLog((state) => describeMove(state, words), { prefix: "bl" });
  const table = el("div", { class: "felt balance" },
    ui.board, ui.meta, ui.outcome, el("div", { class: "bl-head", "aria-live": "polite" }, ui.status, ui.news),
    el("section", { class: "bl-centre", "aria-label": "The balance" }, ui.stock, ui.meter, ui.pile),
    ui.hand, ui.trail, log.element, ui.hands, ui.rounds, ui.legend);
  root.append(table);

  // ------------------------------------------------------------- helpers
  const v = () => msg.view;
  const solo = () => v().mode === "solo";
  const isOver = () => Boolean(msg.over) || v().phase === "over";
  const plainName = words.plain;
  const who = words.who;
  const limit = () => (v().rules && v().rules.limit) || 9;
  const mover = () => {
    const view = v();
    if (view.to_move !== null && view.to_move !== undefined) return view.to_move;
    return msg.to_act && msg.to_act.length ? msg.to_act[0] : null;
  };
  const legal = () => (ctx.seat === null || !msg || !Array.isArray(msg.legal) ? [] : msg.legal)
    .filter((a) => a && a.type === "play");
  const legalKey = (card, direction) => `${card}|${direction}`;
  const myTurn = () => !isOver() && legal().length > 0;
  // Orientation (ctx.perspective): the hand at the bottom is the viewer's own, or the one of the
  // seat a spectator follows (face down: only its size is public). Identity stays ctx.seat.
  const handOwner = () => ctx.perspective ?? ctx.seat ?? 0;
  const followed = (seat) => ctx.seat === null && seat === handOwner();

  function outcomeOf(after, card) {
    if (after === 0) return 1;
    if (Math.abs(after) > limit() && !isJoker(card)) return -1;
    return 0;
  }

  function send(action) {
    if (busy) return;
    busy = true;
    keepFocus = table.contains(document.activeElement);
    ctx.explain("");
    render();
    ctx.act(action).catch(() => { busy = false; render(); });
  }

  // ------------------------------------------------------------- scoreboard
  function renderBoard() {
    const view = v();
    const turn = isOver() ? null : mover();
    const seats = view.points.map((_, s) => s);
    const items = seats.map((seat) => {
      const out = view.eliminated && view.eliminated[seat];
      const points = view.points[seat];
      const roundPts = view.round_points ? view.round_points[seat] : 0;
      const tags = [
        seat === ctx.seat ? el("span", { class: "tag tag-you" }, "You") : null,
        !solo() && view.dealer === seat ? el("span", { class: "tag" }, "Dealer") : null,
        turn === seat ? el("span", { class: "tag tag-turn" }, "To play") : null,
        out ? el("span", { class: "tag bl-tag-out" }, "Out") : null,
        isOver() && winners().includes(seat) ? el("span", { class: "tag tag-win" }, "Winner") : null,
      ];
      return el("li", {
        class: "bl-player" + (turn === seat ? " bl-player-turn" : "") + (seat === ctx.seat ? " bl-player-me" : "")
          + (followed(seat) ? " bl-player-followed" : "") + (out ? " bl-player-out" : ""),
        dataset: { seat },
      },
      el("div", { class: "bl-player-head" }, el("span", { class: "bl-name" }, plainName(seat)), tags),
      el("div", { class: "bl-player-points" },
        el("strong", { class: "bl-total", dataset: { points } }, signedOrZero(points)),
        el("span", { class: "muted" }, Math.abs(points) === 1 ? " point" : " points"),
        !solo() && roundPts ? el("span", { class: "bl-delta " + (roundPts > 0 ? "bl-good" : "bl-bad") }, ` ${signed(roundPts)} this round`) : null),
      pointsBar(points, view),
      el("div", { class: "bl-player-meta muted" },
        out ? "Eliminated" : `${plural(view.hand_counts[seat], "card")} in hand`,
        deadlineSpan(seat)));
    });
    if (solo()) items.push(automatonBox());
    fill(ui.board, items);
    ui.board.classList.toggle("bl-players-solo", solo());
    const opts = view.options || {};
    fill(ui.meta, solo()
      ? [`Solo · ${view.rules.target} points to win · `, el("span", { class: "muted" }, packText(opts))]
      : [el("strong", {}, `Round ${view.round}`), ` · first to ${view.rules.win_points} points wins · ${signed(view.rules.out_points)} is out · `,
        el("span", { class: "muted" }, packText(opts) + (opts.max_rounds ? ` · at most ${plural(opts.max_rounds, "round")}` : ""))]);
  }

  function pointsBar(points, view) {
    // Two-sided: from the elimination total (or 0 in solo) to the winning total.
    const high = solo() ? view.rules.target : view.rules.win_points;
    const low = solo() ? -view.rules.target : view.rules.out_points;
    const clamp = Math.max(low, Math.min(high, points));
    const bar = el("div", { class: "bl-bar", "aria-hidden": "true" },
      el("span", { class: "bl-bar-zero" }));
    const fillSpan = el("span", { class: "bl-bar-fill " + (points >= 0 ? "bl-bar-up" : "bl-bar-down") });
    const width = points >= 0 ? (clamp / high) * 50 : (clamp / low) * 50;
    fillSpan.style.width = `${width}%`;
    if (points >= 0) fillSpan.style.left = "50%";
    else fillSpan.style.right = "50%";
    bar.append(fillSpan);
    return bar;
  }

  function automatonBox() {
    const auto = v().automaton;
    const left = v().stock;
    let body;
    if (auto) {
      body = [
        el("div", { class: "bl-auto-card" }, cardEl(auto.card, { class: "card-small" }),
          el("span", {}, `Turned the ${cardText(auto.card)}: `, el("strong", {}, equation(auto)),
            auto.matched ? el("span", { class: "bl-points-chip " + (auto.points < 0 ? "bl-bad" : "bl-ok") },
              auto.points < 0 ? "matched: −1 point" : "matched, joker: no cost") : null)),
      ];
    } else {
      body = [el("p", { class: "muted bl-auto-none" }, isOver() || left === 0
        ? "No more cards to turn."
        : "After each of your plays it turns the top card of the stock.")];
    }
    return el("li", { class: "bl-player bl-automaton" },
      el("div", { class: "bl-player-head" }, el("span", { class: "bl-name" }, "Automaton")),
      body);
  }

  // ------------------------------------------------------------- deadlines
  function deadlineSpan(seat) {
    const at = deadlineOf(msg, seat);
    if (!at || isOver()) return null;
    return clockNode(at, { className: "bl-clock", label: `Time left for ${plainName(seat)}`, before: " · ", after: " left" });
  }

  // ------------------------------------------------------------- status lines
  function renderStatus() {
    const view = v();
    const turn = mover();
    let text;
    const extra = [];
    if (isOver()) {
      text = "The game is over.";
    } else if (myTurn()) {
      text = "Your turn: play one card, adding (+) or subtracting (−) it.";
      if (view.drawn) extra.push(`You drew the ${cardText(view.drawn)} (marked New).`);
      else if (view.stock === 0) extra.push("The stock is empty, so there is no draw.");
      const mine = deadlineOf(msg, ctx.seat);
      if (mine) extra.push(el("span", { class: "bl-status-clock" }, "Time left: ", clockNode(mine, { label: "Your time left" })));
    } else if (busy) {
      text = "Sending your play…";
    } else if (turn === null || turn === undefined) {
      text = "";
    } else if (ctx.seat === null) {
      text = `${plainName(turn)} to play.`;
    } else {
      text = `Waiting for ${plainName(turn)} to play…`;
    }
    fill(ui.status, text, extra.length ? el("span", { class: "bl-status-extra" }, extra.map((x, i) => [i ? " " : "", x])) : null);
    ui.status.classList.toggle("bl-status-you", myTurn());
    table.classList.toggle("bl-your-turn", myTurn());

    fill(ui.news, newsLine());
    ui.news.hidden = ui.news.childNodes.length === 0;
  }

  // What just happened, in words: since the viewer's own last play (or the last play or two).
  function newsLine() {
    const view = v();
    const pile = view.pile || [];
    if (!pile.length) {
      if (!solo() && view.last_round && !isOver()) {
        return [`Round ${view.round} begins: ${who(view.dealer)} dealt. Round ${view.last_round.round} scored: `, roundSummary(view.last_round)];
      }
      return [];
    }
    let from = pile.length - 1;
    if (ctx.seat !== null) {
      const mine = pile.map((e) => e.kind === "play" && e.seat === ctx.seat).lastIndexOf(true);
      if (mine >= 0 && pile.length - mine <= 10) from = mine;
    } else if (solo() && pile[from].kind === "automaton" && from > 0) {
      from -= 1;
    }
    const parts = pile.slice(from).map((entry) => describe(entry));
    const lines = parts.map((p, i) => [i ? " " : "", p]);
    if (!solo() && view.last_round && pile.length < activeCount() && !isOver()) {
      lines.unshift(el("span", { class: "bl-news-round" }, `Round ${view.last_round.round} scored: `, roundSummary(view.last_round), " "));
    }
    return lines;
  }

  function describe(entry) {
    const pts = entry.points ? el("span", { class: "bl-points-chip " + (entry.points > 0 ? "bl-good" : "bl-bad") }, pointsText(entry.points, entry.kind === "automaton" ? "you " : "")) : null;
    const move = `${signedOrZero(entry.before)} → ${signedOrZero(entry.after)}`;
    if (entry.kind === "start") return el("span", {}, `The starting card ${cardText(entry.card)} set the balance to ${signedOrZero(entry.after)}.`);
    if (entry.kind === "automaton") {
      return el("span", {}, `The automaton turned the ${cardText(entry.card)}${entry.matched ? " (it matched the balance)" : ""}: ${move}.`, pts);
    }
    const verb = entry.direction > 0 ? "added" : "subtracted";
    return el("span", {}, `${who(entry.seat)} ${verb} the ${cardText(entry.card)}: ${move}.`, pts);
  }

  function roundSummary(record) {
    const seats = record.scores.map((_, s) => s);
    return seats.map((s) => `${who(s)} ${signedOrZero(record.scores[s])}`).join(", ") +
      (record.decision === "tie" ? ". A tie at the top: another round." : "") +
      (record.eliminated && record.eliminated.length ? `. Out: ${record.eliminated.map(plainName).join(", ")}.` : ".");
  }

  function activeCount() {
    return v().eliminated.filter((out) => !out).length;
  }

  // ------------------------------------------------------------- the balance
  function renderCentre() {
    const view = v();
    const balance = view.balance;
    const zone = zoneOf(balance, limit());
    const notes = {
      zero: "Zero! The play that lands here scores a point.",
      safe: `Safe: inside −${limit()} … +${limit()}.`,
      beyond: `Beyond ±${limit()}: a play that ends out here costs a point (jokers excepted).`,
    };
    fill(ui.meter,
      el("p", { class: "bl-meter-label" }, "Balance"),
      el("output", { class: "bl-balance-value", dataset: { zone, value: balance }, "aria-label": `Balance ${spoken(balance)}` }, signedOrZero(balance)),
      el("p", { class: "bl-meter-note" }, notes[zone]),
      gauge(balance));

    fill(ui.stock,
      el("div", { class: "bl-back" + (view.stock ? "" : " bl-back-empty"), "aria-hidden": "true" },
        view.stock ? el("span", { class: "bl-back-count" }, String(view.stock)) : "empty"),
      el("p", { class: "bl-caption" }, el("strong", { class: "bl-stock-count", dataset: { stock: view.stock } }, String(view.stock)), " in stock"),
      view.stock_cards && view.stock_cards.length
        ? el("p", { class: "bl-caption muted" }, "Next: ", cardText(view.stock_cards[0])) : null);

    const pile = view.pile || [];
    const top = pile[pile.length - 1];
    fill(ui.pile,
      top ? el("div", { class: "bl-pile-top" },
        pile.length > 1 ? el("span", { class: "bl-pile-under", "aria-hidden": "true" }) : null,
        cardEl(top.card, { class: "bl-pile-card" }),
        top.kind === "start" ? null : el("span", { class: "bl-op " + (top.direction > 0 ? "bl-op-add" : "bl-op-sub"), "aria-hidden": "true" }, top.direction > 0 ? "+" : "−"))
        : el("div", { class: "bl-back bl-back-empty", "aria-hidden": "true" }, "empty"),
      el("p", { class: "bl-caption" }, el("strong", {}, String(pile.length)), pile.length === 1 ? " card on the pile" : " cards on the pile"),
      top ? el("p", { class: "bl-caption muted" }, entryWho(top)) : null);
  }

  function gauge(balance) {
    const pos = (value) => ((Math.max(-SCALE, Math.min(SCALE, value)) + SCALE) / (2 * SCALE)) * 100;
    const edge = limit() + 0.5;
    const track = el("div", { class: "bl-track" },
      el("span", { class: "bl-zone bl-zone-out", style: `left:0;width:${pos(-edge)}%` }),
      el("span", { class: "bl-zone bl-zone-safe", style: `left:${pos(-edge)}%;width:${pos(edge) - pos(-edge)}%` }),
      el("span", { class: "bl-zone bl-zone-out", style: `left:${pos(edge)}%;right:0` }),
      el("span", { class: "bl-zero", style: `left:${pos(0)}%` }),
      el("span", {
        class: "bl-pin bl-pin-now" + (Math.abs(balance) > SCALE ? " bl-pin-off" : ""),
        style: `left:${pos(balance)}%`,
        dataset: { label: Math.abs(balance) > SCALE ? (balance > 0 ? "▶" : "◀") : "" },
      }),
      el("span", { class: "bl-pin bl-pin-ghost", hidden: true }));
    const ticks = el("div", { class: "bl-ticks", "aria-hidden": "true" },
      [-SCALE, -limit(), 0, limit(), SCALE].map((t) => el("span", { style: `left:${pos(t)}%`, class: t === 0 ? "bl-tick-zero" : "" }, signedOrZero(t))));
    return el("div", {
      class: "bl-gauge", role: "img",
      "aria-label": `Balance ${spoken(balance)} on a scale from minus ${SCALE} to plus ${SCALE}; the safe band is minus ${limit()} to plus ${limit()}, zero scores.`,
    }, track, ticks);
  }

  function showGhost(after) {
    const ghost = ui.meter.querySelector(".bl-pin-ghost");
    if (!ghost) return;
    if (after === null) { ghost.hidden = true; return; }
    const pos = ((Math.max(-SCALE, Math.min(SCALE, after)) + SCALE) / (2 * SCALE)) * 100;
    ghost.style.left = `${pos}%`;
    ghost.dataset.zone = zoneOf(after, limit());
    ghost.dataset.label = signedOrZero(after);
    ghost.hidden = false;
  }

  function entryWho(entry) {
    if (entry.kind === "start") return "Starting card";
    if (entry.kind === "automaton") return `Automaton: ${equation(entry)}`;
    return `${who(entry.seat)}: ${equation(entry)}`;
  }

  // ------------------------------------------------------------- this round's pile
  function renderTrail() {
    const view = v();
    const pile = view.pile || [];
    if (!pile.length) { fill(ui.trail); ui.trail.hidden = true; return; }
    ui.trail.hidden = false;
    const recent = pile.slice(-TRAIL);
    fill(ui.trail,
      el("h3", {}, solo() ? "The balance pile" : `Round ${view.round}: the balance pile`,
        el("span", { class: "muted" }, ` · newest on the right`)),
      el("ol", { class: "bl-trail" }, recent.map((entry) => el("li", {
        class: "bl-step bl-step-" + entry.kind + (entry.seat === ctx.seat && entry.kind === "play" ? " bl-step-mine" : ""),
      },
      cardEl(entry.card, { class: "card-small" }),
      el("span", { class: "bl-step-who" }, entry.kind === "start" ? "Start" : entry.kind === "automaton" ? "Automaton" : who(entry.seat)),
      el("span", { class: "bl-step-move" }, entry.kind === "start" ? "start" : `${signedOrZero(entry.before)} ${entry.direction > 0 ? "+" : "−"} ${valueOf(entry.card)}`),
      el("span", { class: "bl-step-after", dataset: { zone: zoneOf(entry.after, limit()) } }, `= ${signedOrZero(entry.after)}`),
      entry.points ? el("span", { class: "bl-points-chip " + (entry.points > 0 ? "bl-good" : "bl-bad") }, signed(entry.points)) : null))),
      el("details", { class: "bl-pile-all" },
        el("summary", {}, `All ${plural(pile.length, "card")} on the pile, in words`),
        el("ol", {}, pile.map((entry) => el("li", {}, describe(entry))))));
  }

  // ------------------------------------------------------------- the hand
  function renderHand() {
    const view = v();
    const owner = handOwner();
    if (!Array.isArray(view.hand) || (owner !== ctx.seat && owner !== view.you)) { renderHiddenHand(owner); return; }
    if (isOver() && !view.hand.length) {
      fill(ui.hand);
      ui.hand.hidden = true;
      return;
    }
    ui.hand.hidden = false;
    const hand = view.hand;
    const allowed = new Set(legal().map((a) => legalKey(a.card, a.direction)));
    const live = myTurn();
    const mine = owner === ctx.seat;
    const title = mine ? "Your hand" : `${plainName(owner)}'s hand`;
    let hint;
    if (!mine) hint = "";
    else if (isOver()) hint = "";
    else if (live) hint = "Each button shows the new balance and what the play would score. Zero scores +1; ending beyond ±9 costs 1 (not with a joker).";
    else if (view.eliminated && view.eliminated[owner]) hint = `You are out of the game (at ${signed(view.rules.out_points)} or below); you can keep watching.`;
    else if (!hand.length) hint = "You have played all your cards this round; the round ends when every hand is empty.";
    else hint = `Not your turn yet: ${plainName(mover())} is playing. Plan ahead.`;

    const seen = new Map();
    let drawnMarked = false;
    const tiles = hand.map((card) => {
      const n = (seen.get(card) || 0) + 1;
      seen.set(card, n);
      const isNew = !drawnMarked && view.drawn === card && mine;
      if (isNew) drawnMarked = true;
      const choices = [1, -1].filter(() => live && mine).filter((d) => allowed.has(legalKey(card, d)))
        .map((d) => choiceButton(card, d, `${card}:${n}:${d}`));
      return el("li", { class: "bl-tile" + (isNew ? " bl-tile-new" : "") + (choices.length ? " bl-tile-live" : ""), dataset: { card } },
        el("div", { class: "bl-tile-card" },
          cardEl(card, { onclick: () => explainCard(card, choices.length > 0) }),
          isNew ? el("span", { class: "tag tag-turn bl-new" }, "New") : null,
          el("span", { class: "bl-value", "aria-hidden": "true" }, `value ${valueOf(card)}`)),
        choices.length ? el("div", { class: "bl-choices" }, choices) : null);
    });
    fill(ui.hand,
      el("h3", { id: "bl-hand-title", tabindex: "-1" }, title,
        el("span", { class: "muted" }, ` · ${plural(hand.length, "card")}`)),
      hint ? el("p", { class: "bl-hint" + (live ? " bl-hint-live" : "") }, hint) : null,
      hand.length ? el("ul", { class: "bl-hand" + (live ? " bl-hand-live" : "") }, tiles) : null);
  }

  // A spectator's followed seat: its hand face down, as many backs as it holds. A replay that
  // shows every hand lists them below instead.
  function renderHiddenHand(owner) {
    const view = v();
    const count = (view.hand_counts || [])[owner];
    if (ctx.seat !== null || Array.isArray(view.hands) || !Number.isInteger(count) || (isOver() && !count)) {
      fill(ui.hand);
      ui.hand.hidden = true;
      return;
    }
    ui.hand.hidden = false;
    fill(ui.hand,
      el("h3", { id: "bl-hand-title", tabindex: "-1" }, `${plainName(owner)}'s hand`,
        el("span", { class: "muted" }, ` · ${plural(count, "card")}`)),
      count ? el("div", { class: "bl-backs", role: "img", "aria-label": `${plural(count, "card")}, face down` },
        Array.from({ length: count }, () => el("span", { class: "bl-back bl-back-small" }))) : null,
      el("p", { class: "bl-hint" }, "You are watching: the cards stay face down until they are played."));
  }

  function choiceButton(card, direction, focusKey) {
    const view = v();
    const value = valueOf(card);
    const after = view.balance + direction * value;
    const points = outcomeOf(after, card);
    const grade = points > 0 ? "bl-good" : points < 0 ? "bl-bad" : "bl-ok";
    const verb = direction > 0 ? "Add" : "Subtract";
    const result = points > 0 ? "you score 1 point" : points < 0 ? "you lose 1 point"
      : Math.abs(after) > limit() ? "no points: jokers never cost a point" : "no change in points";
    const label = `${verb} the ${cardName(card)} (${value}): the balance becomes ${spoken(after)}, ${result}.`;
    const pointsLabel = points > 0 ? "+1 point" : points < 0 ? "−1 point" : Math.abs(after) > limit() ? "joker: safe" : "no points";
    return el("button", {
      type: "button",
      class: `btn bl-choice ${grade} ${direction > 0 ? "bl-choice-add" : "bl-choice-sub"}` + (busy ? " bl-busy" : ""),
      "aria-label": label, title: label, "aria-disabled": busy ? "true" : undefined,
      dataset: { card, direction, after, points, focus: focusKey },
      onclick: () => {
        if (busy) { ctx.explain("Your play is on its way to the server…"); return; }
        send({ type: "play", card, direction });
      },
      onmouseenter: () => showGhost(after), onmouseleave: () => showGhost(null),
      onfocus: () => showGhost(after), onblur: () => showGhost(null),
    },
    el("span", { class: "bl-choice-op", "aria-hidden": "true" }, `${direction > 0 ? "+" : "−"}${value}`),
    el("span", { class: "bl-choice-to", "aria-hidden": "true" }, `→ ${signedOrZero(after)}`),
    el("span", { class: "bl-choice-pts", "aria-hidden": "true" }, pointsLabel));
  }

  function explainCard(card, live) {
    if (ctx.seat === null || isOver()) return;
    if (live) {
      ctx.explain(`Use a button under the ${cardText(card)}: "+" adds ${valueOf(card)} to the balance, "−" subtracts it.`);
    } else if (busy) {
      ctx.explain("Your play is on its way to the server…");
    } else if (v().hand && v().hand.length && mover() !== null) {
      ctx.explain(`It is not your turn: ${plainName(mover())} is playing. You can play when your name is marked "To play".`);
    }
  }

  // ------------------------------------------------------------- replay: every hand
  function renderRevealed() {
    const view = v();
    if (!Array.isArray(view.hands)) { fill(ui.hands); ui.hands.hidden = true; return; }
    ui.hands.hidden = false;
    fill(ui.hands,
      el("h3", {}, "Every hand (replay)"),
      el("ul", { class: "bl-hands-list" }, view.hands.map((hand, seat) => el("li", { class: "bl-hands-seat", dataset: { seat } },
        el("span", { class: "bl-name" }, plainName(seat), view.drawn && seat === mover() ? el("span", { class: "muted" }, ` (drew ${cardText(view.drawn)})`) : null),
        el("span", { class: "bl-hands-cards" }, hand.length ? hand.map((c) => cardEl(c, { class: "card-small" })) : el("span", { class: "muted" }, "no cards"))))));
  }

  // ------------------------------------------------------------- rounds and the result
  function winners() {
    if (msg.outcome && Array.isArray(msg.outcome.winners)) return msg.outcome.winners;
    if (v().result && Array.isArray(v().result.winners)) return v().result.winners;
    return [];
  }

  function renderOutcome() {
    if (!isOver()) { ui.outcome.hidden = true; fill(ui.outcome); return; }
    const view = v();
    const scores = finalScores(msg, view.points);
    const won = winners();
    const reason = view.result ? view.result.reason : null;
    let headline;
    let detail;
    if (solo()) {
      const target = view.rules.target;
      const pts = scores[0];
      const yours = ctx.seat === 0;
      headline = won.length ? (yours ? "You win!" : `${plainName(0)} wins!`) : (yours ? "Not this time: you lose." : `${plainName(0)} loses.`);
      detail = `${yours ? "You" : plainName(0)} finished with ${plural(pts, "point")}; ${target} were needed.`;
      const last = view.last_round;
      if (last) detail += ` Zeros: ${last.zeros[0]}, beyond ±${limit()}: ${last.busts[0]}, automaton matches: ${last.automaton_zeroings ?? 0}.`;
    } else {
      headline = headlineOf(won, words, { shared: "A shared win", youShare: "A shared win: you are among the winners!", mark: "!" });
      const text = DECISIONS[reason] || "";
      const you = won.length === 1 && won[0] === ctx.seat;
      detail = reason === "win" || reason === "last_survivor"
        ? `${won.map(who).join(", ")} ${you ? text.replace(/^is /, "are ") : text}.`
        : text;
      detail += ` ${plural(view.rounds.length, "round")} played.`;
    }
    drawOutcome(ui.outcome, {
      msg, over: true, words, prefix: "bl", scores, winners: won, title: headline, normal: detail,
      scoreText: signedOrZero, after: (s) => (won.includes(s) ? el("span", { class: "tag tag-win" }, "won") : null),
    });
    ui.outcome.dataset.won = String(won.includes(ctx.seat));
  }

  function renderRounds() {
    const view = v();
    const rounds = view.rounds || [];
    if (solo() || !rounds.length) { fill(ui.rounds); ui.rounds.hidden = true; return; }
    ui.rounds.hidden = false;
    const seats = view.points.map((_, s) => s);
    const last = rounds[rounds.length - 1];
    fill(ui.rounds,
      el("h3", {}, `Round ${last.round} result`),
      el("p", { class: "bl-round-line" }, roundSummary(last)),
      el("details", {},
        el("summary", {}, `Every round (${rounds.length})`),
        el("div", { class: "table-scroll" }, el("table", { class: "score-table" },
          el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Round"),
            seats.map((s) => el("th", { scope: "col", class: "num" }, plainName(s))))),
          el("tbody", {}, rounds.map((r) => el("tr", {},
            el("td", {}, String(r.round)),
            seats.map((s) => el("td", { class: "num" }, signedOrZero(r.scores[s]),
              el("span", { class: "muted" }, ` (total ${r.totals[s]})`))))))))));
  }

  function renderLegend() {
    const view = v();
    const L = limit();
    const items = [
      el("li", {}, "On your turn you draw the top card of the stock (if any), then play one card: add its value to the balance or subtract it."),
      el("li", {}, "Ace is 1, 2–10 their number, J, Q, K and jokers 10."),
      el("li", {}, el("strong", { class: "bl-good-text" }, "Land on 0: +1 point"), " (jokers too)."),
      el("li", {}, el("strong", { class: "bl-bad-text" }, `End beyond ±${L}: −1 point`), ", every time, unless you played a joker."),
    ];
    if (solo()) {
      items.push(el("li", {}, "After each of your plays the automaton turns the top card of the stock: if its value equals the balance's size, the balance drops to 0 and you lose a point (a joker costs nothing); otherwise it pushes the balance further from 0."));
      items.push(el("li", {}, `When the stock and your hand are empty, you win with ${view.rules.target} points or more.`));
    } else {
      items.push(el("li", {}, `A round ends when every card is played. At ${view.rules.win_points} points the best total wins; at ${view.rules.out_points} a player is out.`));
    }
    fill(ui.legend,
      el("summary", {}, "How to play"),
      el("ul", {}, items));
  }

  // ------------------------------------------------------------- render
  function render() {
    if (!msg) return;
    const active = document.activeElement;
    const inside = table.contains(active);
    const focused = inside && active.dataset ? active.dataset.focus : null;
    table.classList.toggle("is-spectator", ctx.seat === null);
    table.classList.toggle("bl-solo", solo());
    table.dataset.seq = String(msg.seq ?? "");
    table.dataset.mode = v().mode;
    renderBoard();
    renderOutcome();
    renderStatus();
    renderCentre();
    renderTrail();
    renderHand();
    renderRevealed();
    renderRounds();
    renderLegend();

    let target = focused ? table.querySelector(`[data-focus="${CSS.escape(focused)}"]`) : null;
    if (!target && (inside || keepFocus) && !busy) {
      target = table.querySelector(".bl-choice") || (ui.hand.hidden ? null : ui.hand.querySelector("h3"));
    }
    if (target && (inside || keepFocus)) {
      target.focus({ preventScroll: true });
      if (!busy) keepFocus = false;
    }
  }

  return {
    update(next) {
      msg = next;
      busy = false;
      log.update(next);
      render();
    },
    destroy() {
      table.remove();
    },
  };
}

// ----------------------------------------------------------------- pure helpers

// "−6 + 4 = −2"; an automaton card that matched the balance just zeroes it.
function equation(entry) {
  if (entry.kind === "automaton" && entry.matched) return `${signedOrZero(entry.before)} matched: = 0`;
  const op = entry.direction > 0 ? "+" : "−";
  return `${signedOrZero(entry.before)} ${op} ${valueOf(entry.card)} = ${signedOrZero(entry.after)}`;
}

function packText(opts) {
  const decks = opts.decks || 1;
  const jokers = opts.jokers_per_deck ?? 0;
  return `${plural(decks, "deck")}, ${jokers ? plural(jokers, "joker") : "no jokers"}${decks > 1 ? " each" : ""}`;
}

function valueOf(card) {
  if (isJoker(card)) return 10;
  const { rank } = parseCard(card);
  if (rank === "A") return 1;
  if (rank === "J" || rank === "Q" || rank === "K") return 10;
  return Number(rank);
}

function zoneOf(balance, limit = 9) {
  if (balance === 0) return "zero";
  return Math.abs(balance) > limit ? "beyond" : "safe";
}

function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0";
}

function signedOrZero(n) {
  return n === 0 ? "0" : signed(n);
}

function spoken(n) {
  return n > 0 ? `plus ${n}` : n < 0 ? `minus ${-n}` : "zero";
}

function pointsText(points, prefix = "") {
  return points > 0 ? `${prefix}+${points} point${points === 1 ? "" : "s"}` : `${prefix}−${-points} point${points === -1 ? "" : "s"}`;
}

// The state's `last` play in words, for the move log: "Ann added the 7♥: +2 → +9."
export function describeMove(msg, words) {
  const last = msg.last;
  if (!last || !last.action || last.action.type !== "play") return "";
  const { seat, action } = last;
  const verb = action.direction > 0 ? "added" : "subtracted";
  const pile = (msg.view && msg.view.pile) || [];
  const entry = [...pile].reverse().find((e) => e.kind === "play" && e.seat === seat && e.card === action.card);
  const move = entry ? `: ${signedOrZero(entry.before)} → ${signedOrZero(entry.after)}` : "";
  return `${words.who(seat)} ${verb} the ${cardText(action.card)}${move}.`;
}
