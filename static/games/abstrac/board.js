// abstrac/board.js: what everyone sees: the two players (totals, turn, clocks), each player's
// taken cards in suit lanes with their scoring combinations, the deals so far and the outcome.
// `tbl` is the table's shared state and parts (see ../abstrac.js): its state (msg, busy,
// preview), ctx, words, ui and the other parts' functions.

import { cardEl, SUITS, parseCard } from "../../js/cards.js";
import { el, fill } from "../../js/dom.js";
import { clockNode, deadlineOf } from "../../js/table/clock.js";
import { drawOutcome, finalScores, winnersOf } from "../../js/table/outcome.js";
import { plural } from "../../js/words.js";
import { RANKS, SEQUENCE_POINTS, SET_POINTS, SUIT_ORDER, sequenceLabel, setLabel } from "./cards.js";

export function boardPart(tbl) {
  function renderBoard() {
    const v = tbl.msg.view;
    const seats = [1 - tbl.bottomSeat(), tbl.bottomSeat()];
    fill(tbl.ui.board, seats.map((seat) => el("div", {
      class: "ab-player" + (tbl.toMove() === seat && !tbl.isOver() ? " ab-player-active" : "") + (seat === tbl.ctx.seat ? " ab-player-me" : "")
        + (tbl.followed(seat) ? " ab-player-followed" : ""),
      dataset: { seat },
    },
    el("div", { class: "ab-player-name" },
      el("span", { class: "ab-name" }, tbl.plainName(seat)),
      seat === tbl.ctx.seat ? el("span", { class: "tag tag-you" }, "You") : null,
      v.dealer === seat ? el("span", { class: "tag" }, "Dealer") : null,
      tbl.toMove() === seat && !tbl.isOver() ? el("span", { class: "tag tag-turn" }, "To play") : null,
      deadlineOf(tbl.msg, seat) && !tbl.isOver()
        ? clockNode(deadlineOf(tbl.msg, seat), { className: "tag ab-clock", label: `Time left for ${tbl.plainName(seat)}` }) : null),
    el("div", { class: "ab-total" },
      el("strong", {}, String(v.totals[seat])), el("span", { class: "muted" }, ` / ${v.target}`)),
    el("progress", {
      max: v.target, value: Math.min(v.totals[seat], v.target),
      "aria-label": `${tbl.plainName(seat)}: ${v.totals[seat]} of ${v.target} points`,
    }),
    el("div", { class: "ab-player-meta muted" },
      `Deal ${v.deal}: combo ${v.combo[seat]} · ${plural(v.taken[seat].length, "card")}`))));
  }

  // A player's taken cards in suit lanes with their combinations. Until the next deal's first
  // take, the deal just scored (view.last_deal) is shown instead, with its score arithmetic.
  function renderCollection(node, seat) {
    const v = tbl.msg.view;
    node.dataset.seat = String(seat);
    const done = v.last_deal || null;
    const scored = done && v.deals && v.deals.length ? v.deals[v.deals.length - 1] : null;
    node.classList.toggle("ab-collection-done", Boolean(done && scored));
    const cards = ((done && scored ? done.taken : v.taken)[seat]) || [];
    const groups = ((done && scored ? done.groups : v.groups) || [])[seat] || { sets: [], sequences: [] };
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
    const whose = seat === tbl.ctx.seat ? "Your cards" : `${tbl.plainName(seat)}'s cards`;
    fill(node,
      done && scored
        ? el("h3", { class: "ab-collection-title" }, `${whose} in deal ${scored.deal}`,
          el("span", { class: "ab-deal-sum" }, ` · ${dealSum(scored, seat)}`))
        : el("h3", { class: "ab-collection-title" }, whose,
          el("span", { class: "muted" }, ` · ${cards.length} taken · combo ${v.combo[seat]}`)),
      el("div", { class: "ab-lanes" }, lanes),
      el("ul", { class: "ab-combos" }, combos.length ? combos : el("li", { class: "muted" }, "No scoring combinations yet.")));
  }

  function renderDeals() {
    const v = tbl.msg.view;
    const deals = v.deals || [];
    if (!deals.length) { fill(tbl.ui.deals); tbl.ui.deals.hidden = true; return; }
    tbl.ui.deals.hidden = false;
    const last = deals[deals.length - 1];
    const line = (seat) => `${tbl.plainName(seat)}: ${dealSum(last, seat)}`;
    fill(tbl.ui.deals,
      el("h3", {}, `Last deal (deal ${last.deal}, dealt by ${tbl.plainName(last.dealer)})`),
      el("p", { class: "ab-last-deal" }, `${line(0)}; ${line(1)}.`,
        last.misere ? el("span", { class: "tag tag-turn" }, "Misère: scores reversed") : null),
      el("details", {},
        el("summary", {}, `All deals (${deals.length})`),
        el("div", { class: "table-scroll" }, el("table", { class: "score-table" },
          el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Deal"),
            [0, 1].map((s) => el("th", { scope: "col", class: "num" }, tbl.plainName(s))))),
          el("tbody", {}, deals.map((d) => el("tr", {},
            el("td", {}, `${d.deal}${d.misere ? " (misère)" : ""}`),
            [0, 1].map((s) => el("td", { class: "num" }, `${d.scores[s]}`,
              el("span", { class: "muted" }, ` (${d.combo[s]}×${d.taken[1 - s]})`))))))))));
  }

  function renderOutcome() {
    const v = tbl.msg.view;
    const scores = finalScores(tbl.msg, v.totals);
    const winners = winnersOf(tbl.msg, scores);
    drawOutcome(tbl.ui.outcome, {
      msg: tbl.msg, over: tbl.isOver(), words: tbl.words, prefix: "ab", scores, winners, order: [0, 1],
      title: winners.length > 1 ? "It's a draw." : undefined,
      normal: `The target was ${v.target} points; ${plural((v.deals || []).length, "deal")} played.`,
    });
  }

  // "combo 12 × 14 cards = 168" (a misère: "misère, 12 × 10 cards = 120")
  function dealSum(deal, seat) {
    const other = 1 - seat;
    if (!deal.misere) return `combo ${deal.combo[seat]} × ${plural(deal.taken[other], "card")} taken by ${tbl.plainName(other)} = ${deal.scores[seat]}`;
    return deal.scores[seat]
      ? `no combination, so the scores turned round: ${tbl.plainName(other)}'s combo ${deal.combo[other]} × ${plural(deal.taken[seat], "card")} = ${deal.scores[seat]}`
      : `combo ${deal.combo[seat]}, but the scores turned round = 0`;
  }

  function comboChip(kind, label, points) {
    return el("li", { class: `ab-combo ab-combo-${kind}` },
      el("span", {}, label), el("strong", {}, ` +${points}`));
  }

  return { renderBoard, renderCollection, renderDeals, renderOutcome };
}
