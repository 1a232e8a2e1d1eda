// abspecken.js: the ABspecken table (renderer interface: see static/js/table.js).
//
// view = {phase: "pick"|"piggy"|"gift"|"decide"|"take"|"give"|"refill"|"over", round, playthrough,
//         roller, to_act, you, hand (own cards | null), pending (own secret choice | null),
//         players: [{seat, hand_count, piles[6], pile_count, discards, top, total, is_roller,
//                    to_act, committed, refill_need, (replays only: hand, pending)}],
//         dice: {d1, d2, sum, forbidden, forbidden_colour, piggy, piggy_shift} | null,
//         targets (own sums), roller_targets, taker, takers, sources, giving: {taker, source},
//         log / previous: {round, playthrough, roller, dice, piggy_used, gift, grim, decisions,
//                          takes: [{taker, source, card}], refills: [cards | null]},
//         rounds: [{round, playthroughs, finishers, hands, piles, penalties, totals}], totals,
//         options: {piggy_die, end_threshold, number_die, ...}, colours: {"1": "green", ..},
//         over, winners}
// actions: pick {cards}, roll {piggy}, gift {card, to}, no_gift, discard {option, cards}, cannot,
//          take {from}, give {to, card}, refill {cards}.  Only actions found in `legal` are sent.

import { el, fill } from "../js/dom.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const VALUES = [1, 2, 3, 4, 5, 6];
const HAND_SIZE = 5;
const ROLL_MS = 750;
// pip cells (0..8 of a 3x3 grid) of each die face
const PIPS = { 1: [4], 2: [2, 6], 3: [2, 4, 6], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };
const PIGGY_WORDS = { smile: "smiling piggy", grim: "grim piggy" };
const COLOUR_CLASSES = new Set(["green", "pink", "orange", "blue", "yellow", "purple", "red", "brown", "grey"]);

export function mount(root, ctx) {
  let msg = null;
  let busy = false;
  let sel = { key: null, hand: [], piles: [], gift: null };
  let preview = null; // cards of a discard option being hovered, highlighted in the hand
  let rolledKey = null; // the roll last animated
  let rollingUntil = 0;
  let rollTimer = null;
  let firstRender = true;

  const part = (cls, tag = "div", props = {}) => el(tag, { class: cls, ...props });
  const ui = {
    head: part("spk-head"),
    round: part("spk-round muted", "p"),
    status: part("spk-status", "p", { "aria-live": "polite", dataset: { testid: "status" } }),
    last: part("spk-last muted", "p"),
    news: part("spk-news", "p", { role: "status" }),
    outcome: part("spk-outcome", "section", { "aria-label": "Result", dataset: { testid: "outcome" } }),
    dice: part("spk-dice", "section", { "aria-label": "The dice" }),
    mine: part("spk-mine", "section", { "aria-label": "Your hand and your move" }),
    players: part("spk-players", "section", { "aria-label": "Players" }),
    reveal: part("spk-reveal", "section", { "aria-label": "What everyone did" }),
    rounds: part("spk-rounds", "section", { "aria-label": "Rounds and totals" }),
    help: part("spk-help", "details"),
  };
  ui.outcome.hidden = true;
  ui.head.append(ui.round, ui.status, ui.last, ui.news);
  const table = el("div", { class: "felt abspecken" },
    ui.head, ui.outcome, ui.dice, ui.mine, ui.players, ui.reveal, ui.rounds, ui.help);
  root.append(table);
  renderHelp();

  const clock = setInterval(tickClocks, 500);

  // ------------------------------------------------------------- small helpers
  const v = () => msg.view;
  const me = () => ctx.seat;
  const legal = () => (ctx.seat === null || !msg || busy ? [] : msg.legal || []);
  const legalOf = (type) => legal().filter((a) => a.type === type);
  const plainName = (seat) => ctx.names[seat] || `Seat ${seat + 1}`;
  const name = (seat) => (seat === ctx.seat ? "You" : plainName(seat));
  const lname = (seat) => (seat === ctx.seat ? "you" : plainName(seat));
  const isOver = () => Boolean(msg.over || v().phase === "over");
  const colourOf = (value) => (v().colours && v().colours[String(value)]) || "";
  const toAct = () => v().to_act || msg.to_act || [];
  // Orientation (ctx.perspective): the viewer's own seat, or the seat a spectator follows, is
  // listed first, the others after it in seat order. Identity ("You", controls) stays ctx.seat.
  const firstSeat = () => ctx.perspective ?? ctx.seat ?? 0;
  const followed = (seat) => ctx.seat === null && seat === firstSeat();
  const seatsFromMe = () => {
    const n = v().players.length;
    return Array.from({ length: n }, (_, i) => (firstSeat() + i) % n);
  };
  const joinNames = (seats) => listWords(seats.map(lname));

  // In the simultaneous phases other players' moves can overtake ours: the server then refuses
  // ours as "stale" (it was sent for an older state). Send it again once we hold the newer
  // state, if it is still legal there.
  let retry = null; // { action, seq, tries }

  function send(action, tries = 0) {
    if (busy && !tries) return;
    busy = true;
    preview = null;
    ctx.explain("");
    render();
    const seq = msg.seq;
    ctx.act(action).catch((error) => {
      if (error && error.code === "stale" && tries < 3) {
        retry = { action, seq, tries: tries + 1 };
        if (msg.seq > seq) resend();
        return;
      }
      busy = false;
      render();
    });
  }

  function resend() {
    const { action, tries } = retry;
    retry = null;
    const same = JSON.stringify(action);
    if ((msg.legal || []).some((a) => JSON.stringify(a) === same)) {
      ctx.explain("");
      send(action, tries);
    } else {
      busy = false;
      render();
    }
  }

  // a card face: a coloured card with its value, big and in the corners
  function cardFace(value, { tag = "span", small = false, extra = "", ...props } = {}) {
    const colour = colourOf(value);
    const colourClass = COLOUR_CLASSES.has(colour) ? ` spk-col-${colour}` : "";
    const label = `${value} (${colour || "card"})`;
    const node = el(tag, {
      class: `card spk-card spk-v${value}${colourClass}${small ? " spk-card-small" : ""} ${extra}`.trim(),
      dataset: { value },
      role: tag === "span" ? "img" : undefined,
      "aria-label": props["aria-label"] || label,
      title: props.title || label,
      ...props,
    },
    el("span", { class: "spk-card-corner", "aria-hidden": "true" }, String(value)),
    el("span", { class: "spk-card-value", "aria-hidden": "true" }, String(value)),
    el("span", { class: "spk-card-corner spk-card-corner-b", "aria-hidden": "true" }, String(value)));
    if (tag === "button" && !props.type) node.type = "button";
    return node;
  }

  const cardsText = (cards) => cards.join(" + ");
  const multiKey = (cards) => [...cards].sort((a, b) => a - b).join(",");

  // ------------------------------------------------------------- selection state
  function syncSelection() {
    const view = v();
    const mine = ctx.seat !== null ? view.players[ctx.seat] : null;
    const key = [view.round, view.playthrough, view.phase, (view.hand || []).join(""),
      mine ? mine.piles.join("") : ""].join("|");
    if (sel.key !== key) sel = { key, hand: [], piles: [], gift: null };
  }

  // the legal discards, one per multiset (the die option preferred: the effect is the same)
  function discardChoices() {
    const found = new Map();
    for (const action of legalOf("discard")) {
      const key = multiKey(action.cards);
      if (!found.has(key) || action.option === "die") found.set(key, action);
    }
    return [...found.values()].sort((a, b) => a.cards.length - b.cards.length
      || sum(a.cards) - sum(b.cards) || (a.option === "die" ? -1 : 1));
  }

  const selectedCards = () => sel.hand.map((i) => v().hand[i]);

  function pickAction(type, cards) {
    const key = multiKey(cards);
    return legalOf(type).find((a) => multiKey(a.cards) === key) || null;
  }

  // ------------------------------------------------------------- head and status
  function renderHead() {
    const view = v();
    const bits = [`Round ${view.round}`];
    if (view.playthrough) bits.push(`playthrough ${view.playthrough}`);
    bits.push(`game ends at ${plural(view.options.end_threshold, "penalty point")}`);
    if (view.options.piggy_die) bits.push("Piggy die on");
    ui.round.textContent = bits.join(" · ");
    const { text, mine } = statusText();
    ui.status.textContent = text;
    ui.status.classList.toggle("spk-status-you", mine);
    const deadline = myDeadline();
    if (deadline && mine) {
      const after = v().phase === "decide"
        ? (legalOf("cannot").length ? "then the timer declares it for you" : "then the timer makes the smallest legal discard for you")
        : "then the timer chooses for you";
      ui.status.append(" ", clockEl(deadline, "spk-clock-status"), el("span", { class: "spk-clock-note" }, ` ${after}`));
    }
    const last = describeLast();
    ui.last.textContent = last;
    ui.last.hidden = !last;
    const rounds = view.rounds || [];
    const ended = rounds[rounds.length - 1];
    if (view.phase === "pick" && ended && !isOver()) {
      const winners = ended.finishers.map(name);
      fill(ui.news, `Round ${ended.round} is over: ${listWords(winners)} emptied hand and piles. `,
        `Totals so far: ${view.players.map((p) => `${plainName(p.seat)} ${p.total}`).join(", ")}. `,
        `Round ${view.round} starts: everyone has 24 cards again.`);
      ui.news.hidden = false;
    } else {
      fill(ui.news);
      ui.news.hidden = true;
    }
  }

  function statusText() {
    const view = v();
    const phase = view.phase;
    const spectator = ctx.seat === null;
    const waiting = toAct().filter((s) => s !== ctx.seat);
    if (isOver()) return { text: "The game is over.", mine: false };
    if (busy) return { text: "Sending…", mine: true };
    if (phase === "pick") {
      if (legalOf("pick").length) return { text: `Pick your opening hand: any ${HAND_SIZE} cards from your draw piles. Everyone picks at the same time, in secret.`, mine: true };
      if (!spectator && view.pending) return { text: `Your hand is chosen. Waiting for ${joinNames(waiting)} to pick.`, mine: false };
      return { text: `Everyone picks an opening hand in secret: ${committedCount()} chosen.`, mine: false };
    }
    if (phase === "piggy") {
      if (legalOf("roll").length) return { text: "You roll this time. Add the Piggy die to the roll?", mine: true };
      return { text: `${plainName(view.roller)} rolls and decides whether to add the Piggy die.`, mine: false };
    }
    if (phase === "gift") {
      if (legalOf("gift").length) return { text: "Smiling piggy! You may give one of your cards to another player before anyone discards.", mine: true };
      return { text: `Smiling piggy: ${plainName(view.roller)} may give a card to another player.`, mine: false };
    }
    if (phase === "decide") {
      if (legalOf("cannot").length) return { text: "Nothing in your hand fits these dice: declare “I cannot ABspecken!”", mine: true };
      if (legalOf("discard").length) return { text: `Your move: ${ruleWords(view.targets)}`, mine: true };
      if (!spectator && view.pending) return { text: `You have decided. Waiting for ${joinNames(waiting)}.`, mine: false };
      return { text: `Everyone decides in secret: ${committedCount()} decided.`, mine: false };
    }
    if (phase === "take") {
      if (legalOf("take").length) return { text: "You could not discard: take a card from a player who did.", mine: true };
      return { text: `${name(view.taker)} could not discard and ${view.taker === ctx.seat ? "take" : "takes"} a card from a player who did.`, mine: false };
    }
    if (phase === "give") {
      const giving = view.giving || {};
      if (legalOf("give").length) return { text: `${plainName(giving.taker)} takes a card from you: choose which one to hand over.`, mine: true };
      return { text: `${name(giving.source)} ${giving.source === ctx.seat ? "choose" : "chooses"} a card to hand to ${lname(giving.taker)}.`, mine: false };
    }
    if (phase === "refill") {
      const need = ctx.seat !== null ? view.players[ctx.seat].refill_need : 0;
      if (legalOf("refill").length) return { text: `Top up your hand: take ${plural(need, "card")} of your choice from your draw piles.`, mine: true };
      return { text: `Waiting for ${joinNames(waiting)} to top up to ${HAND_SIZE} cards.`, mine: false };
    }
    return { text: "", mine: false };
  }

  function committedCount() {
    const players = v().players;
    return `${players.filter((p) => p.committed).length} of ${players.length}`;
  }

  // "discard cards adding up to 6, or one card showing 2 or 4; no 4s (blue)"
  function ruleWords(targets) {
    const dice = v().dice;
    if (!dice) return "";
    const sums = targets && targets.length ? targets : [dice.sum];
    const dieValues = [...new Set([dice.d1, dice.d2])].filter((d) => d !== dice.forbidden);
    const dieText = dieValues.length ? `, or one card showing ${orWords(dieValues)}` : "";
    return `discard cards adding up to ${orWords(sums)}${dieText}. No ${dice.forbidden}s (${dice.forbidden_colour}).`;
  }

  function capital(text) {
    return text ? text[0].toUpperCase() + text.slice(1) : text;
  }

  function describeLast() {
    const last = msg.last;
    if (!last || !last.action) return "";
    const { seat, action } = last;
    const who = name(seat);
    const s = seat === ctx.seat ? "" : "s";
    switch (action.type) {
      case "hidden": {
        // once the secret phase is over, the choice is in the playthrough's record
        const log = v().log;
        const d = !["pick", "decide"].includes(v().phase) && log && log.decisions ? log.decisions[seat] : null;
        if (d && d.type === "discard") return `${who} discarded ${cardsText(d.cards)}.`;
        if (d && d.type === "cannot") return `${who} declared “I cannot ABspecken!”`;
        if (v().phase === "pick" || (v().phase === "decide" && v().players[seat].committed)) {
          return `${who} ${seat === ctx.seat ? "have" : "has"} made a secret choice.`;
        }
        return `${who} made ${seat === ctx.seat ? "your" : "their"} choice; everything was revealed.`;
      }
      case "pick": return `${who} picked ${cardsText(action.cards)}.`;
      case "roll": return `${who} rolled ${action.piggy ? "with" : "without"} the Piggy die.`;
      case "gift": return `${who} gave ${action.card ? `a ${action.card}` : "a card"} to ${lname(action.to)}.`;
      case "no_gift": return `${who} kept ${seat === ctx.seat ? "your" : "their"} cards (no gift).`;
      case "discard": return `${who} discarded ${cardsText(action.cards)}.`;
      case "cannot": return `${who} declared “I cannot ABspecken!”`;
      case "take": return `${who} took a card from ${lname(action.from)}.`;
      case "give": return `${who} handed ${action.card ? `a ${action.card}` : "a card"} to ${lname(action.to)}.`;
      case "refill": return `${who} topped up with ${cardsText(action.cards) || "nothing"}.`;
      default: return `${who} play${s}.`;
    }
  }

  // ------------------------------------------------------------- dice
  function dieEl(value, label, extra = "") {
    const cells = Array.from({ length: 9 }, (_, i) => el("span", { class: PIPS[value].includes(i) ? "spk-pip" : "spk-nopip" }));
    return el("span", { class: `spk-die spk-die-eye ${extra}`.trim(), role: "img", "aria-label": label, title: label }, cells);
  }

  function forbiddenDie(value, colour, numberDie) {
    const label = `Forbidden this playthrough: ${value} (${colour})`;
    const colourClass = COLOUR_CLASSES.has(colour) ? ` spk-col-${colour}` : "";
    if (numberDie) {
      return el("span", { class: `spk-die spk-die-number${colourClass}`, role: "img", "aria-label": label, title: label },
        el("span", { class: "spk-die-numeral", "aria-hidden": "true" }, String(value)),
        el("span", { class: "spk-die-swatch", "aria-hidden": "true" }));
    }
    return el("span", { class: `spk-die spk-die-colour${colourClass}`, role: "img", "aria-label": label, title: label },
      el("span", { class: "spk-die-chip", "aria-hidden": "true" }, String(value)));
  }

  function piggyDie(face) {
    const shift = face && face.startsWith("pm") ? Number(face.slice(2)) : 0;
    const label = shift ? `Piggy die: plus or minus ${shift} for the roller's sum` : `Piggy die: ${PIGGY_WORDS[face] || face}`;
    return el("span", { class: "spk-die spk-die-piggy", role: "img", "aria-label": label, title: label, dataset: { piggy: face } },
      shift ? el("span", { class: "spk-die-shift", "aria-hidden": "true" }, `±${shift}`) : pigSvg(face === "smile"));
  }

  function renderDice() {
    const view = v();
    const dice = view.dice;
    if (!dice) {
      const waitingFor = view.phase === "pick" ? "Dice are rolled once everyone has picked a hand."
        : view.phase === "piggy" ? `${name(view.roller)} ${view.roller === ctx.seat ? "are" : "is"} about to roll.` : "";
      fill(ui.dice, el("p", { class: "spk-dice-empty muted" }, waitingFor));
      ui.dice.hidden = !waitingFor;
      ui.dice.classList.remove("spk-rolling");
      return;
    }
    ui.dice.hidden = false;
    const key = `${view.round}.${view.playthrough}`;
    const now = Date.now();
    if (rolledKey !== key) {
      rolledKey = key;
      if (!firstRender && !reducedMotion()) {
        rollingUntil = now + ROLL_MS;
        clearInterval(rollTimer);
        rollTimer = setInterval(() => {
          if (Date.now() >= rollingUntil) { clearInterval(rollTimer); rollTimer = null; }
          if (msg) renderDice();
        }, 90);
      }
    }
    const rolling = now < rollingUntil;
    ui.dice.classList.toggle("spk-rolling", rolling);
    const rnd = () => 1 + Math.floor(Math.random() * 6);
    const d1 = rolling ? rnd() : dice.d1;
    const d2 = rolling ? rnd() : dice.d2;
    const forb = rolling ? rnd() : dice.forbidden;
    const piggyFaces = ["pm1", "pm2", "pm3", "smile", "grim"];
    const piggy = dice.piggy && rolling ? piggyFaces[Math.floor(Math.random() * 5)] : dice.piggy;
    const rollerName = name(view.roller);
    const dieLine = [...new Set([dice.d1, dice.d2])];
    const numberDie = Boolean(view.options.number_die);
    const sums = view.roller_targets || [dice.sum];
    const facts = [
      el("li", { class: "spk-fact-roller muted" }, `${rollerName} rolled:`),
      el("li", {}, el("strong", {}, `Sum ${dice.sum}`),
        dice.piggy_shift ? el("span", { class: "muted" }, ` (${view.roller === ctx.seat ? "you" : rollerName}: ${orWords(sums)})`) : null),
      el("li", {}, "or one card: ", el("strong", {}, orWords(dieLine))),
      el("li", { class: "spk-fact-forbidden" }, "forbidden: ",
        el("strong", {}, `${dice.forbidden}s`), ` (${dice.forbidden_colour})`),
    ];
    if (dice.piggy) facts.push(el("li", { class: "spk-fact-piggy" }, piggyWords(dice.piggy, view.roller)));
    const forbidden = forbiddenDie(forb, rolling ? colourOf(forb) : dice.forbidden_colour, numberDie);
    forbidden.dataset.forbidden = dice.forbidden;
    fill(ui.dice,
      el("div", { class: "spk-dice-row", "aria-hidden": rolling ? "true" : undefined },
        el("div", { class: "spk-dice-group" },
          el("span", { class: "spk-dice-label" }, "Eye dice"),
          el("div", { class: "spk-dice-faces" },
            dieEl(d1, `Die showing ${d1}`, "spk-d1"), dieEl(d2, `Die showing ${d2}`, "spk-d2"))),
        el("div", { class: "spk-dice-group spk-dice-group-forbidden" },
          el("span", { class: "spk-dice-label" }, numberDie ? "Number die" : "Colour die"),
          el("div", { class: "spk-dice-faces" }, forbidden)),
        dice.piggy ? el("div", { class: "spk-dice-group" },
          el("span", { class: "spk-dice-label" }, "Piggy die"),
          el("div", { class: "spk-dice-faces" }, piggyDie(piggy))) : null),
      rolling ? el("p", { class: "spk-dice-facts spk-rolling-note" }, "Rolling…")
        : el("ul", { class: "spk-dice-facts" }, facts));
  }

  function piggyWords(face, roller) {
    const who = name(roller);
    if (face === "smile") {
      const log = v().log;
      if (log && log.gift) return `Smiling piggy: ${who} gave a card to ${lname(log.gift.to)}.`;
      if (v().phase !== "gift") return `Smiling piggy: ${who} kept ${roller === ctx.seat ? "your" : "their"} cards.`;
      return `Smiling piggy: ${who} may give a card away.`;
    }
    if (face === "grim") {
      const grim = v().log && v().log.grim;
      return grim ? `Grim piggy: ${who} took back ${roller === ctx.seat ? "your" : "their"} top discard, a ${grim}.` : `Grim piggy: ${who} takes back the top discard.`;
    }
    const shift = PIGGY_SHIFT(face);
    return `Piggy ±${shift}: ${who} may also aim ${shift} above or below the sum.`;
  }

  // ------------------------------------------------------------- my area
  function renderMine() {
    const view = v();
    if (ctx.seat === null || isOver()) { fill(ui.mine); ui.mine.hidden = true; return; }
    ui.mine.hidden = false;
    const phase = view.phase;
    const parts = [];
    if (phase === "pick" && legalOf("pick").length) {
      parts.push(...pilePicker(HAND_SIZE, "pick", "Your opening hand", "Keep this hand"));
    } else if (phase === "refill" && legalOf("refill").length) {
      parts.push(handRow({ title: "Your hand" }));
      const need = view.players[ctx.seat].refill_need;
      parts.push(...pilePicker(need, "refill", "Cards to take", need === 1 ? "Take this card" : "Take these cards"));
    } else if (phase === "decide" && legalOf("discard").length) {
      parts.push(...decideControls());
    } else if (phase === "gift" && legalOf("gift").length) {
      parts.push(...giftControls());
    } else if (phase === "give" && legalOf("give").length) {
      parts.push(handRow({ title: "Your hand: tap the card to hand over", mode: "give" }));
    } else {
      parts.push(handRow({ title: "Your hand" }));
      parts.push(...otherControls());
    }
    if (busy) parts.push(el("p", { class: "spk-sending muted" }, "Sending…"));
    fill(ui.mine, parts);
  }

  // the hand as a row of cards; mode "decide" / "gift" / "give" makes them buttons
  function handRow({ title, mode = null, lit = new Set(), note = null }) {
    const view = v();
    let hand = view.hand || [];
    const pending = view.pending;
    let ghost = [];
    if (view.phase === "pick" && pending && pending.type === "pick") { hand = pending.cards; ghost = hand; }
    const dice = view.dice;
    const forbidden = dice && ["gift", "decide"].includes(view.phase) ? dice.forbidden : null;
    const chosen = pending && pending.type === "discard" ? [...pending.cards] : [];
    const previewLeft = preview ? [...preview] : [];
    const cards = hand.map((value, i) => {
      const classes = [];
      if (value === forbidden) classes.push("spk-forbidden");
      const pendingAt = chosen.indexOf(value);
      if (pendingAt >= 0) { chosen.splice(pendingAt, 1); classes.push("spk-chosen"); }
      const previewAt = previewLeft.indexOf(value);
      if (previewAt >= 0) { previewLeft.splice(previewAt, 1); classes.push("spk-preview"); }
      if (mode === "decide" || mode === "gift") {
        const selected = mode === "gift" ? sel.gift === i : sel.hand.includes(i);
        if (selected) classes.push("spk-selected");
        if (lit.has(i)) classes.push("spk-lit");
        else if (mode === "decide" && !selected) classes.push("spk-dim");
        const what = `${value} (${colourOf(value)})`;
        const state = value === forbidden ? ", forbidden now" : mode === "decide" ? (lit.has(i) || selected ? ", can go now" : ", cannot go now") : "";
        return cardFace(value, {
          tag: "button", extra: classes.join(" "), "aria-pressed": String(selected),
          "aria-label": `${what}${state}`, dataset: { value, focus: `hand-${i}`, index: i },
          onclick: () => (mode === "gift" ? toggleGift(i) : toggleDiscard(i)),
        });
      }
      if (mode === "give") {
        const giving = view.giving || {};
        const action = legalOf("give").find((a) => a.card === value);
        return cardFace(value, {
          tag: "button", extra: "spk-lit", dataset: { value, focus: `hand-${i}`, index: i },
          "aria-label": `Give your ${value} (${colourOf(value)}) to ${plainName(giving.taker)}`,
          onclick: () => action && send(action),
        });
      }
      return cardFace(value, { extra: classes.join(" ") });
    });
    const count = hand.length;
    return el("div", { class: "spk-hand-area" },
      el("h3", { class: "spk-hand-title" }, title, el("span", { class: "muted" }, ` · ${plural(count, "card")}`),
        ghost.length ? el("span", { class: "tag" }, "secret until all have picked") : null),
      el("div", { class: "spk-hand", dataset: { testid: "hand" } },
        cards.length ? cards : el("p", { class: "muted spk-hand-empty" }, "No cards in hand.")),
      note);
  }

  function toggleDiscard(i) {
    const view = v();
    const value = view.hand[i];
    if (sel.hand.includes(i)) {
      sel.hand = sel.hand.filter((j) => j !== i);
      ctx.explain("");
      render();
      return;
    }
    const dice = view.dice;
    if (value === dice.forbidden) {
      ctx.explain(`No ${value}s this playthrough: the ${view.options.number_die ? "number" : "colour"} die shows ${value} (${dice.forbidden_colour}).`);
      return;
    }
    const options = discardChoices();
    const withIt = [...selectedCards(), value];
    if (options.some((o) => containsAll(o.cards, withIt))) {
      sel.hand = [...sel.hand, i];
      ctx.explain("");
      render();
      return;
    }
    if (!options.some((o) => o.cards.includes(value))) {
      ctx.explain(`Your ${value} cannot go now: it matches neither die (${orWords([...new Set([dice.d1, dice.d2])])}) and no cards of yours add up to ${orWords(view.targets || [dice.sum])} with it.`);
      return;
    }
    const total = sum(withIt);
    ctx.explain(`${cardsText(withIt)} = ${total}: that is not ${orWords(view.targets || [dice.sum])}, and one die allows only one card. Tap a chosen card again to put it back.`);
  }

  function toggleGift(i) {
    sel.gift = sel.gift === i ? null : i;
    render();
  }

  function decideControls() {
    const view = v();
    const options = discardChoices();
    const chosen = selectedCards();
    const compatible = options.filter((o) => containsAll(o.cards, chosen));
    // lit: hand cards that could still join the current selection
    const lit = new Set();
    view.hand.forEach((value, i) => {
      if (sel.hand.includes(i)) return;
      const withIt = [...chosen, value];
      if (compatible.some((o) => containsAll(o.cards, withIt))) lit.add(i);
    });
    const exact = chosen.length ? options.find((o) => multiKey(o.cards) === multiKey(chosen)) : null;
    const chips = options.map((o, n) => {
      const isChosen = exact === o;
      const fits = containsAll(o.cards, chosen);
      return el("button", {
        type: "button", class: `btn btn-small spk-option${isChosen ? " spk-option-on" : ""}${fits ? "" : " spk-option-off"}`,
        "aria-pressed": String(isChosen), dataset: { focus: `option-${n}`, option: o.option, cards: o.cards.join(",") },
        "aria-label": `Choose ${cardsText(o.cards)} (${optionWords(o)})`,
        onmouseenter: () => setPreview(o.cards), onmouseleave: () => setPreview(null),
        onfocus: () => setPreview(o.cards), onblur: () => setPreview(null),
        onclick: () => { sel.hand = indicesFor(o.cards); preview = null; ctx.explain(""); render(); },
      }, el("span", { class: "spk-option-cards" }, o.cards.map((c) => miniChip(c))),
      el("span", { class: "btn-sub" }, optionWords(o)));
    });
    let confirm;
    if (exact) {
      confirm = el("button", {
        type: "button", class: "btn spk-confirm", dataset: { focus: "confirm", testid: "discard" },
        onclick: () => send(exact),
      }, `Discard ${cardsText(exact.cards)}`);
    } else {
      const hint = chosen.length
        ? `${cardsText(chosen)} so far: add ${compatible.length ? "a lit card" : "…"} to reach ${orWords(view.targets)}.`
        : "Tap the lit cards, or choose one of these:";
      confirm = el("p", { class: "spk-hint" }, hint);
    }
    return [
      handRow({ title: "Your hand", mode: "decide", lit }),
      el("div", { class: "spk-controls" },
        confirm,
        chosen.length ? el("button", { type: "button", class: "btn btn-small btn-quiet spk-clear", dataset: { focus: "clear" }, onclick: () => { sel.hand = []; render(); } }, "Clear") : null),
      el("div", { class: "spk-options", role: "group", "aria-label": "Possible discards" },
        el("span", { class: "spk-options-label muted" }, options.length === 1 ? "The only possible discard:" : `${options.length} possible discards:`),
        chips),
      el("p", { class: "spk-tip muted" }, "Your choice stays secret until everyone has decided. The lowest card you discard ends on top of your pile."),
    ];
  }

  function optionWords(o) {
    return o.option === "die" ? `one die: ${o.cards[0]}` : `sum ${sum(o.cards)}`;
  }

  function indicesFor(cards) {
    const hand = v().hand;
    const used = [];
    for (const value of cards) {
      const i = hand.findIndex((c, j) => c === value && !used.includes(j));
      if (i >= 0) used.push(i);
    }
    return used;
  }

  function setPreview(cards) {
    preview = cards;
    const wanted = cards ? [...cards] : [];
    for (const node of ui.mine.querySelectorAll(".spk-hand .spk-card")) {
      const value = Number(node.dataset.value);
      const at = wanted.indexOf(value);
      const on = at >= 0;
      if (on) wanted.splice(at, 1);
      node.classList.toggle("spk-preview", on);
    }
  }

  function giftControls() {
    const view = v();
    const hand = view.hand;
    const gifts = legalOf("gift");
    const lit = new Set(hand.map((_, i) => i));
    const card = sel.gift !== null ? hand[sel.gift] : null;
    const forbidden = view.dice ? view.dice.forbidden : null;
    const others = seatsFromMe().filter((s) => s !== ctx.seat);
    const buttons = others.map((to) => {
      const action = card !== null ? gifts.find((a) => a.card === card && a.to === to) : null;
      return el("button", {
        type: "button", class: "btn" + (action ? " spk-confirm" : ""), dataset: { focus: `gift-${to}`, to },
        onclick: () => {
          if (action) send(action);
          else ctx.explain("First tap the card you want to give away.");
        },
      }, card !== null ? `Give the ${card} to ${plainName(to)}` : `Give to ${plainName(to)}`);
    });
    const keep = legalOf("no_gift")[0];
    if (keep) {
      buttons.push(el("button", { type: "button", class: "btn", dataset: { focus: "no-gift" }, onclick: () => send(keep) }, "Keep my cards"));
    }
    const tip = forbidden && hand.includes(forbidden)
      ? `Tip: nobody may discard ${forbidden}s this playthrough, so a ${forbidden} is a nasty gift.`
      : "The other player must accept the card and may discard it right away if the dice allow.";
    return [
      handRow({ title: "Your hand: tap the card to give away", mode: "gift", lit }),
      el("div", { class: "spk-controls", role: "group", "aria-label": "Give the card to" }, buttons),
      el("p", { class: "spk-tip muted" }, tip),
    ];
  }

  function otherControls() {
    const view = v();
    const parts = [];
    const rolls = legalOf("roll");
    if (rolls.length) {
      const withPig = rolls.find((a) => a.piggy);
      const without = rolls.find((a) => !a.piggy);
      parts.push(el("div", { class: "spk-controls" },
        withPig ? el("button", { type: "button", class: "btn spk-confirm spk-roll", dataset: { focus: "roll-piggy" }, onclick: () => send(withPig) },
          pigSvg(true), "Roll with the Piggy die") : null,
        without ? el("button", { type: "button", class: "btn spk-roll", dataset: { focus: "roll-plain" }, onclick: () => send(without) }, "Roll without it") : null));
      parts.push(el("p", { class: "spk-tip muted" },
        "Piggy die: ±1, ±2 or ±3 lets you aim that much above or below the sum; the smiling piggy lets you give a card away; the grim piggy puts your top discard back in your hand."));
    }
    const cannot = legalOf("cannot")[0];
    if (cannot) {
      parts.push(el("div", { class: "spk-controls" },
        el("button", { type: "button", class: "btn spk-confirm", dataset: { focus: "cannot", testid: "cannot" }, onclick: () => send(cannot) },
          "I cannot ABspecken!")));
      parts.push(el("p", { class: "spk-tip muted" }, `The dice say: ${ruleWords(view.targets)} None of your cards fit, so after the reveal you take a card from someone who discarded.`));
    }
    const takes = legalOf("take");
    if (takes.length) {
      parts.push(el("div", { class: "spk-controls", role: "group", "aria-label": "Take a card from" },
        takes.map((a) => el("button", {
          type: "button", class: "btn spk-confirm spk-take", dataset: { focus: `take-${a.from}`, from: a.from },
          onclick: () => send(a),
        }, `Take from ${plainName(a.from)}`, el("span", { class: "btn-sub" }, `${plural(view.players[a.from].hand_count, "card")} in hand`)))));
      parts.push(el("p", { class: "spk-tip muted" },
        view.options.take_choice === "source_chooses" ? "They choose which card you get." : "You get one of their cards at random."));
    }
    if (!parts.length && view.phase === "decide" && view.pending) {
      const p = view.pending;
      parts.push(el("p", { class: "spk-pending" }, p.type === "cannot" ? "You declared “I cannot ABspecken!”." : `You will discard ${cardsText(p.cards)}.`,
        el("span", { class: "muted" }, " Secret until everyone has decided.")));
    }
    return parts;
  }

  // pick from one's own six draw piles: the opening hand, or a refill
  function pilePicker(need, type, title, confirmText) {
    const view = v();
    const piles = view.players[ctx.seat].piles;
    const chosen = sel.piles;
    const left = VALUES.map((value) => piles[value - 1] - chosen.filter((c) => c === value).length);
    const full = chosen.length >= need;
    const pileButtons = VALUES.map((value) => {
      const n = left[value - 1];
      return el("div", { class: "spk-pickpile" },
        cardFace(value, {
          tag: "button", extra: n > 0 && !full ? "spk-lit" : "spk-dim",
          "aria-label": `Add a ${value} (${colourOf(value)}), ${n} left in that pile`,
          dataset: { focus: `pile-${value}`, pile: value },
          onclick: () => {
            if (n <= 0) { ctx.explain(`Your ${value}s pile is empty.`); return; }
            if (full) { ctx.explain(`You already have ${plural(need, "card")}: tap a chosen card to put it back first.`); return; }
            sel.piles = [...chosen, value].sort((a, b) => a - b);
            ctx.explain("");
            render();
          },
        }),
        el("span", { class: "spk-pickpile-count" }, `${n} left`));
    });
    const picked = chosen.map((value, i) => cardFace(value, {
      tag: "button", extra: "spk-selected",
      "aria-label": `Put the ${value} back`, dataset: { focus: `chosen-${i}` },
      onclick: () => { sel.piles = chosen.filter((_, j) => j !== i); render(); },
    }));
    for (let i = chosen.length; i < need; i += 1) picked.push(el("span", { class: "card spk-slot", "aria-hidden": "true" }));
    const action = full ? pickAction(type, chosen) : null;
    return [
      el("div", { class: "spk-hand-area" },
        el("h3", { class: "spk-hand-title" }, title, el("span", { class: "muted" }, ` · ${chosen.length} of ${need}`)),
        el("div", { class: "spk-hand spk-picked" }, picked)),
      el("div", { class: "spk-controls" },
        action ? el("button", { type: "button", class: "btn spk-confirm", dataset: { focus: "confirm", testid: type }, onclick: () => send(action) }, confirmText)
          : el("p", { class: "spk-hint" }, `Tap your draw piles below: ${plural(need - chosen.length, "more card")}.`),
        chosen.length ? el("button", { type: "button", class: "btn btn-small btn-quiet", dataset: { focus: "clear" }, onclick: () => { sel.piles = []; render(); } }, "Clear") : null),
      el("div", { class: "spk-pickpiles", role: "group", "aria-label": "Your draw piles" },
        el("h3", { class: "spk-hand-title" }, "Your draw piles"), el("div", { class: "spk-pickpiles-row" }, pileButtons)),
      type === "pick" ? el("p", { class: "spk-tip muted" }, "Every value from 1 to 6 has its own colour. A spread of values gives you more ways to match the dice.") : null,
    ];
  }

  // ------------------------------------------------------------- players
  function renderPlayers() {
    const view = v();
    const log = view.log && view.log.decisions ? view.log : null;
    const sources = new Set(view.phase === "take" ? view.sources : []);
    const deadlines = msg.deadlines || {};
    fill(ui.players, seatsFromMe().map((seat) => {
      const p = view.players[seat];
      const acting = toAct().includes(seat) && !isOver();
      const tags = [];
      if (seat === ctx.seat) tags.push(el("span", { class: "tag tag-you" }, "You"));
      if (p.is_roller && !isOver()) tags.push(el("span", { class: "tag spk-tag-roller", title: "Rolls the dice this playthrough" }, "Roller"));
      if (isOver() && (view.winners || []).includes(seat)) tags.push(el("span", { class: "tag tag-win" }, "Winner"));
      const secret = ["pick", "decide"].includes(view.phase);
      if (!isOver() && secret) {
        tags.push(p.committed
          ? el("span", { class: "tag spk-tag-done", dataset: { testid: "committed" } }, view.phase === "pick" ? "Hand chosen ✓" : "Decided ✓")
          : el("span", { class: "tag spk-tag-wait" }, view.phase === "pick" ? "Picking…" : "Deciding…"));
      } else if (acting) {
        tags.push(el("span", { class: "tag tag-turn" }, actingWord(view.phase)));
      }
      if (sources.has(seat)) tags.push(el("span", { class: "tag spk-tag-source" }, "Can be taken from"));
      if (deadlines[String(seat)] && acting) tags.push(clockEl(deadlines[String(seat)]));
      const decision = log ? log.decisions[seat] : null;
      const revealedPending = p.pending || null;
      const knownHand = p.hand || (view.you === seat && view.hand ? view.hand : null);
      return el("article", {
        class: "spk-player" + (acting ? " spk-player-active" : "") + (seat === ctx.seat ? " spk-player-me" : "")
          + (followed(seat) ? " spk-player-followed" : "") + (sources.has(seat) ? " spk-player-source" : ""),
        "aria-label": `${plainName(seat)}${seat === ctx.seat ? " (you)" : ""}`, dataset: { seat },
      },
      el("div", { class: "spk-player-head" },
        el("span", { class: "spk-name" }, plainName(seat)), tags),
      el("div", { class: "spk-player-score" },
        el("span", { class: "spk-total", dataset: { testid: "total" } }, el("strong", {}, String(p.total)), el("span", { class: "muted" }, ` / ${view.options.end_threshold} penalty`)),
        el("progress", { max: view.options.end_threshold, value: Math.min(p.total, view.options.end_threshold), "aria-label": `${plainName(seat)}: ${p.total} of ${view.options.end_threshold} penalty points` })),
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
      decision ? el("p", { class: "spk-player-did" + (decision.type === "cannot" ? " spk-did-cannot" : "") },
        decision.type === "cannot" ? "Could not ABspecken!" : ["Discarded ", decision.cards.map((c) => miniChip(c)), el("span", { class: "muted" }, ` (${decision.option === "die" ? "one die" : `sum ${sum(decision.cards)}`})`)]) : null,
      revealedPending ? el("p", { class: "spk-player-did spk-did-secret" },
        revealedPending.type === "cannot" ? "Secretly: cannot" : [revealedPending.type === "pick" ? "Secretly picked " : "Secretly discarding ", revealedPending.cards.map((c) => miniChip(c))]) : null);
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
    const colour = colourOf(value);
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
    const view = v();
    let log = null;
    let title = "";
    if (view.log && view.log.decisions) { log = view.log; title = `Revealed: playthrough ${log.playthrough}`; }
    else if (view.previous && view.previous.decisions) { log = view.previous; title = `Last playthrough (round ${log.round}, playthrough ${log.playthrough})`; }
    if (!log) { fill(ui.reveal); ui.reveal.hidden = true; return; }
    ui.reveal.hidden = false;
    const dice = log.dice;
    const lines = [];
    if (log.grim) lines.push(el("li", {}, `Grim piggy: ${name(log.roller)} took back a ${log.grim}.`));
    if (log.gift) lines.push(el("li", {}, `Smiling piggy: ${name(log.gift.from)} gave `, log.gift.card ? ["a ", miniChip(log.gift.card)] : "a card", ` to ${lname(log.gift.to)}.`));
    const order = Array.from({ length: view.players.length }, (_, i) => (log.roller + i) % view.players.length);
    for (const seat of order) {
      const d = log.decisions[seat];
      if (!d) continue;
      lines.push(el("li", { class: d.type === "cannot" ? "spk-did-cannot" : "" },
        el("strong", {}, name(seat)), d.type === "cannot" ? ": “I cannot ABspecken!”"
          : [` discarded `, d.cards.map((c) => miniChip(c)), el("span", { class: "muted" }, d.option === "die" ? " by one die" : ` = ${sum(d.cards)}`)]));
    }
    for (const take of log.takes) {
      if (take.source === null) lines.push(el("li", {}, `${name(take.taker)} could take nothing: nobody who discarded has a card left.`));
      else lines.push(el("li", {}, `${name(take.taker)} took `, take.card ? ["a ", miniChip(take.card)] : "a card", ` from ${lname(take.source)}.`));
    }
    const refills = order.filter((seat) => log.refills[seat] && log.refills[seat].length);
    if (refills.length) {
      lines.push(el("li", {}, "Topped up: ", refills.map((seat, i) => [i ? "; " : "", `${name(seat)} `, log.refills[seat].map((c) => miniChip(c))])));
    }
    fill(ui.reveal,
      el("h3", {}, title),
      dice ? el("p", { class: "muted spk-reveal-dice" },
        `${name(log.roller)} rolled ${dice.d1} + ${dice.d2} = ${dice.d1 + dice.d2}, no ${dice.forbidden}s (${colourOf(dice.forbidden)})`,
        dice.piggy ? `, Piggy die: ${dice.piggy.startsWith("pm") ? `±${PIGGY_SHIFT(dice.piggy)}` : PIGGY_WORDS[dice.piggy]}` : "", ".") : null,
      el("ul", { class: "spk-reveal-list" }, lines));
  }

  // ------------------------------------------------------------- rounds, outcome, help
  function renderRounds() {
    const view = v();
    const rounds = view.rounds || [];
    if (!rounds.length) { fill(ui.rounds); ui.rounds.hidden = true; return; }
    ui.rounds.hidden = false;
    const last = rounds[rounds.length - 1];
    const seats = view.players.map((p) => p.seat);
    const summary = seats.map((seat) => (last.finishers.includes(seat)
      ? el("li", { class: "spk-round-win" }, el("strong", {}, name(seat)), " emptied hand and piles: 0 points.")
      : el("li", {}, el("strong", {}, name(seat)), ` ${seat === ctx.seat ? "were" : "was"} left with `,
        leftWords(last.hands[seat], last.piles[seat]), `: ${plural(last.penalties[seat], "point")}.`)));
    fill(ui.rounds,
      el("h3", {}, `Round ${last.round} result (${plural(last.playthroughs, "playthrough")})`),
      el("ul", { class: "spk-round-list" }, summary),
      el("div", { class: "table-scroll" }, el("table", { class: "score-table spk-score-table" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Round"), seats.map((s) => el("th", { scope: "col", class: "num" }, plainName(s))))),
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
    if (!isOver()) { ui.outcome.hidden = true; fill(ui.outcome); return; }
    const view = v();
    const winners = view.winners && view.winners.length ? view.winners
      : (msg.outcome && msg.outcome.winners) || [];
    let headline;
    if (winners.length > 1) headline = winners.includes(ctx.seat) ? "You share the win!" : `Shared win: ${listWords(winners.map(plainName))}.`;
    else if (winners[0] === ctx.seat) headline = "You win!";
    else headline = `${plainName(winners[0])} wins.`;
    const ranked = view.players.map((p) => p.seat).sort((a, b) => view.totals[a] - view.totals[b]);
    fill(ui.outcome,
      el("p", { class: "spk-outcome-title" }, headline),
      el("p", { class: "spk-outcome-sub" }, `Lowest penalty wins; the game ended when a total reached ${view.options.end_threshold}.`),
      el("ol", { class: "spk-finals" }, ranked.map((seat) => el("li", { class: "spk-final" + (winners.includes(seat) ? " spk-final-win" : ""), dataset: { seat } },
        el("span", { class: "spk-final-name" }, plainName(seat)), " ",
        el("strong", { class: "spk-final-score" }, String(view.totals[seat])), el("span", { class: "muted" }, view.totals[seat] === 1 ? " point" : " points")))));
    ui.outcome.hidden = false;
  }

  function renderHelp() {
    fill(ui.help,
      el("summary", {}, "How to play ABspecken"),
      el("ul", {},
        el("li", {}, "Each round everyone has 24 cards, 4 of each value 1 to 6 (each value has its own colour), in six draw piles. You pick 5 of them as your hand."),
        el("li", {}, "The roller rolls two dice and the colour die. Then everyone at once, in secret, discards either cards that add up to the sum of the two dice, or exactly one card showing one die. Cards of the colour (value) on the colour die are forbidden."),
        el("li", {}, "If nothing fits you declare “I cannot ABspecken!” and, after the reveal, take a card from someone who discarded."),
        el("li", {}, "Then everyone tops up to 5 cards from their own piles. The round ends when someone has no cards left in hand or piles; everyone else scores the values of all their remaining cards."),
        el("li", {}, "The game ends after a round in which a total reaches the limit. The lowest total wins."),
        el("li", {}, "Piggy die (option): once their discard pile has a card, the roller may add it. ±1/±2/±3: the roller may aim that far above or below the sum. Smiling piggy: the roller may give a card to anyone. Grim piggy: the roller takes back their top discard.")));
  }

  // ------------------------------------------------------------- timers
  function myDeadline() {
    if (ctx.seat === null || !msg.deadlines) return null;
    return msg.deadlines[String(ctx.seat)] || null;
  }

  function clockEl(iso, extra = "") {
    const node = el("span", { class: `tag spk-clock ${extra}`.trim(), dataset: { deadline: iso }, role: "timer" });
    setClock(node);
    return node;
  }

  function setClock(node) {
    const left = Math.max(0, Math.ceil((Date.parse(node.dataset.deadline) - Date.now()) / 1000));
    if (Number.isNaN(left)) { node.textContent = ""; return; }
    node.textContent = `${left} s`;
    node.setAttribute("aria-label", `${left} seconds left`);
    node.classList.toggle("spk-clock-low", left <= 10);
  }

  function tickClocks() {
    for (const node of table.querySelectorAll(".spk-clock")) setClock(node);
  }

  // ------------------------------------------------------------- render
  function render() {
    if (!msg) return;
    const focused = table.contains(document.activeElement) ? document.activeElement.dataset.focus : null;
    syncSelection();
    table.classList.toggle("is-spectator", ctx.seat === null);
    table.dataset.phase = v().phase;
    renderHead();
    renderOutcome();
    renderDice();
    renderMine();
    renderPlayers();
    renderReveal();
    renderRounds();
    if (focused) {
      const again = table.querySelector(`[data-focus="${focused}"]`);
      if (again) again.focus({ preventScroll: true });
    }
    firstRender = false;
  }

  return {
    update(next) {
      msg = next;
      if (retry && msg.seq > retry.seq) {
        resend();
        if (busy) return;
      }
      busy = false;
      render();
    },
    destroy() {
      clearInterval(clock);
      clearInterval(rollTimer);
      table.remove();
    },
  };
}

// ------------------------------------------------------------- pure helpers
function sum(cards) {
  return cards.reduce((a, b) => a + b, 0);
}

function PIGGY_SHIFT(face) {
  return face && face.startsWith("pm") ? Number(face.slice(2)) : 0;
}

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function listWords(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

function orWords(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

// does the multiset `big` contain the multiset `small`?
function containsAll(big, small) {
  const left = [...big];
  for (const value of small) {
    const at = left.indexOf(value);
    if (at < 0) return false;
    left.splice(at, 1);
  }
  return true;
}

function reducedMotion() {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children) if (child) node.append(child);
  return node;
}

// a pig's face: smiling, or grim with frowning brows
function pigSvg(smiling) {
  const line = { fill: "none", stroke: "#6d2342", "stroke-width": 1.8, "stroke-linecap": "round" };
  return svg("svg", { viewBox: "0 0 40 40", class: "spk-pig", "aria-hidden": "true", focusable: "false" },
    svg("path", { d: "M7 14 L9 3 L17 9 Z", fill: "#ec86ad", stroke: "#b34d78", "stroke-width": 1.2, "stroke-linejoin": "round" }),
    svg("path", { d: "M33 14 L31 3 L23 9 Z", fill: "#ec86ad", stroke: "#b34d78", "stroke-width": 1.2, "stroke-linejoin": "round" }),
    svg("circle", { cx: 20, cy: 22, r: 14, fill: "#f7b3cc", stroke: "#b34d78", "stroke-width": 1.4 }),
    svg("circle", { cx: 14, cy: 17.5, r: 1.9, fill: "#3a1f2b" }),
    svg("circle", { cx: 26, cy: 17.5, r: 1.9, fill: "#3a1f2b" }),
    smiling ? null : svg("path", { d: "M10 12.5 L17 15", ...line }),
    smiling ? null : svg("path", { d: "M30 12.5 L23 15", ...line }),
    svg("ellipse", { cx: 20, cy: 24.5, rx: 6.2, ry: 4.4, fill: "#f08cb2", stroke: "#b34d78", "stroke-width": 1.2 }),
    svg("ellipse", { cx: 17.8, cy: 24.5, rx: 1.1, ry: 1.6, fill: "#6d2342" }),
    svg("ellipse", { cx: 22.2, cy: 24.5, rx: 1.1, ry: 1.6, fill: "#6d2342" }),
    svg("path", { d: smiling ? "M14 30.5 Q20 35.5 26 30.5" : "M14.5 33 Q20 29.5 25.5 33", ...line }),
  );
}
