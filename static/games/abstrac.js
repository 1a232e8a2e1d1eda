// abstrac.js: the Abstrac table (renderer interface: see static/js/table.js).
//
// view = {phase: "choose_order"|"taking"|"over", deal, dealer, target, row: [cards, exposed LAST],
//         taken: [[..], [..]], combo: [a, b], groups: [{sets, sequences}, ..], totals: [a, b],
//         to_move, deals: [{deal, dealer, combo, taken, scores, misere}, ..]}
// actions: {"type": "order", "first": bool}  and  {"type": "take", "count": 1|2|3}

import { cardEl, cardName, cardText, parseCard, SUITS } from "../js/cards.js";
import { el, fill } from "../js/dom.js";
import { clockNode, deadlineOf } from "../js/table/clock.js";
import { createMoveLog } from "../js/table/movelog.js";
import { drawOutcome, finalScores, winnersOf } from "../js/table/outcome.js";
import { seatWords } from "../js/table/seats.js";
import { plural } from "../js/words.js";

const RANKS = ["A", "K", "Q", "J", "10", "9"];
const SUIT_ORDER = ["S", "H", "D", "C"];
const SET_POINTS = { 3: 2, 4: 8 };
const SEQUENCE_POINTS = { 3: 3, 4: 4, 5: 6, 6: 12 };
const RANK_PLURAL = { A: "Aces", K: "Kings", Q: "Queens", J: "Jacks", 10: "Tens", 9: "Nines" };

export function mount(root, ctx) {
  let msg = null;
  let busy = false;
  let preview = 0;

  const part = (cls, tag = "div") => el(tag, { class: cls });
  const ui = {
    board: part("ab-scores"),
    status: part("ab-status", "p"),
    last: part("ab-last muted", "p"),
    outcome: part("ab-outcome"),
    top: part("ab-collection ab-collection-top", "section"),
    rowHead: part("ab-row-head", "p"),
    row: part("ab-row"),
    controls: part("ab-controls"),
    bottom: part("ab-collection ab-collection-bottom", "section"),
    deals: part("ab-deals", "section"),
  };
  ui.outcome.dataset.testid = "outcome";
  ui.outcome.hidden = true;
  ui.status.setAttribute("aria-live", "polite");
  const words = seatWords(ctx, { numberTwins: false });
  const log = createMoveLog((state) => describeMove(state, words), { prefix: "ab" });
  const table = el("div", { class: "felt abstrac" },
    ui.board, ui.outcome, ui.status, ui.last, ui.top,
    el("section", { class: "ab-row-area", "aria-label": "The row" }, ui.rowHead, ui.row, ui.controls),
    ui.bottom, log.element, ui.deals);
  root.append(table);

  // ------------------------------------------------------------- helpers
  const plainName = words.plain;
  const legalTakes = () => (ctx.seat === null || !msg ? [] : msg.legal)
    .filter((a) => a.type === "take").map((a) => a.count);
  const legalOrder = () => ctx.seat !== null && msg && msg.legal.some((a) => a.type === "order");
  const toMove = () => {
    const v = msg.view;
    if (v.to_move !== null && v.to_move !== undefined) return v.to_move;
    return msg.to_act && msg.to_act.length ? msg.to_act[0] : null;
  };
  const isOver = () => msg.over || msg.view.phase === "over";
  // Orientation (ctx.perspective): the viewer's seat, or the seat a spectator follows, is drawn
  // at the bottom. Identity ("You", controls) stays ctx.seat.
  const bottomSeat = words.perspective;
  const followed = words.followed;

  function send(action) {
    if (busy) return;
    busy = true;
    preview = 0;
    render();
    ctx.act(action).catch(() => { busy = false; render(); });
  }

  function setPreview(k) {
    preview = k;
    const n = ui.row.children.length;
    [...ui.row.children].forEach((card, i) => card.classList.toggle("will-take", k > 0 && i >= n - k));
  }

  // ------------------------------------------------------------- parts
  function renderBoard() {
    const v = msg.view;
    const seats = [1 - bottomSeat(), bottomSeat()];
    fill(ui.board, seats.map((seat) => el("div", {
      class: "ab-player" + (toMove() === seat && !isOver() ? " ab-player-active" : "") + (seat === ctx.seat ? " ab-player-me" : "")
        + (followed(seat) ? " ab-player-followed" : ""),
      dataset: { seat },
    },
    el("div", { class: "ab-player-name" },
      el("span", { class: "ab-name" }, plainName(seat)),
      seat === ctx.seat ? el("span", { class: "tag tag-you" }, "You") : null,
      v.dealer === seat ? el("span", { class: "tag" }, "Dealer") : null,
      toMove() === seat && !isOver() ? el("span", { class: "tag tag-turn" }, "To play") : null,
      deadlineOf(msg, seat) && !isOver()
        ? clockNode(deadlineOf(msg, seat), { className: "tag ab-clock", label: `Time left for ${plainName(seat)}` }) : null),
    el("div", { class: "ab-total" },
      el("strong", {}, String(v.totals[seat])), el("span", { class: "muted" }, ` / ${v.target}`)),
    el("progress", {
      max: v.target, value: Math.min(v.totals[seat], v.target),
      "aria-label": `${plainName(seat)}: ${v.totals[seat]} of ${v.target} points`,
    }),
    el("div", { class: "ab-player-meta muted" },
      `Deal ${v.deal}: combo ${v.combo[seat]} · ${plural(v.taken[seat].length, "card")}`))));
  }

  function renderStatus() {
    const v = msg.view;
    const mover = toMove();
    let text;
    if (isOver()) {
      text = "The match is over.";
    } else if (v.phase === "choose_order") {
      if (legalOrder()) text = `Your choice: ${plainName(v.dealer)} dealt. Look at the row, then go first or second.`;
      else if (ctx.seat === null) text = `${plainName(mover)} chooses who plays first.`;
      else text = `Waiting for ${plainName(mover)} to choose who plays first.`;
    } else {
      const takes = legalTakes();
      if (takes.length) {
        const most = Math.max(...takes);
        text = most === 1 ? "Your turn: take the last card" : `Your turn: take 1 to ${most} cards`;
      } else if (ctx.seat === null) {
        text = `${plainName(mover)} to play.`;
      } else {
        text = `Waiting for ${plainName(mover)}`;
      }
    }
    ui.status.textContent = text;
    ui.status.classList.toggle("ab-status-you", legalTakes().length > 0 || legalOrder());

    const last = msg.last;
    ui.last.textContent = last ? describeMove(msg, words) : "";
    ui.last.hidden = !last;
  }

  function renderRow() {
    const v = msg.view;
    const n = v.row.length;
    const takes = new Set(busy ? [] : legalTakes());
    const myTurn = ctx.seat !== null && takes.size > 0;
    ui.rowHead.textContent = n
      ? `The row: ${plural(n, "card")}. Cards are taken from the exposed end, on the right.`
      : "The row is empty.";
    fill(ui.row, v.row.map((card, i) => {
      const k = n - i; // taking from here takes k cards
      const exposed = k === 1 ? " card-exposed" : "";
      if (takes.has(k)) {
        const label = `Take ${k} card${k === 1 ? "" : "s"}: ${v.row.slice(i).reverse().map(cardName).join(", ")}`;
        return cardEl(card, {
          tag: "button", class: "card-takeable" + exposed, "aria-label": label, title: label,
          dataset: { card, focus: `card-${k}` },
          onmouseenter: () => setPreview(k), onmouseleave: () => setPreview(0),
          onfocus: () => setPreview(k), onblur: () => setPreview(0),
          onclick: () => send({ type: "take", count: k }),
        });
      }
      return cardEl(card, {
        class: exposed.trim(),
        onclick: () => {
          if (isOver()) return;
          if (myTurn) ctx.explain("Only the 1 to 3 cards at the exposed (right-hand) end can be taken.");
          else if (ctx.seat !== null && !legalOrder()) ctx.explain(`It is not your turn: ${plainName(toMove())} is playing.`);
          else if (legalOrder()) ctx.explain("First choose whether to go first or second.");
        },
      });
    }));
    ui.row.style.setProperty("--covered", Math.max(n - 1, 0));
    ui.row.classList.toggle("ab-row-live", myTurn);
    ui.row.hidden = n === 0;
    if (preview && takes.has(preview)) setPreview(preview);
    else preview = 0;
  }

  function renderControls() {
    const v = msg.view;
    const buttons = [];
    if (!busy && legalOrder()) {
      buttons.push(el("button", { type: "button", class: "btn btn-primary", dataset: { focus: "first" }, onclick: () => send({ type: "order", first: true }) }, "Go first"));
      buttons.push(el("button", { type: "button", class: "btn", dataset: { focus: "second" }, onclick: () => send({ type: "order", first: false }) }, "Go second"));
    }
    const takes = busy ? [] : legalTakes();
    for (const k of [1, 2, 3]) {
      if (!takes.includes(k)) continue;
      const cards = v.row.slice(v.row.length - k).reverse().map(cardText).join(" ");
      buttons.push(el("button", {
        type: "button", class: "btn" + (k === 1 ? " btn-primary" : ""), dataset: { take: k, focus: `take-${k}` },
        onmouseenter: () => setPreview(k), onmouseleave: () => setPreview(0),
        onfocus: () => setPreview(k), onblur: () => setPreview(0),
        onclick: () => send({ type: "take", count: k }),
      }, `Take ${k}`, el("span", { class: "btn-sub" }, cards)));
    }
    if (busy) buttons.push(el("span", { class: "muted" }, "Sending…"));
    fill(ui.controls, buttons);
    ui.controls.hidden = buttons.length === 0;
  }

  function renderCollection(node, seat) {
    const v = msg.view;
    node.dataset.seat = String(seat);
    const cards = v.taken[seat] || [];
    const groups = (v.groups && v.groups[seat]) || { sets: [], sequences: [] };
    const inSet = new Set(groups.sets.flat());
    const inSequence = new Set(groups.sequences.flat());
    const lanes = SUIT_ORDER.map((suit) => {
      const mine = cards.filter((c) => parseCard(c).suit === suit)
        .sort((a, b) => RANKS.indexOf(parseCard(a).rank) - RANKS.indexOf(parseCard(b).rank));
      return el("div", { class: "ab-lane" },
        el("span", { class: `ab-lane-suit ${SUITS[suit].red ? "card-red" : "card-black"}`, title: SUITS[suit].name, "aria-label": SUITS[suit].name }, SUITS[suit].symbol),
        el("div", { class: "ab-lane-cards" }, mine.map((c) => cardEl(c, {
          class: "card-small" + (inSet.has(c) ? " in-set" : "") + (inSequence.has(c) ? " in-seq" : ""),
        }))));
    });
    const combos = [
      ...groups.sets.map((set) => comboChip("set", setLabel(set), SET_POINTS[set.length] || 0)),
      ...groups.sequences.map((seq) => comboChip("seq", sequenceLabel(seq), SEQUENCE_POINTS[seq.length] || 0)),
    ];
    fill(node,
      el("h3", { class: "ab-collection-title" },
        seat === ctx.seat ? "Your cards" : `${plainName(seat)}'s cards`,
        el("span", { class: "muted" }, ` · ${cards.length} taken · combo ${v.combo[seat]}`)),
      el("div", { class: "ab-lanes" }, lanes),
      el("ul", { class: "ab-combos" }, combos.length ? combos : el("li", { class: "muted" }, "No scoring combinations yet.")));
  }

  function renderDeals() {
    const v = msg.view;
    const deals = v.deals || [];
    if (!deals.length) { fill(ui.deals); ui.deals.hidden = true; return; }
    ui.deals.hidden = false;
    const last = deals[deals.length - 1];
    const line = (seat) => `${plainName(seat)}: combo ${last.combo[seat]} × ${last.taken[1 - seat]} cards = ${last.scores[seat]}`;
    fill(ui.deals,
      el("h3", {}, `Last deal (deal ${last.deal}, dealt by ${plainName(last.dealer)})`),
      el("p", { class: "ab-last-deal" }, `${line(0)}; ${line(1)}.`,
        last.misere ? el("span", { class: "tag tag-turn" }, "Misère: scores reversed") : null),
      el("details", {},
        el("summary", {}, `All deals (${deals.length})`),
        el("div", { class: "table-scroll" }, el("table", { class: "score-table" },
          el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Deal"),
            [0, 1].map((s) => el("th", { scope: "col", class: "num" }, plainName(s))))),
          el("tbody", {}, deals.map((d) => el("tr", {},
            el("td", {}, `${d.deal}${d.misere ? " (misère)" : ""}`),
            [0, 1].map((s) => el("td", { class: "num" }, `${d.scores[s]}`,
              el("span", { class: "muted" }, ` (${d.combo[s]}×${d.taken[1 - s]})`))))))))));
  }

  function renderOutcome() {
    const v = msg.view;
    const scores = finalScores(msg, v.totals);
    const winners = winnersOf(msg, scores);
    drawOutcome(ui.outcome, {
      msg, over: isOver(), words, prefix: "ab", scores, winners, order: [0, 1],
      title: winners.length > 1 ? "It's a draw." : undefined,
      normal: `The target was ${v.target} points; ${plural((v.deals || []).length, "deal")} played.`,
    });
  }

  function render() {
    if (!msg) return;
    const focused = table.contains(document.activeElement) ? document.activeElement.dataset.focus : null;
    table.classList.toggle("is-spectator", ctx.seat === null);
    renderBoard();
    renderStatus();
    renderOutcome();
    renderCollection(ui.top, 1 - bottomSeat());
    renderRow();
    renderControls();
    renderCollection(ui.bottom, bottomSeat());
    renderDeals();
    if (focused) {
      const again = table.querySelector(`[data-focus="${focused}"]`);
      if (again) again.focus({ preventScroll: true });
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

// The state's `last` move in words, for the status line and the move log.
export function describeMove(msg, words) {
  const { seat, action } = msg.last || {};
  if (!action) return "";
  const who = words.who(seat);
  if (action.type === "take") return `${who} took ${plural(action.count, "card")}.`;
  if (action.type === "order") return `${who} chose to go ${action.first ? "first" : "second"}.`;
  return `${who} played.`;
}

function comboChip(kind, label, points) {
  return el("li", { class: `ab-combo ab-combo-${kind}` },
    el("span", {}, label), el("strong", {}, ` +${points}`));
}

function setLabel(set) {
  const rank = parseCard(set[0]).rank;
  return `${set.length === 4 ? "Four" : "Three"} ${RANK_PLURAL[rank] || rank}`;
}

function sequenceLabel(sequence) {
  const sorted = [...sequence].sort((a, b) => RANKS.indexOf(parseCard(a).rank) - RANKS.indexOf(parseCard(b).rank));
  const suit = parseCard(sorted[0]).suit;
  return `${sorted.map((c) => parseCard(c).rank).join("-")} ${SUITS[suit] ? SUITS[suit].symbol : suit}`;
}
