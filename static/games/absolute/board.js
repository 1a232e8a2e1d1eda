// absolute/board.js: the table everyone sees: the players' chips with their clocks, the
// status line, the round result, the outcome, the deck and discard pile, each player's sets,
// the scores by round and the rules.
// `tbl` is the table's shared state and parts (see ../absolute.js): its state (msg, previous,
// busy, lg, selected, draft, swap), ctx, words, ui and the other parts' functions.

import { el, fill } from "../../js/dom.js";
import { clockNode, deadlineOf } from "../../js/table/clock.js";
import { drawOutcome } from "../../js/table/outcome.js";
import { plural } from "../../js/words.js";
import { SETS_TO_GO_OUT, cardSpeech, cardText, isZero, number, signed } from "./cards.js";
import { cardBack, cardFace } from "./faces.js";
import { describeMove } from "./moves.js";
import { breakdown } from "./rules.js";

const ENDED_BY = {
  went_out: "went out",
  turn_limit: "the turn limit was reached",
  stalled: "nobody could draw any more",
};

// "turn 7 of 15" with a turn limit (max_turns, all seats' turns this round), "turn 7" without
// one (max_turns null: the default, spec 6)
function turnWords(v) {
  const turn = v.turns_taken + 1;
  return v.max_turns ? `turn ${Math.min(turn, v.max_turns)} of ${v.max_turns}` : `turn ${turn}`;
}

export function boardPart(tbl) {
  function renderTop() {
    const v = tbl.view();
    const n = tbl.players();
    const info = tbl.isOver()
      ? `Match over · ${v.rounds_total} rounds played`
      : `Round ${v.round} of ${v.rounds_total} · ${turnWords(v)}`;
    const chips = [];
    for (let seat = 0; seat < n; seat += 1) {
      const turn = !tbl.isOver() && v.turn === seat;
      const deadline = deadlineOf(tbl.msg, seat);
      chips.push(el("li", {
        class: "abs-chip" + (turn ? " is-turn" : "") + (seat === tbl.ctx.seat ? " is-me" : "") + (tbl.followed(seat) ? " is-followed" : "") + (v.went_out[seat] ? " is-out" : ""),
        dataset: { seat },
      },
      el("span", { class: "abs-chip-name" }, tbl.name(seat)),
      seat === tbl.ctx.seat ? el("span", { class: "tag tag-you" }, "You") : null,
      turn ? el("span", { class: "tag tag-turn" }, v.final_turns ? "Last turn" : "To play") : null,
      v.went_out[seat] ? el("span", { class: "tag abs-tag-out" }, "Out") : null,
      el("span", { class: "abs-chip-total", "aria-label": `${v.totals[seat]} points` },
        el("strong", {}, number(v.totals[seat])), el("span", { class: "muted" }, " pts")),
      el("span", { class: "abs-chip-hand muted", title: "Cards in hand" },
        cardBack("abs-back-tiny"), ` ${v.hand_counts[seat]}`,
        el("span", { class: "visually-hidden" }, " cards in hand")),
      deadline ? clockNode(deadline, { className: "abs-clock", label: `Time left for ${tbl.name(seat)}` }) : null));
    }
    fill(tbl.ui.top,
      el("p", { class: "abs-info" }, info,
        v.final_turns && !tbl.isOver() ? el("span", { class: "tag abs-tag-final" }, `${tbl.name(v.first_out)} went out: last turns`) : null),
      el("ol", { class: "abs-chips", "aria-label": "Players" }, chips));
  }

  function statusText() {
    const v = tbl.view();
    const t = v.this_turn || {};
    if (tbl.isOver()) return "The match is over.";
    const mover = v.turn;
    const final = v.final_turns ? `Last turn: ${tbl.who(v.first_out)} went out. ` : "";
    if (!tbl.seated() || !tbl.myTurn()) {
      const doing = v.phase === "draw" ? "draws" : v.phase === "discard" ? "discards" : "plays";
      return tbl.seated() ? `${final}Waiting for ${tbl.name(mover)}, who ${doing}.` : `${final}${tbl.name(mover)} ${doing}.`;
    }
    if (tbl.busy) return "Sending…";
    if (v.phase === "draw") {
      const top = v.discard.length ? v.discard[v.discard.length - 1] : null;
      if (tbl.lg.drawDeck && tbl.lg.drawDiscard) return `${final}Your turn: draw from the deck, or take the ${cardText(top)} from the discard pile.`;
      if (tbl.lg.drawDiscard) return `${final}Your turn: the deck is empty, take the ${cardText(top)} from the discard pile.`;
      return `${final}Your turn: draw a card from the deck.`;
    }
    const hand = tbl.myHand();
    if (t.must_discard > 1 || (v.phase === "discard" && t.must_discard > 0)) {
      return `${final}You hold ${hand.length} cards: discard ${plural(t.must_discard, "card")} to get down to ${v.hand_limit}.`;
    }
    const goingOut = tbl.ownSets().length >= SETS_TO_GO_OUT && hand.length === 1;
    if (goingOut) return `${final}Discard your last card to go out!`;
    if (t.played) return `${final}You played: now discard a card to end your turn.`;
    if (t.must_discard > 0) return `${final}Play sets or swap, then discard a card (you hold more than ${v.hand_limit}).`;
    return `${final}Your turn: play sets, add to your sets or swap, then discard a card or hold.`;
  }

  function renderStatus() {
    const text = statusText();
    if (tbl.ui.status.textContent !== text) tbl.ui.status.textContent = text; // re-announce only changes
    tbl.ui.status.classList.toggle("is-you", tbl.myTurn() && !tbl.busy);
    const last = describeMove(tbl.msg, tbl.previous, tbl.words);
    if (tbl.ui.last.textContent !== last) tbl.ui.last.textContent = last;
    tbl.ui.last.hidden = !last;
  }

  function renderOutcome() {
    const v = tbl.view();
    drawOutcome(tbl.ui.outcome, {
      msg: tbl.msg, over: tbl.isOver(), words: tbl.words, prefix: "abs",
      scores: v.totals, winners: (tbl.msg.outcome && tbl.msg.outcome.winners) || v.winners || [],
      normal: `All ${v.rounds_total} rounds played: the highest total wins.`,
      scoreText: number, winClass: "is-winner",
    });
  }

  function renderRoundOver() {
    const v = tbl.view();
    const last = v.last_round;
    const show = last && (tbl.isOver() || (last.round === v.round - 1 && v.turns_taken < tbl.players()));
    if (!show) { tbl.ui.roundOver.hidden = true; fill(tbl.ui.roundOver); return; }
    const how = last.ended_by === "went_out" && last.first_out !== null && last.first_out !== undefined
      ? `${tbl.who(last.first_out)} went out` : ENDED_BY[last.ended_by] || last.ended_by;
    fill(tbl.ui.roundOver,
      el("h3", {}, `Round ${last.round} is over: ${how}.`),
      el("ul", { class: "abs-round-lines" }, last.players.map((p, seat) => el("li", { dataset: { seat } },
        el("span", { class: "abs-round-name" }, tbl.name(seat)), " ",
        el("strong", {}, signed(p.score)),
        el("span", { class: "muted" }, ` (sets ${p.sets_score}, hand ${p.hand_penalty ? signed(-p.hand_penalty) : "0"})`)))));
    tbl.ui.roundOver.hidden = false;
  }

  function renderPiles() {
    const v = tbl.view();
    const top = v.discard.length ? v.discard[v.discard.length - 1] : null;
    const deckLabel = `Deck: ${plural(v.deck_count, "card")}` + (tbl.lg.drawDeck && !tbl.busy ? ". Draw from the deck" : "");
    const deck = tbl.seated() && !tbl.isOver()
      ? el("button", {
        type: "button", class: "abs-pile-button" + (tbl.lg.drawDeck && !tbl.busy ? " is-lit" : ""),
        dataset: { focus: "deck" }, "aria-label": deckLabel, onclick: () => tbl.draw("deck"),
      }, v.deck_count ? cardBack("abs-back-deck") : el("span", { class: "abs-empty-slot" }, "empty"))
      : el("span", { class: "abs-pile-button", role: "img", "aria-label": deckLabel },
        v.deck_count ? cardBack("abs-back-deck") : el("span", { class: "abs-empty-slot" }, "empty"));
    const discardLabel = top ? `Discard pile: ${plural(v.discard.length, "card")}, top ${cardSpeech(top)}`
      + (tbl.lg.drawDiscard && !tbl.busy ? ". Take it" : "") : "Discard pile: empty";
    const topFace = top ? cardFace(top, { extra: "abs-pile-top" }) : el("span", { class: "abs-empty-slot" }, "empty");
    const discard = tbl.seated() && !tbl.isOver() && top
      ? el("button", {
        type: "button", class: "abs-pile-button" + (tbl.lg.drawDiscard && !tbl.busy ? " is-lit" : ""),
        dataset: { focus: "discard" }, "aria-label": discardLabel, onclick: () => tbl.draw("discard"),
      }, topFace)
      : el("span", { class: "abs-pile-button", role: "img", "aria-label": discardLabel }, topFace);
    // Selected card + discard allowed: the pile is a target too.
    const canDropHere = tbl.selected.size === 1 && tbl.lg.discards.has([...tbl.selected][0]) && !tbl.busy && !tbl.swap;
    fill(tbl.ui.piles,
      el("div", { class: "abs-pile" }, deck,
        el("span", { class: "abs-pile-label" }, `Deck · ${v.deck_count}`)),
      el("div", { class: "abs-pile abs-pile-discard" + (canDropHere ? " is-target" : "") },
        el("div", { class: "abs-discard-stack" + (v.discard.length > 1 ? " is-pile" : "") }, discard),
        el("span", { class: "abs-pile-label" }, `Discard · ${v.discard.length}`),
        canDropHere ? el("button", {
          type: "button", class: "btn btn-small abs-drop", dataset: { focus: "pile-drop" },
          onclick: tbl.discardSelected,
        }, `Discard ${cardText([...tbl.selected][0])} here`) : null));
  }

  function setTile(s, { swapping }) {
    const mine = tbl.seated() && s.owner === tbl.ctx.seat;
    const beingChanged = mine && tbl.draft.origins.has(s.id);
    const swapOptions = tbl.lg.swaps.filter((a) => a.set === s.id).length;
    const actions = [];
    if (mine && !tbl.ctx.replay && !s.locked && !tbl.isOver() && !beingChanged && !tbl.swap) {
      if (tbl.selected.size) {
        actions.push(el("button", {
          type: "button", class: "btn btn-small abs-add is-lit", dataset: { focus: `set-${s.id}-add` },
          "aria-label": `Add the selected cards to set ${s.id}`, onclick: () => tbl.addToSet(s.id), disabled: tbl.busy,
        }, "+ Add here"));
      }
      actions.push(el("button", {
        type: "button", class: "btn btn-small btn-quiet abs-regroup", dataset: { focus: `set-${s.id}-regroup` },
        "aria-label": `Rearrange set ${s.id} in your play`, onclick: () => tbl.regroupSet(s.id), disabled: tbl.busy,
      }, "Rearrange"));
    }
    if (swapOptions && !tbl.swap && !tbl.busy && !beingChanged) {
      actions.push(el("button", {
        type: "button", class: "btn btn-small abs-swap-button is-lit", dataset: { focus: `set-${s.id}-swap` },
        "aria-label": `Swap with set ${s.id}`, onclick: () => tbl.startSwap(s.id),
      }, "⇄ Swap"));
    }
    const zeroCard = s.cards.find(isZero);
    return el("li", {
      class: "abs-set" + (s.locked ? " is-locked" : "") + (beingChanged ? " is-in-play" : "") + (swapping ? " is-swapping" : ""),
      dataset: { setId: s.id, owner: s.owner },
    },
    el("div", { class: "abs-set-head" },
      el("span", { class: "abs-set-name" }, `Set ${s.id}`),
      s.locked ? el("span", { class: "abs-lock", title: "Locked: its owner went out" }, "locked") : null,
      el("span", { class: "abs-set-score", title: breakdown(s) }, el("strong", {}, String(s.score)), " pts")),
    el("div", { class: "abs-set-cards" },
      s.cards.map((c) => cardFace(c, { size: "small", zeroValue: isZero(c) ? s.zero : null }))),
    el("p", { class: "abs-set-why muted" }, breakdown(s),
      zeroCard ? ` · ${cardText(zeroCard)} = ${signed(s.zero)}` : ""),
    beingChanged ? el("p", { class: "abs-set-note" }, "In your play below ↓") : null,
    swapping ? el("p", { class: "abs-set-note" }, "Swapping ↓") : null,
    actions.length ? el("div", { class: "abs-set-actions" }, actions) : null);
  }

  function zone(seat) {
    const v = tbl.view();
    const me = tbl.seated() ? tbl.ctx.seat : null;
    const sets = v.sets.filter((s) => s.owner === seat);
    const points = sets.reduce((t, s) => t + s.score, 0);
    const revealed = Array.isArray(v.hands) ? v.hands : null;
    let handShown = null;
    if (revealed) handShown = revealed[seat];
    else if (tbl.isOver() && v.last_round && v.last_round.players[seat]) handShown = v.last_round.players[seat].hand;
    else if (!tbl.seated() && v.viewer === seat && Array.isArray(v.hand)) handShown = v.hand;
    const count = v.hand_counts[seat];
    const handBit = seat === me ? null
      : handShown ? el("div", { class: "abs-zone-hand abs-zone-hand-open", "aria-label": `${tbl.name(seat)}'s hand` },
        handShown.map((c) => cardFace(c, { size: "small" })))
        : el("span", { class: "abs-zone-hand", role: "img", "aria-label": `${plural(count, "card")} in hand` },
          Array.from({ length: Math.min(count, 10) }, () => cardBack("abs-back-small")));
    let goal = null;
    if (!v.went_out[seat] && sets.length >= SETS_TO_GO_OUT) goal = "can go out";
    else if (!v.went_out[seat] && seat === me) goal = `${SETS_TO_GO_OUT - sets.length} more to go out`;
    return el("div", {
      class: "abs-zone" + (seat === me ? " is-me" : "") + (tbl.followed(seat) ? " is-followed" : "") + (!tbl.isOver() && v.turn === seat ? " is-turn" : ""),
      dataset: { seat },
    },
    el("div", { class: "abs-zone-head" },
      el("h3", { class: "abs-zone-title" },
        el("span", { class: "abs-zone-name" }, seat === me ? "Your sets" : tbl.name(seat)),
        v.went_out[seat] ? el("span", { class: "tag abs-tag-out" }, "Out · sets locked") : null),
      el("p", { class: "abs-zone-meta muted" },
        `${plural(sets.length, "set")} · ${points} pts`,
        seat === me ? null : ` · ${count} in hand `, seat === me || handShown ? null : handBit,
        !tbl.isOver() && goal ? el("span", { class: "abs-goal" }, ` · ${goal}`) : null)),
    handShown && seat !== me ? handBit : null,
    sets.length
      ? el("ul", { class: "abs-sets" }, sets.map((s) => setTile(s, { swapping: tbl.swap && tbl.swap.set === s.id })))
      : el("p", { class: "abs-none muted" }, seat === me
        ? "No sets yet. A set is 3 or more cards adding up to 0; a zero card is wild."
        : "No sets yet."));
  }

  function renderZones() {
    const n = tbl.players();
    const bottom = tbl.bottomSeat();
    const others = Array.from({ length: n - 1 }, (_, i) => (bottom + 1 + i) % n);
    fill(tbl.ui.others, others.map(zone));
    fill(tbl.ui.mine, zone(bottom));
    tbl.ui.mine.setAttribute("aria-label", tbl.seated() ? "Your sets" : `${tbl.name(bottom)}'s sets`);
  }

  function renderScores() {
    const v = tbl.view();
    const n = tbl.players();
    const rounds = v.round_scores || [];
    const headers = [];
    for (let r = 1; r <= v.rounds_total; r += 1) headers.push(el("th", { scope: "col", class: "num" }, `R${r}`));
    const best = Math.max(...v.totals);
    fill(tbl.ui.scores, el("details", { open: tbl.isOver() || rounds.length ? true : undefined },
      el("summary", {}, "Scores by round"),
      el("div", { class: "table-scroll" }, el("table", { class: "score-table abs-score-table" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Player"), headers, el("th", { scope: "col", class: "num" }, "Total"))),
        el("tbody", {}, Array.from({ length: n }, (_, seat) => el("tr", {
          class: tbl.isOver() && v.totals[seat] === best ? "row-win" : undefined, dataset: { seat },
        },
        el("th", { scope: "row" }, tbl.name(seat)),
        Array.from({ length: v.rounds_total }, (_, r) => el("td", { class: "num" },
          rounds[r] ? signed(rounds[r][seat]) : r + 1 === v.round && !tbl.isOver() ? "…" : "")),
        el("td", { class: "num abs-total" }, number(v.totals[seat])))))))));
  }

  return { renderOutcome, renderPiles, renderRoundOver, renderScores, renderStatus, renderTop, renderZones, setTile, statusText, zone };
}

// How to play, in a few lines (docs/rules/absolute.md has it all).
export function rulesHelp() {
  const item = (text) => el("li", {}, text);
  return el("details", { class: "abs-rules" },
    el("summary", {}, "How to play ABSOLUTE"),
    el("ul", {},
      item("Each turn: draw one card (deck or discard pile), then optionally swap once, play sets, and finally discard a card or hold."),
      item("A set is 3 or more cards adding up to 0. A zero card (+0 or −0) is wild: it stands for what the set needs, +0 for 0 to +10, −0 for −10 to 0. One zero per set."),
      item("Swap: trade 1–2 hand cards with 1–2 cards of any unlocked set, as long as it still adds up to 0."),
      item("If you played cards you must discard; with more than 7 cards you discard down to 7; otherwise you may hold."),
      item("Go out with an empty hand and at least 3 sets: everyone else gets one last turn."),
      item("A set scores its biggest number, +1 per card beyond 3, +1 per card in a run of 3 or more (same sign), doubled if one suit or 4 of a kind. Zeros count as 0. Cards left in hand cost the biggest number plus one per extra card."),
      item("Three rounds; the highest total wins.")));
}
