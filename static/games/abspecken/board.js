// abspecken/board.js: what everyone sees: each player (hand, draw piles, discards, clock), the
// reveal of a playthrough, the rounds and totals, the outcome and the rules.
// `tbl` is the table's shared state and parts (see ../abspecken.js): its state (msg, busy, sel,
// preview, ...), ctx, words, ui and the other parts' functions.

import { el, fill } from "../../js/dom.js";
import { clockNode, deadlineOf } from "../../js/table/clock.js";
import { drawOutcome } from "../../js/table/outcome.js";
import { plural, pluralWord } from "../../js/words.js";
import { COLOUR_CLASSES, VALUES, sum } from "./cards.js";
import { PIGGY_SHIFT, PIGGY_WORDS } from "./dice.js";

export function boardPart(tbl) {
  // ------------------------------------------------------------- players
  function renderPlayers() {
    const view = tbl.v();
    const log = view.log && view.log.decisions ? view.log : null;
    const sources = new Set(view.phase === "take" ? view.sources : []);
    fill(tbl.ui.players, tbl.seatsFromMe().map((seat) => {
      const p = view.players[seat];
      const acting = tbl.toAct().includes(seat) && !tbl.isOver();
      const tags = [];
      if (seat === tbl.ctx.seat) tags.push(el("span", { class: "tag tag-you" }, "You"));
      if (p.is_roller && !tbl.isOver()) tags.push(el("span", { class: "tag spk-tag-roller", title: "Rolls the dice this playthrough" }, "Roller"));
      if (tbl.isOver() && (view.winners || []).includes(seat)) tags.push(el("span", { class: "tag tag-win" }, "Winner"));
      const secret = ["pick", "decide"].includes(view.phase);
      if (!tbl.isOver() && secret) {
        tags.push(p.committed
          ? el("span", { class: "tag spk-tag-done", dataset: { testid: "committed" } },
            view.phase === "pick" ? "Hand chosen ✓" : tbl.finished(seat) ? "Finished: no cards left" : "Decided ✓")
          : el("span", { class: "tag spk-tag-wait" }, view.phase === "pick" ? "Picking…" : "Deciding…"));
      } else if (acting) {
        tags.push(el("span", { class: "tag tag-turn" }, actingWord(view.phase)));
      }
      if (sources.has(seat)) tags.push(el("span", { class: "tag spk-tag-source" }, "Can be taken from"));
      const deadline = deadlineOf(tbl.msg, seat);
      if (deadline && acting) tags.push(clockNode(deadline, { className: "tag spk-clock", label: `Time left for ${tbl.plainName(seat)}` }));
      const decision = log ? log.decisions[seat] : null;
      const revealedPending = p.pending || null;
      const knownHand = p.hand || (view.you === seat && view.hand ? view.hand : null);
      return el("article", {
        class: "spk-player" + (acting ? " spk-player-active" : "") + (seat === tbl.ctx.seat ? " spk-player-me" : "")
          + (tbl.followed(seat) ? " spk-player-followed" : "") + (sources.has(seat) ? " spk-player-source" : ""),
        "aria-label": `${tbl.plainName(seat)}${seat === tbl.ctx.seat ? " (you)" : ""}`, dataset: { seat },
      },
      el("div", { class: "spk-player-head" },
        el("span", { class: "spk-name" }, tbl.plainName(seat)), tags),
      el("div", { class: "spk-player-score" },
        el("span", { class: "spk-total", dataset: { testid: "total" } }, el("strong", {}, String(p.total)), el("span", { class: "muted" }, ` / ${view.options.end_threshold} penalty`)),
        el("progress", { max: view.options.end_threshold, value: Math.min(p.total, view.options.end_threshold), "aria-label": `${tbl.plainName(seat)}: ${p.total} of ${view.options.end_threshold} penalty points` })),
      el("div", { class: "spk-player-row" },
        rowLabel("Hand", plural(knownHand ? knownHand.length : p.hand_count, "card")),
        knownHand ? el("span", { class: "spk-minis" }, knownHand.map((c) => miniChip(c)))
          : handBacks(p.hand_count)),
      el("div", { class: "spk-player-row" },
        rowLabel("Draw piles", `${p.pile_count} left`),
        el("span", { class: "spk-piles", role: "img", "aria-label": `Draw piles: ${pilesWords(p.piles)}` },
          VALUES.map((value) => el("span", { class: "spk-pile" + (p.piles[value - 1] ? "" : " spk-pile-empty"), title: `${p.piles[value - 1]} × ${value}` },
            miniChip(value), el("span", { class: "spk-pile-n" }, `×${p.piles[value - 1]}`))))),
      el("div", { class: "spk-player-row" },
        rowLabel("Discards", p.discards.length ? `${p.discards.length}, top ${p.top}` : "empty"),
        discardPile(p.discards)),
      decision && tbl.finishedIn(log, seat) ? el("p", { class: "spk-player-did" }, "Finished: no cards left to discard") : null,
      decision && !tbl.finishedIn(log, seat) ? el("p", { class: "spk-player-did" + (decision.type === "cannot" ? " spk-did-cannot" : "") },
        decision.type === "cannot" ? "Could not ABspecken!" : ["Discarded ", decision.cards.map((c) => miniChip(c)), el("span", { class: "muted" }, ` (${decision.option === "die" ? "one die" : `sum ${sum(decision.cards)}`})`)]) : null,
      revealedPending ? el("p", { class: "spk-player-did spk-did-secret" },
        revealedPending.type === "cannot" ? (view.phase === "decide" && tbl.finished(seat) ? "Finished: no cards left" : "Secretly: cannot") : [revealedPending.type === "pick" ? "Secretly picked " : "Secretly discarding ", revealedPending.cards.map((c) => miniChip(c))]) : null);
    }));
  }

  function rowLabel(label, count) {
    return el("span", { class: "spk-row-label" }, label, el("span", { class: "spk-count" }, count));
  }

  function actingWord(phase) {
    return { piggy: "Rolling", gift: "Giving", take: "Taking", give: "Handing over", refill: "Topping up" }[phase] || "To act";
  }

  function pilesWords(piles) {
    const parts = VALUES.filter((value) => piles[value - 1]).map((value) => `${piles[value - 1]} × ${value}`);
    return parts.length ? parts.join(", ") : "all empty";
  }

  function miniChip(value) {
    const colour = tbl.colourOf(value);
    const colourClass = COLOUR_CLASSES.has(colour) ? ` spk-col-${colour}` : "";
    return el("span", { class: `spk-mini spk-v${value}${colourClass}`, title: `${value} (${colour})` }, String(value));
  }

  function handBacks(count) {
    const shown = Math.min(count, 10);
    return el("span", { class: "spk-backs", "aria-hidden": "true" }, Array.from({ length: shown }, () => el("span", { class: "spk-back" })));
  }

  function discardPile(cards) {
    if (!cards.length) return el("span", { class: "spk-minis spk-discards" });
    const shown = cards.slice(-8);
    return el("span", { class: "spk-minis spk-discards", role: "img", "aria-label": `Discard pile, top card ${cards[cards.length - 1]}` },
      cards.length > shown.length ? el("span", { class: "muted spk-more" }, "…") : null,
      shown.map((c, i) => {
        const chip = miniChip(c);
        if (i === shown.length - 1) chip.classList.add("spk-top");
        return chip;
      }));
  }

  // ------------------------------------------------------------- reveal (what happened)
  function renderReveal() {
    const view = tbl.v();
    let log = null;
    let title = "";
    if (view.log && view.log.decisions) { log = view.log; title = `Revealed: playthrough ${log.playthrough}`; }
    else if (view.previous && view.previous.decisions) { log = view.previous; title = `Last playthrough (round ${log.round}, playthrough ${log.playthrough})`; }
    if (!log) { fill(tbl.ui.reveal); tbl.ui.reveal.hidden = true; return; }
    tbl.ui.reveal.hidden = false;
    const dice = log.dice;
    const lines = [];
    if (log.grim) lines.push(el("li", {}, `Grim piggy: ${tbl.name(log.roller)} took back a ${log.grim}.`));
    if (log.gift) lines.push(el("li", {}, `Smiling piggy: ${tbl.name(log.gift.from)} gave `, log.gift.card ? ["a ", miniChip(log.gift.card)] : "a card", ` to ${tbl.lname(log.gift.to)}.`));
    const order = Array.from({ length: view.players.length }, (_, i) => (log.roller + i) % view.players.length);
    for (const seat of order) {
      const d = log.decisions[seat];
      if (!d) continue;
      if (tbl.finishedIn(log, seat)) {
        lines.push(el("li", {}, el("strong", {}, tbl.name(seat)), `: no cards left in hand or piles, finished.`));
        continue;
      }
      lines.push(el("li", { class: d.type === "cannot" ? "spk-did-cannot" : "" },
        el("strong", {}, tbl.name(seat)), d.type === "cannot" ? ": “I cannot ABspecken!”"
          : [` discarded `, d.cards.map((c) => miniChip(c)), el("span", { class: "muted" }, d.option === "die" ? " by one die" : ` = ${sum(d.cards)}`)]));
    }
    for (const take of log.takes) {
      if (take.source === null) lines.push(el("li", {}, `${tbl.name(take.taker)} could take nothing: nobody who discarded has a card left.`));
      else lines.push(el("li", {}, `${tbl.name(take.taker)} took `, take.card ? ["a ", miniChip(take.card)] : "a card", ` from ${tbl.lname(take.source)}.`));
    }
    const refills = order.filter((seat) => log.refills[seat] && log.refills[seat].length);
    if (refills.length) {
      lines.push(el("li", {}, "Topped up: ", refills.map((seat, i) => [i ? "; " : "", `${tbl.name(seat)} `, log.refills[seat].map((c) => miniChip(c))])));
    }
    fill(tbl.ui.reveal,
      el("h3", {}, title),
      dice ? el("p", { class: "muted spk-reveal-dice" },
        `${tbl.name(log.roller)} rolled ${dice.d1} + ${dice.d2} = ${dice.d1 + dice.d2}, no ${dice.forbidden}s (${tbl.colourOf(dice.forbidden)})`,
        dice.piggy ? `, Piggy die: ${dice.piggy.startsWith("pm") ? `±${PIGGY_SHIFT(dice.piggy)}` : PIGGY_WORDS[dice.piggy]}` : "", ".") : null,
      el("ul", { class: "spk-reveal-list" }, lines));
  }

  // ------------------------------------------------------------- rounds, outcome, help
  function renderRounds() {
    const view = tbl.v();
    const rounds = view.rounds || [];
    if (!rounds.length) { fill(tbl.ui.rounds); tbl.ui.rounds.hidden = true; return; }
    tbl.ui.rounds.hidden = false;
    const last = rounds[rounds.length - 1];
    const seats = view.players.map((p) => p.seat);
    const summary = seats.map((seat) => (last.finishers.includes(seat)
      ? el("li", { class: "spk-round-win" }, el("strong", {}, tbl.name(seat)), " emptied hand and piles: 0 points.")
      : el("li", {}, el("strong", {}, tbl.name(seat)), ` ${seat === tbl.ctx.seat ? "were" : "was"} left with `,
        leftWords(last.hands[seat], last.piles[seat]), `: ${plural(last.penalties[seat], "point")}.`)));
    fill(tbl.ui.rounds,
      el("h3", {}, `Round ${last.round} result (${plural(last.playthroughs, "playthrough")})`),
      el("ul", { class: "spk-round-list" }, summary),
      el("div", { class: "table-scroll" }, el("table", { class: "score-table spk-score-table" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Round"), seats.map((s) => el("th", { scope: "col", class: "num" }, tbl.plainName(s))))),
        el("tbody", {}, rounds.map((r) => el("tr", {},
          el("th", { scope: "row" }, String(r.round)),
          seats.map((s) => el("td", { class: "num" + (r.finishers.includes(s) ? " spk-zero" : "") }, `+${r.penalties[s]}`))))),
        el("tfoot", {}, el("tr", {}, el("th", { scope: "row" }, "Total"),
          seats.map((s) => el("td", { class: "num" }, el("strong", {}, String(view.totals[s])))))))));
  }

  function leftWords(hand, piles) {
    const inPiles = VALUES.flatMap((value) => Array(piles[value - 1]).fill(value));
    const parts = [];
    if (hand.length) parts.push(["hand ", hand.map((c) => miniChip(c))]);
    if (inPiles.length) parts.push([parts.length ? " and piles " : "piles ", inPiles.map((c) => miniChip(c))]);
    return parts.length ? parts : "nothing";
  }

  function renderOutcome() {
    const view = tbl.v();
    drawOutcome(tbl.ui.outcome, {
      msg: tbl.msg, over: tbl.isOver(), words: tbl.words, prefix: "spk",
      scores: view.totals, lowWins: true,
      winners: view.winners && view.winners.length ? view.winners : (tbl.msg.outcome && tbl.msg.outcome.winners) || [],
      order: view.players.map((p) => p.seat).sort((a, b) => view.totals[a] - view.totals[b]),
      headlineWords: { shared: "Shared win", youShare: "You share the win!" },
      normal: `Lowest penalty wins; the game ended when a total reached ${view.options.end_threshold}.`,
      after: (seat) => el("span", { class: "muted" }, ` ${pluralWord(view.totals[seat], "point")}`),
    });
  }

  function renderHelp() {
    fill(tbl.ui.help,
      el("summary", {}, "How to play ABspecken"),
      el("ul", {},
        el("li", {}, "Each round everyone has 24 cards, 4 of each value 1 to 6 (each value has its own colour), in six draw piles. You pick 5 of them as your hand."),
        el("li", {}, "The roller rolls two dice and the colour die. Then everyone at once, in secret, discards either cards that add up to the sum of the two dice, or exactly one card showing one die. Cards of the colour (value) on the colour die are forbidden."),
        el("li", {}, "When you discard cards of two or more values, you choose which one ends on top of your discard pile."),
        el("li", {}, "If nothing fits you declare “I cannot ABspecken!” and, after the reveal, take a card from someone who discarded."),
        el("li", {}, "Then everyone tops up to 5 cards from their own piles. The round ends when someone has no cards left in hand or piles; everyone else scores the values of all their remaining cards."),
        el("li", {}, "The game ends after a round in which a total reaches the limit. The lowest total wins."),
        el("li", {}, "Piggy die (option): once their discard pile has a card, the roller may add it. ±1/±2/±3: the roller may aim that far above or below the sum. Smiling piggy: the roller may give a card to anyone, and must if none of their cards fits the dice (a table may make the gift always optional or always compulsory). Grim piggy: the roller takes back their top discard.")));
  }

  return { actingWord, discardPile, handBacks, leftWords, miniChip, pilesWords, renderHelp, renderOutcome, renderPlayers, renderReveal, renderRounds, rowLabel };
}
