// absolute.js: the ABSOLUTE table (renderer interface: see static/js/table.js).
//
// view (games/absolute/view.py): phase "draw"|"play"|"discard"|"over", round, rounds_total,
//   first_player, turn, hand (own; null for spectators), hand_counts, hand_limit, deck_count,
//   discard (top last), sets [{id, owner, cards, zero, locked, base, extra, run, double, score}],
//   went_out, first_out, final_turns, this_turn {seat, drew, drawn_card, swapped, played,
//   can_draw_deck, can_draw_discard, can_swap, can_hold, must_discard}, turns_taken, max_turns,
//   totals, round_scores, last_round, rounds, options, winners. A replay's revealed view
//   (Engine.reveal) adds hands (every seat's) and deck_cards.
// actions: {type:"draw", source:"deck"|"discard"}, {type:"swap", set, give:[..], take:[..]},
//   {type:"play", groups:[[..], ..]}, {type:"discard", card}, {type:"hold"}.
// Cards are strings such as "+7S", "-10D", "-0C": sign, number, suit. The suits are drawn in
// CSS: S square, C circle, D diamond, T triangle. Zero cards are wild.
//
// Building a play: select cards (hand or your play), then "New set", "Move here" on a group of
// your play, or "Add here" on one of your sets (which pulls that set into your play; its cards
// can then be moved too, which regroups it). Each group shows its sum, whether it is a valid set
// and what it would score; the play is sent once, as one action. The server's answer is final.

import { el, fill } from "../js/dom.js";

const SUITS = {
  S: { name: "square", symbol: "■" },
  C: { name: "circle", symbol: "●" },
  D: { name: "diamond", symbol: "◆" },
  T: { name: "triangle", symbol: "▲" },
};
const SUIT_ORDER = "SCDT";
const MIN_SET = 3;
const MAX_SWAP = 2;
const TOP = 10;
const SETS_TO_GO_OUT = 3;
const MINUS = "\u2212";
const ENDED_BY = {
  went_out: "went out",
  turn_limit: "the turn limit was reached",
  stalled: "nobody could draw any more",
};

// ------------------------------------------------------------------ cards
export function parseCard(card) {
  const sign = card[0] === "-" ? -1 : 1;
  const num = Number(card.slice(1, -1));
  return { sign, num, suit: card.slice(-1), zero: num === 0, value: sign * num };
}

const isZero = (card) => parseCard(card).zero;
const valueOf = (card) => parseCard(card).value;
const sumOf = (cards) => cards.reduce((total, card) => total + valueOf(card), 0);

function rankOf(card) {
  const p = parseCard(card);
  return (p.zero ? p.sign * 0.5 : p.value) * 8 + SUIT_ORDER.indexOf(p.suit);
}

export function sortCards(cards) {
  return [...cards].sort((a, b) => rankOf(a) - rankOf(b));
}

function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const other = new Set(b);
  return a.every((card) => other.has(card));
}

// +3, −3 or 0 (a real minus sign)
export function signed(value) {
  if (value > 0) return `+${value}`;
  if (value < 0) return `${MINUS}${-value}`;
  return "0";
}

// "−7■", "+0●"
export function cardText(card) {
  const p = parseCard(card);
  return `${p.sign < 0 ? MINUS : "+"}${p.num}${SUITS[p.suit] ? SUITS[p.suit].symbol : p.suit}`;
}

const cardsText = (cards) => cards.map(cardText).join(" ");

// "minus 7 square", "plus zero circle (wild)"
function cardSpeech(card) {
  const p = parseCard(card);
  const suit = SUITS[p.suit] ? SUITS[p.suit].name : p.suit;
  return `${p.sign < 0 ? "minus" : "plus"} ${p.zero ? "zero" : p.num} ${suit}${p.zero ? " (wild)" : ""}`;
}

function zeroRange(card) {
  return parseCard(card).sign > 0 ? [0, TOP] : [-TOP, 0];
}

// ------------------------------------------------------------------ rules mirrored for live feedback
// (games/absolute/groups.py and scoring.py; the server checks everything again)

function runPoints(cards) {
  let points = 0;
  for (const sign of [1, -1]) {
    const numbers = [...new Set(cards.map(parseCard).filter((p) => p.sign === sign).map((p) => p.num))]
      .sort((a, b) => a - b);
    let chain = 0;
    let previous = -2;
    for (const number of numbers) {
      chain = number === previous + 1 ? chain + 1 : 1;
      if (chain === MIN_SET) points += MIN_SET;
      else if (chain > MIN_SET) points += 1;
      previous = number;
    }
  }
  return points;
}

export function scoreSet(cards) {
  const parsed = cards.map(parseCard);
  const base = Math.max(...parsed.map((p) => p.num));
  const extra = Math.max(0, cards.length - MIN_SET);
  const run = runPoints(cards);
  const sameSuit = new Set(parsed.map((p) => p.suit)).size === 1;
  const counts = new Map();
  for (const p of parsed) counts.set(p.num, (counts.get(p.num) || 0) + 1);
  const ofAKind = Math.max(...counts.values()) >= 4;
  const double = sameSuit ? "suit" : ofAKind ? "kind" : null;
  const subtotal = base + extra + run;
  return { base, extra, run, double, score: double ? subtotal * 2 : subtotal };
}

// "9 + 1 extra + 3 run, ×2 one suit"
function breakdown(s) {
  let text = `${s.base}`;
  if (s.extra) text += ` + ${s.extra} extra`;
  if (s.run) text += ` + ${s.run} run`;
  if (s.double) text = `(${text}) × 2 ${s.double === "suit" ? "one suit" : "four of a kind"}`;
  return text;
}

// Is `cards` a valid set? `frozen` maps zero cards whose value may not change to that value.
// -> {ok, total, zeroValue, message}
export function checkGroup(cards, frozen = new Map()) {
  const total = sumOf(cards);
  const zeros = cards.filter(isZero);
  if (cards.length < MIN_SET) {
    const more = MIN_SET - cards.length;
    return { ok: false, total, message: `A set needs at least ${MIN_SET} cards: add ${more} more.` };
  }
  if (zeros.length > 1) {
    return { ok: false, total, message: `A set may hold only one zero card; this one has ${zeros.length}.` };
  }
  if (!zeros.length) {
    if (total) {
      return { ok: false, total, message: `It adds up to ${signed(total)}, not 0: it needs cards worth ${signed(-total)} more.` };
    }
    return { ok: true, total, zeroValue: null, message: "" };
  }
  const zero = zeros[0];
  const value = -total;
  if (frozen.has(zero) && frozen.get(zero) !== value) {
    return {
      ok: false, total,
      message: `The ${cardText(zero)} keeps its value ${signed(frozen.get(zero))} while it stays with its old set-mates; here it would have to stand for ${signed(value)}.`,
    };
  }
  const [low, high] = zeroRange(zero);
  if (value < low || value > high) {
    return {
      ok: false, total,
      message: `The ${cardText(zero)} would have to stand for ${signed(value)}, but a ${parseCard(zero).sign < 0 ? MINUS : "+"}0 can only stand for ${signed(low)} to ${signed(high)}.`,
    };
  }
  return { ok: true, total, zeroValue: value, message: "" };
}

// ------------------------------------------------------------------ drawing helpers
function pip(suit, extra = "") {
  return el("span", { class: `abs-pip abs-suit-${suit} ${extra}`.trim(), "aria-hidden": "true" });
}

// A card face. tag "button" makes it clickable; zeroValue shows what a zero stands for.
function cardFace(card, { tag = "span", size = "", zeroValue = null, extra = "", ...props } = {}) {
  const p = parseCard(card);
  const shown = p.zero && zeroValue !== null && zeroValue !== undefined;
  const label = cardSpeech(card) + (shown ? `, standing for ${signed(zeroValue)}` : "");
  const classes = ["abs-card", p.sign < 0 ? "abs-neg" : "abs-pos", p.zero ? "abs-zero" : "",
    size ? `abs-card-${size}` : "", extra].filter(Boolean).join(" ");
  const node = el(tag, {
    class: classes, dataset: { card }, "aria-label": label, title: cardText(card) + (shown ? ` = ${signed(zeroValue)}` : ""),
    role: tag === "span" ? "img" : undefined, ...props,
  },
  el("span", { class: "abs-corner", "aria-hidden": "true" }, pip(p.suit)),
  el("span", { class: "abs-num", "aria-hidden": "true" },
    el("span", { class: "abs-sign" }, p.sign < 0 ? MINUS : "+"), String(p.num)),
  el("span", { class: "abs-corner abs-corner-end", "aria-hidden": "true" }, pip(p.suit)),
  shown ? el("span", { class: "abs-zv", "aria-hidden": "true" }, `= ${signed(zeroValue)}`)
    : p.zero ? el("span", { class: "abs-zv abs-zv-wild", "aria-hidden": "true" }, "wild") : null);
  if (tag === "button") node.type = "button";
  return node;
}

function cardBack(extra = "", props = {}) {
  return el("span", { class: `abs-back ${extra}`.trim(), "aria-hidden": "true", ...props },
    el("span", { class: "abs-back-mark" }, "±"));
}

// 12, −3 (a real minus sign; no plus)
function number(value) {
  return value < 0 ? `${MINUS}${-value}` : String(value);
}

function plural(count, word, many = `${word}s`) {
  return `${count} ${count === 1 ? word : many}`;
}

function clockText(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

// ------------------------------------------------------------------ the table
export function mount(root, ctx) {
  let msg = null;
  let previous = null;
  let busy = false;
  let lg = emptyLegal();
  let selected = new Set();
  let draft = emptyDraft();
  let swap = null; // { set: id, take: Set }
  let suggestAt = 0;
  let nextKey = 1;

  const part = (cls, tag = "div", props = {}) => el(tag, { class: cls, ...props });
  const ui = {
    top: part("abs-top"),
    outcome: part("abs-outcome", "section", { "aria-label": "Result" }),
    roundOver: part("abs-round-over", "section", { "aria-label": "Round result" }),
    status: part("abs-status", "p", { "aria-live": "polite" }),
    last: part("abs-last muted", "p"),
    piles: part("abs-piles", "section", { "aria-label": "Deck and discard pile" }),
    others: part("abs-zones", "section", { "aria-label": "The other players and their sets" }),
    mine: part("abs-zones abs-zones-mine", "section", { "aria-label": "Your sets" }),
    swap: part("abs-swap", "section", { "aria-label": "Swap" }),
    draft: part("abs-draft", "section", { "aria-label": "Your play" }),
    hand: part("abs-hand-area", "section", { "aria-label": "Your hand" }),
    tray: part("abs-tray"),
    trayInfo: part("abs-tray-info", "p", { "aria-live": "polite" }),
    trayButtons: part("abs-tray-buttons"),
    scores: part("abs-scores", "section", { "aria-label": "Scores" }),
  };
  ui.tray.append(ui.trayInfo, ui.trayButtons);
  ui.outcome.dataset.testid = "outcome";
  ui.outcome.hidden = true;
  ui.roundOver.dataset.testid = "round-over";
  ui.roundOver.hidden = true;
  const felt = el("div", { class: "felt abs-table" },
    ui.top, ui.outcome, ui.roundOver,
    el("div", { class: "abs-say" }, ui.status, ui.last),
    ui.others, ui.piles, ui.mine, ui.swap, ui.draft, ui.hand, ui.tray, ui.scores, rulesHelp());
  root.append(felt);
  const ticker = setInterval(tick, 1000);

  // ---------------------------------------------------------------- facts
  const view = () => msg.view;
  const isOver = () => Boolean(msg.over || view().phase === "over");
  // A seat's name; two seats of the same name (bots) get their seat number too.
  const name = (seat) => {
    const plain = ctx.names[seat] || `Seat ${seat + 1}`;
    const twin = ctx.names.some((other, i) => i !== seat && other === plain);
    return twin ? `${plain} ${seat + 1}` : plain;
  };
  const who = (seat) => (seat === ctx.seat ? "You" : name(seat));
  const seated = () => ctx.seat !== null && ctx.seat !== undefined;
  // Orientation (ctx.perspective): the viewer's own seat, or the seat a spectator follows, is
  // the zone at the bottom; the other zones follow it in seat order. Identity stays ctx.seat.
  const bottomSeat = () => ctx.perspective ?? ctx.seat ?? 0;
  const followed = (seat) => !seated() && seat === bottomSeat();
  const myHand = () => (seated() && Array.isArray(view().hand) ? view().hand : []);
  const myTurn = () => seated() && !isOver() && view().turn === ctx.seat;
  const players = () => view().players || view().hand_counts.length;
  const ownSets = () => view().sets.filter((s) => s.owner === ctx.seat);
  const setById = (id) => view().sets.find((s) => s.id === id);
  // A discard is owed now (after a play, or above the hand limit): the hand is the target.
  const mustDiscard = () => myTurn() && view().phase !== "draw" && !lg.hold && lg.discards.size > 0;
  const draftCards = () => new Set(draft.groups.flatMap((g) => g.cards));
  const inDraft = (card) => draft.groups.some((g) => g.cards.includes(card));

  function emptyLegal() {
    return { drawDeck: false, drawDiscard: false, hold: false, discards: new Set(), swaps: [], plays: [] };
  }

  function readLegal() {
    const legal = seated() && msg && Array.isArray(msg.legal) ? msg.legal : [];
    const found = emptyLegal();
    for (const action of legal) {
      if (action.type === "draw" && action.source === "deck") found.drawDeck = true;
      else if (action.type === "draw" && action.source === "discard") found.drawDiscard = true;
      else if (action.type === "hold") found.hold = true;
      else if (action.type === "discard") found.discards.add(action.card);
      else if (action.type === "swap") found.swaps.push(action);
      else if (action.type === "play") found.plays.push(action);
    }
    // Best plays first, for "Suggest a set".
    const own = new Map(view().sets.filter((s) => s.owner === ctx.seat).map((s) => [s.id, s]));
    const gain = (action) => action.groups.reduce((total, group) => {
      const from = [...own.values()].filter((s) => s.cards.some((c) => group.includes(c)));
      return total + scoreSet(group).score - from.reduce((t, s) => t + s.score, 0);
    }, 0);
    found.plays = found.plays.map((a) => ({ a, g: gain(a) })).sort((x, y) => y.g - x.g).map((x) => x.a);
    return found;
  }

  // ---------------------------------------------------------------- draft (the play being built)
  function emptyDraft() {
    return { groups: [], origins: new Map() }; // origins: set id -> {cards, zero, score}
  }

  function tidy() {
    for (const g of draft.groups) g.cards = sortCards(g.cards);
    draft.groups = draft.groups.filter((g) => g.cards.length);
    const placed = draftCards();
    for (const [id, origin] of draft.origins) {
      if (!origin.cards.some((c) => placed.has(c))) draft.origins.delete(id);
    }
    const hand = new Set(myHand());
    selected = new Set([...selected].filter((c) => hand.has(c) || placed.has(c)));
  }

  function removeFromGroups(cards) {
    for (const g of draft.groups) g.cards = g.cards.filter((c) => !cards.has(c));
  }

  function pullSet(id) {
    const s = setById(id);
    if (!s) return null;
    if (!draft.origins.has(id)) {
      draft.origins.set(id, { cards: [...s.cards], zero: s.zero, score: s.score });
    }
    let group = draft.groups.find((g) => g.origin === id);
    if (!group) {
      const missing = s.cards.filter((c) => !inDraft(c));
      group = { key: nextKey++, cards: missing, origin: id };
      draft.groups.push(group);
    }
    return group;
  }

  function newGroup() {
    if (!selected.size) return;
    const cards = [...selected];
    removeFromGroups(selected);
    draft.groups.push({ key: nextKey++, cards, origin: null });
    selected.clear();
    afterEdit(`group-${draft.groups[draft.groups.length - 1].key}`);
  }

  function moveTo(key) {
    const group = draft.groups.find((g) => g.key === key);
    if (!group || !selected.size) return;
    const moving = new Set([...selected].filter((c) => !group.cards.includes(c)));
    removeFromGroups(moving);
    group.cards.push(...moving);
    selected.clear();
    afterEdit(`group-${key}`);
  }

  function addToSet(id) {
    const moving = new Set(selected);
    const group = pullSet(id);
    if (!group) return;
    removeFromGroups(moving);
    group.cards.push(...moving);
    selected.clear();
    afterEdit(`group-${group.key}`);
  }

  function regroupSet(id) {
    const group = pullSet(id);
    if (group) afterEdit(`group-${group.key}`);
  }

  function backToHand() {
    const hand = new Set(myHand());
    const back = [...selected].filter((c) => hand.has(c) && inDraft(c));
    const stuck = [...selected].filter((c) => !hand.has(c));
    removeFromGroups(new Set(back));
    selected.clear();
    afterEdit("hand");
    if (stuck.length) {
      ctx.explain(`${cardsText(stuck)} already ${stuck.length === 1 ? "lies" : "lie"} on the table: cards of your sets can move to another group, but not back to your hand.`);
    }
  }

  // Undo one group: hand cards go back to the hand, cards of your sets back to their own set.
  function putBack(key) {
    const group = draft.groups.find((g) => g.key === key);
    if (!group) return;
    const origin = group.origin !== null ? draft.origins.get(group.origin) : null;
    if (origin && !origin.cards.every((c) => group.cards.includes(c))) {
      ctx.explain("Some cards of this set are in another group: move them back here first, or reset your play.");
      return;
    }
    const hand = new Set(myHand());
    const strays = group.cards.filter((c) => !hand.has(c) && !(origin && origin.cards.includes(c)));
    draft.groups = draft.groups.filter((g) => g !== group);
    if (origin) draft.origins.delete(group.origin);
    for (const [id, other] of draft.origins) {
      const home = strays.filter((c) => other.cards.includes(c));
      if (!home.length) continue;
      const existing = draft.groups.find((g) => g.origin === id);
      if (existing) existing.cards.push(...home);
      else pullSet(id); // brings back every card of that set that is not placed elsewhere
    }
    afterEdit("hand");
  }

  function resetDraft() {
    draft = emptyDraft();
    selected.clear();
    afterEdit("hand");
  }

  function afterEdit(focusKey) {
    tidy();
    render(focusKey);
  }

  function toggle(card) {
    if (busy) return;
    if (selected.has(card)) selected.delete(card);
    else selected.add(card);
    render();
  }

  // Which zero cards keep their value (spec 4.4: a zero beside any of its old set-mates).
  function frozenZeros() {
    const frozen = new Map();
    for (const origin of draft.origins.values()) {
      if (origin.zero === null || origin.zero === undefined) continue;
      const zero = origin.cards.find(isZero);
      const group = draft.groups.find((g) => g.cards.includes(zero));
      if (group && origin.cards.some((c) => c !== zero && group.cards.includes(c))) {
        frozen.set(zero, origin.zero);
      }
    }
    return frozen;
  }

  function evaluateDraft() {
    const v = view();
    const hand = new Set(myHand());
    const frozen = frozenZeros();
    const groups = draft.groups.map((g) => {
      const origin = g.origin !== null ? draft.origins.get(g.origin) : null;
      const unchanged = Boolean(origin && sameCards(g.cards, origin.cards));
      const check = checkGroup(g.cards, frozen);
      return { g, check, unchanged, score: check.ok ? scoreSet(g.cards) : null };
    });
    const changed = groups.filter((r) => !r.unchanged);
    // Points of the sets this play takes apart (an untouched set counts on neither side).
    const before = [...draft.origins.entries()]
      .filter(([id]) => !groups.some((r) => r.unchanged && r.g.origin === id))
      .reduce((t, [, o]) => t + o.score, 0);
    const after = changed.reduce((t, r) => t + (r.score ? r.score.score : 0), 0);
    const handPlaced = [...draftCards()].filter((c) => hand.has(c));
    const action = { type: "play", groups: changed.map((r) => sortCards(r.g.cards)) };
    let problem = null;
    if (!changed.length) problem = "Nothing changes yet: add cards from your hand.";
    else if (changed.some((r) => !r.check.ok)) problem = "Every group must be a valid set: fix the groups marked ✗.";
    else if (!handPlaced.length && !(v.options && v.options.pure_regroup)) problem = "A play must put at least one card from your hand on the table.";
    else if (handPlaced.length >= hand.size) problem = "Keep at least one card in your hand: you discard one to end your turn.";
    else if (isOver()) problem = "The match is over.";
    else if (!myTurn()) problem = `You can play this on your turn (${name(v.turn)} is playing now).`;
    else if (v.phase === "draw") problem = "Draw a card first, then play.";
    else if (v.phase === "discard") problem = "You must finish discarding now.";
    const listed = action.groups.length === 1 && lg.plays.some((a) => a.groups.length === 1 && sameCards(a.groups[0], action.groups[0]));
    return { groups, changed, action, problem, gain: after - before, after, handPlaced, listed };
  }

  function commitPlay() {
    const result = evaluateDraft();
    if (result.problem) { ctx.explain(result.problem); return; }
    send(result.action, "draft-commit");
  }

  function suggest() {
    if (!lg.plays.length) {
      ctx.explain("No set can be made from your hand right now: draw, swap, or discard and wait for better cards.");
      return;
    }
    const action = lg.plays[suggestAt % lg.plays.length];
    suggestAt += 1;
    draft = emptyDraft();
    selected.clear();
    swap = null;
    const owner = new Map();
    for (const s of ownSets()) for (const c of s.cards) owner.set(c, s);
    for (const group of action.groups) {
      const from = [...new Set(group.filter((c) => owner.has(c)).map((c) => owner.get(c)))];
      if (from.length === 1) {
        draft.origins.set(from[0].id, { cards: [...from[0].cards], zero: from[0].zero, score: from[0].score });
        draft.groups.push({ key: nextKey++, cards: [...group], origin: from[0].id });
      } else {
        draft.groups.push({ key: nextKey++, cards: [...group], origin: null });
      }
    }
    afterEdit("draft-commit");
  }

  // ---------------------------------------------------------------- swap
  function startSwap(id) {
    if (busy) return;
    const hand = new Set(myHand());
    selected = new Set([...selected].filter((c) => hand.has(c) && !inDraft(c)));
    swap = { set: id, take: new Set() };
    render(`swap-${id}-take-0`);
  }

  function cancelSwap() {
    const id = swap && swap.set;
    swap = null;
    selected.clear();
    render(id !== null ? `set-${id}-swap` : null);
  }

  function toggleTake(card) {
    if (!swap || busy) return;
    if (swap.take.has(card)) swap.take.delete(card);
    else swap.take.add(card);
    render();
  }

  function swapGive() {
    const hand = new Set(myHand());
    return sortCards([...selected].filter((c) => hand.has(c) && !inDraft(c)));
  }

  function swapCandidates() {
    const give = swapGive();
    const take = [...swap.take];
    return lg.swaps.filter((a) => a.set === swap.set
      && give.every((c) => a.give.includes(c)) && take.every((c) => a.take.includes(c)));
  }

  function evaluateSwap() {
    const v = view();
    const s = setById(swap.set);
    const give = swapGive();
    const take = sortCards([...swap.take]);
    const action = { type: "swap", set: s.id, give, take };
    const listed = lg.swaps.some((a) => a.set === s.id && sameCards(a.give, give) && sameCards(a.take, take));
    const result = sortCards([...s.cards.filter((c) => !swap.take.has(c)), ...give]);
    let problem = null;
    let check = null;
    if (!take.length) problem = "Tap 1 or 2 cards of the set to take them.";
    else if (take.length > MAX_SWAP) problem = `You may take at most ${MAX_SWAP} cards.`;
    else if (!give.length) problem = "Now tap 1 or 2 cards in your hand to give in exchange.";
    else if (give.length > MAX_SWAP) problem = `You may give at most ${MAX_SWAP} cards.`;
    else if (result.length < MIN_SET) problem = `The set would keep only ${result.length} cards; a set needs at least ${MIN_SET}.`;
    else {
      const setZero = s.cards.find(isZero);
      const zeroTaken = Boolean(setZero && swap.take.has(setZero));
      const frozen = new Map();
      if (setZero && !zeroTaken) frozen.set(setZero, s.zero);
      if (!give.some(isZero)) {
        const given = sumOf(give);
        const taken = sumOf(take) + (zeroTaken ? s.zero : 0);
        if (given !== taken) {
          problem = `You give ${signed(given)} but take ${signed(taken)}`
            + (zeroTaken ? ` (the ${cardText(setZero)} stands for ${signed(s.zero)})` : "")
            + ": the set must still add up to 0.";
        }
      }
      if (!problem) {
        check = checkGroup(result, frozen);
        if (!check.ok) problem = check.message;
      }
    }
    if (!problem && !listed) {
      if (!myTurn()) problem = "You can swap only on your turn.";
      else if (v.phase === "draw") problem = "Draw a card first, then swap.";
      else if (v.this_turn && v.this_turn.swapped) problem = "You have already swapped this turn (one swap per turn).";
      else if (v.this_turn && v.this_turn.played) problem = "Swaps come before playing: you have already played this turn.";
      else if (s.locked) problem = "This set is locked: its owner went out.";
      else problem = "The server does not allow this swap now.";
    }
    return { action, listed, problem, result, check, score: check && check.ok ? scoreSet(result) : null, set: s, give, take };
  }

  function suggestSwap() {
    const s = setById(swap.set);
    // Your own set: the best new score first; someone else's: the worst for them first.
    const mine = s.owner === ctx.seat;
    const after = (a) => scoreSet(sortCards([...s.cards.filter((c) => !a.take.includes(c)), ...a.give])).score;
    const options = lg.swaps.filter((a) => a.set === swap.set)
      .map((a) => ({ a, k: mine ? -after(a) : after(a) })).sort((x, y) => x.k - y.k).map((x) => x.a);
    if (!options.length) return;
    const action = options[suggestAt % options.length];
    suggestAt += 1;
    swap.take = new Set(action.take);
    selected = new Set(action.give);
    render("swap-confirm");
  }

  function commitSwap() {
    const result = evaluateSwap();
    if (result.problem) { ctx.explain(result.problem); return; }
    send(result.action, "hand");
  }

  // ---------------------------------------------------------------- sending
  function send(action, focusAfter = null) {
    if (busy) return;
    busy = true;
    render();
    ctx.act(action).then(() => {
      if (action.type === "play") { draft = emptyDraft(); selected.clear(); }
      if (action.type === "swap") { swap = null; selected.clear(); }
      if (action.type === "discard") selected.delete(action.card);
    }, () => {}).finally(() => {
      busy = false;
      if (msg) { tidy(); render(focusAfter); }
    });
  }

  function draw(source) {
    if (busy) return;
    const ok = source === "deck" ? lg.drawDeck : lg.drawDiscard;
    if (ok) { send({ type: "draw", source }, "hand"); return; }
    const v = view();
    if (!seated()) return;
    if (isOver()) ctx.explain("The match is over.");
    else if (!myTurn()) ctx.explain(`It is not your turn: ${name(v.turn)} is playing.`);
    else if (v.phase !== "draw") ctx.explain("You have already drawn this turn.");
    else if (source === "deck") ctx.explain("The deck is empty and there is nothing to reshuffle: take the discard instead.");
    else ctx.explain("The discard pile is empty.");
  }

  function discardSelected() {
    const [card] = [...selected];
    if (selected.size !== 1 || !lg.discards.has(card)) {
      ctx.explain("Select exactly one card of your hand to discard.");
      return;
    }
    send({ type: "discard", card }, "hand");
  }

  // ---------------------------------------------------------------- sections
  function renderTop() {
    const v = view();
    const n = players();
    const deadlines = (msg && msg.deadlines) || {};
    const info = isOver()
      ? `Match over · ${v.rounds_total} rounds played`
      : `Round ${v.round} of ${v.rounds_total} · turn ${Math.min(v.turns_taken + 1, v.max_turns)} of ${v.max_turns}`;
    const chips = [];
    for (let seat = 0; seat < n; seat += 1) {
      const turn = !isOver() && v.turn === seat;
      const deadline = deadlines[String(seat)] || deadlines[seat];
      chips.push(el("li", {
        class: "abs-chip" + (turn ? " is-turn" : "") + (seat === ctx.seat ? " is-me" : "") + (followed(seat) ? " is-followed" : "") + (v.went_out[seat] ? " is-out" : ""),
        dataset: { seat },
      },
      el("span", { class: "abs-chip-name" }, name(seat)),
      seat === ctx.seat ? el("span", { class: "tag tag-you" }, "You") : null,
      turn ? el("span", { class: "tag tag-turn" }, v.final_turns ? "Last turn" : "To play") : null,
      v.went_out[seat] ? el("span", { class: "tag abs-tag-out" }, "Out") : null,
      el("span", { class: "abs-chip-total", "aria-label": `${v.totals[seat]} points` },
        el("strong", {}, number(v.totals[seat])), el("span", { class: "muted" }, " pts")),
      el("span", { class: "abs-chip-hand muted", title: "Cards in hand" },
        cardBack("abs-back-tiny"), ` ${v.hand_counts[seat]}`,
        el("span", { class: "visually-hidden" }, " cards in hand")),
      deadline ? el("span", { class: "abs-clock", dataset: { deadline }, role: "timer", "aria-label": `Time left for ${name(seat)}` }, "") : null));
    }
    fill(ui.top,
      el("p", { class: "abs-info" }, info,
        v.final_turns && !isOver() ? el("span", { class: "tag abs-tag-final" }, `${name(v.first_out)} went out: last turns`) : null),
      el("ol", { class: "abs-chips", "aria-label": "Players" }, chips));
    tick();
  }

  function tick() {
    for (const node of felt.querySelectorAll(".abs-clock[data-deadline]")) {
      const left = new Date(node.dataset.deadline).getTime() - Date.now();
      if (Number.isNaN(left)) { node.textContent = ""; continue; }
      node.textContent = clockText(left);
      node.classList.toggle("is-urgent", left < 10_000);
    }
  }

  function statusText() {
    const v = view();
    const t = v.this_turn || {};
    if (isOver()) return "The match is over.";
    const mover = v.turn;
    const final = v.final_turns ? `Last turn: ${who(v.first_out)} went out. ` : "";
    if (!seated() || !myTurn()) {
      const doing = v.phase === "draw" ? "draws" : v.phase === "discard" ? "discards" : "plays";
      return seated() ? `${final}Waiting for ${name(mover)}, who ${doing}.` : `${final}${name(mover)} ${doing}.`;
    }
    if (busy) return "Sending…";
    if (v.phase === "draw") {
      const top = v.discard.length ? v.discard[v.discard.length - 1] : null;
      if (lg.drawDeck && lg.drawDiscard) return `${final}Your turn: draw from the deck, or take the ${cardText(top)} from the discard pile.`;
      if (lg.drawDiscard) return `${final}Your turn: the deck is empty, take the ${cardText(top)} from the discard pile.`;
      return `${final}Your turn: draw a card from the deck.`;
    }
    const hand = myHand();
    if (t.must_discard > 1 || (v.phase === "discard" && t.must_discard > 0)) {
      return `${final}You hold ${hand.length} cards: discard ${plural(t.must_discard, "card")} to get down to ${v.hand_limit}.`;
    }
    const goingOut = ownSets().length >= SETS_TO_GO_OUT && hand.length === 1;
    if (goingOut) return `${final}Discard your last card to go out!`;
    if (t.played) return `${final}You played: now discard a card to end your turn.`;
    if (t.must_discard > 0) return `${final}Play sets or swap, then discard a card (you hold more than ${v.hand_limit}).`;
    return `${final}Your turn: play sets, add to your sets or swap, then discard a card or hold.`;
  }

  function describeLast() {
    const last = msg.last;
    if (!last || !last.action) return "";
    const v = view();
    const a = last.action;
    const actor = who(last.seat);
    let text;
    if (a.type === "draw") {
      const t = v.this_turn;
      const card = t && t.seat === last.seat && t.drew === "discard" ? t.drawn_card : null;
      text = a.source === "deck" ? `${actor} drew from the deck.`
        : card ? `${actor} took the ${cardText(card)} from the discard pile.` : `${actor} took the top discard.`;
    } else if (a.type === "swap") {
      text = `${actor} swapped ${cardsText(a.give || [])} into set ${a.set} for ${cardsText(a.take || [])}.`;
    } else if (a.type === "play") {
      // Against the table just before (when we have it): new sets, additions, regroupings.
      const before = previous && previous.seq === msg.seq - 1 ? previous.view.sets : [];
      const setOf = new Map();
      for (const set of before) for (const c of set.cards) setOf.set(c, set.id);
      const parts = (a.groups || []).map((group) => {
        const g = sortCards(group);
        const from = [...new Set(g.filter((c) => setOf.has(c)).map((c) => setOf.get(c)))];
        const fresh = g.filter((c) => !setOf.has(c));
        if (!from.length) return `a new set ${cardsText(g)}`;
        if (from.length === 1 && fresh.length && before.find((x) => x.id === from[0]).cards.every((c) => g.includes(c))) {
          return `${cardsText(fresh)} on set ${from[0]}`;
        }
        return `${cardsText(g)} (regrouping set${from.length > 1 ? "s" : ""} ${from.join(" and ")})`;
      });
      text = `${actor} played ${parts.join("; ")}.`;
    } else if (a.type === "discard") {
      text = `${actor} discarded the ${cardText(a.card)}.`;
      if (v.went_out[last.seat] && !v.hand_counts[last.seat]) text += ` ${actor === "You" ? "You" : name(last.seat)} went out!`;
    } else if (a.type === "hold") {
      text = `${actor} held.`;
    } else {
      text = `${actor} moved.`;
    }
    return text;
  }

  function renderStatus() {
    const text = statusText();
    if (ui.status.textContent !== text) ui.status.textContent = text; // re-announce only changes
    ui.status.classList.toggle("is-you", myTurn() && !busy);
    const last = describeLast();
    if (ui.last.textContent !== last) ui.last.textContent = last;
    ui.last.hidden = !last;
  }

  function renderOutcome() {
    if (!isOver()) { ui.outcome.hidden = true; fill(ui.outcome); return; }
    const v = view();
    const scores = v.totals;
    const winners = (msg.outcome && msg.outcome.winners) || v.winners || [];
    let headline;
    if (winners.length > 1) headline = `Shared win: ${winners.map(name).join(" and ")}.`;
    else if (winners[0] === ctx.seat) headline = "You win!";
    else headline = `${name(winners[0])} wins.`;
    const order = scores.map((s, seat) => seat).sort((a, b) => scores[b] - scores[a]);
    fill(ui.outcome,
      el("p", { class: "abs-outcome-title" }, headline),
      el("ol", { class: "abs-finals" }, order.map((seat) => el("li", {
        class: "abs-final" + (winners.includes(seat) ? " is-winner" : ""), dataset: { seat },
      }, el("span", { class: "abs-final-name" }, name(seat)), " ",
      el("strong", { class: "abs-final-score" }, number(scores[seat]))))));
    ui.outcome.hidden = false;
  }

  function renderRoundOver() {
    const v = view();
    const last = v.last_round;
    const show = last && (isOver() || (last.round === v.round - 1 && v.turns_taken < players()));
    if (!show) { ui.roundOver.hidden = true; fill(ui.roundOver); return; }
    const how = last.ended_by === "went_out" && last.first_out !== null && last.first_out !== undefined
      ? `${who(last.first_out)} went out` : ENDED_BY[last.ended_by] || last.ended_by;
    fill(ui.roundOver,
      el("h3", {}, `Round ${last.round} is over: ${how}.`),
      el("ul", { class: "abs-round-lines" }, last.players.map((p, seat) => el("li", { dataset: { seat } },
        el("span", { class: "abs-round-name" }, name(seat)), " ",
        el("strong", {}, signed(p.score)),
        el("span", { class: "muted" }, ` (sets ${p.sets_score}, hand ${p.hand_penalty ? signed(-p.hand_penalty) : "0"})`)))));
    ui.roundOver.hidden = false;
  }

  function renderPiles() {
    const v = view();
    const top = v.discard.length ? v.discard[v.discard.length - 1] : null;
    const deckLabel = `Deck: ${plural(v.deck_count, "card")}` + (lg.drawDeck && !busy ? ". Draw from the deck" : "");
    const deck = seated() && !isOver()
      ? el("button", {
        type: "button", class: "abs-pile-button" + (lg.drawDeck && !busy ? " is-lit" : ""),
        dataset: { focus: "deck" }, "aria-label": deckLabel, onclick: () => draw("deck"),
      }, v.deck_count ? cardBack("abs-back-deck") : el("span", { class: "abs-empty-slot" }, "empty"))
      : el("span", { class: "abs-pile-button", role: "img", "aria-label": deckLabel },
        v.deck_count ? cardBack("abs-back-deck") : el("span", { class: "abs-empty-slot" }, "empty"));
    const discardLabel = top ? `Discard pile: ${plural(v.discard.length, "card")}, top ${cardSpeech(top)}`
      + (lg.drawDiscard && !busy ? ". Take it" : "") : "Discard pile: empty";
    const topFace = top ? cardFace(top, { extra: "abs-pile-top" }) : el("span", { class: "abs-empty-slot" }, "empty");
    const discard = seated() && !isOver() && top
      ? el("button", {
        type: "button", class: "abs-pile-button" + (lg.drawDiscard && !busy ? " is-lit" : ""),
        dataset: { focus: "discard" }, "aria-label": discardLabel, onclick: () => draw("discard"),
      }, topFace)
      : el("span", { class: "abs-pile-button", role: "img", "aria-label": discardLabel }, topFace);
    // Selected card + discard allowed: the pile is a target too.
    const canDropHere = selected.size === 1 && lg.discards.has([...selected][0]) && !busy && !swap;
    fill(ui.piles,
      el("div", { class: "abs-pile" }, deck,
        el("span", { class: "abs-pile-label" }, `Deck · ${v.deck_count}`)),
      el("div", { class: "abs-pile abs-pile-discard" + (canDropHere ? " is-target" : "") },
        el("div", { class: "abs-discard-stack" + (v.discard.length > 1 ? " is-pile" : "") }, discard),
        el("span", { class: "abs-pile-label" }, `Discard · ${v.discard.length}`),
        canDropHere ? el("button", {
          type: "button", class: "btn btn-small abs-drop", dataset: { focus: "pile-drop" },
          onclick: discardSelected,
        }, `Discard ${cardText([...selected][0])} here`) : null));
  }

  function setTile(s, { swapping }) {
    const mine = seated() && s.owner === ctx.seat;
    const beingChanged = mine && draft.origins.has(s.id);
    const swapOptions = lg.swaps.filter((a) => a.set === s.id).length;
    const actions = [];
    if (mine && !s.locked && !isOver() && !beingChanged && !swap) {
      if (selected.size) {
        actions.push(el("button", {
          type: "button", class: "btn btn-small abs-add is-lit", dataset: { focus: `set-${s.id}-add` },
          "aria-label": `Add the selected cards to set ${s.id}`, onclick: () => addToSet(s.id), disabled: busy,
        }, "+ Add here"));
      }
      actions.push(el("button", {
        type: "button", class: "btn btn-small btn-quiet abs-regroup", dataset: { focus: `set-${s.id}-regroup` },
        "aria-label": `Rearrange set ${s.id} in your play`, onclick: () => regroupSet(s.id), disabled: busy,
      }, "Rearrange"));
    }
    if (swapOptions && !swap && !busy && !beingChanged) {
      actions.push(el("button", {
        type: "button", class: "btn btn-small abs-swap-button is-lit", dataset: { focus: `set-${s.id}-swap` },
        "aria-label": `Swap with set ${s.id}`, onclick: () => startSwap(s.id),
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
    const v = view();
    const me = seated() ? ctx.seat : null;
    const sets = v.sets.filter((s) => s.owner === seat);
    const points = sets.reduce((t, s) => t + s.score, 0);
    const revealed = Array.isArray(v.hands) ? v.hands : null;
    let handShown = null;
    if (revealed) handShown = revealed[seat];
    else if (isOver() && v.last_round && v.last_round.players[seat]) handShown = v.last_round.players[seat].hand;
    else if (!seated() && v.viewer === seat && Array.isArray(v.hand)) handShown = v.hand;
    const count = v.hand_counts[seat];
    const handBit = seat === me ? null
      : handShown ? el("div", { class: "abs-zone-hand abs-zone-hand-open", "aria-label": `${name(seat)}'s hand` },
        handShown.map((c) => cardFace(c, { size: "small" })))
        : el("span", { class: "abs-zone-hand", role: "img", "aria-label": `${plural(count, "card")} in hand` },
          Array.from({ length: Math.min(count, 10) }, () => cardBack("abs-back-small")));
    let goal = null;
    if (!v.went_out[seat] && sets.length >= SETS_TO_GO_OUT) goal = "can go out";
    else if (!v.went_out[seat] && seat === me) goal = `${SETS_TO_GO_OUT - sets.length} more to go out`;
    return el("div", {
      class: "abs-zone" + (seat === me ? " is-me" : "") + (followed(seat) ? " is-followed" : "") + (!isOver() && v.turn === seat ? " is-turn" : ""),
      dataset: { seat },
    },
    el("div", { class: "abs-zone-head" },
      el("h3", { class: "abs-zone-title" },
        el("span", { class: "abs-zone-name" }, seat === me ? "Your sets" : name(seat)),
        v.went_out[seat] ? el("span", { class: "tag abs-tag-out" }, "Out · sets locked") : null),
      el("p", { class: "abs-zone-meta muted" },
        `${plural(sets.length, "set")} · ${points} pts`,
        seat === me ? null : ` · ${count} in hand `, seat === me || handShown ? null : handBit,
        !isOver() && goal ? el("span", { class: "abs-goal" }, ` · ${goal}`) : null)),
    handShown && seat !== me ? handBit : null,
    sets.length
      ? el("ul", { class: "abs-sets" }, sets.map((s) => setTile(s, { swapping: swap && swap.set === s.id })))
      : el("p", { class: "abs-none muted" }, seat === me
        ? "No sets yet. A set is 3 or more cards adding up to 0; a zero card is wild."
        : "No sets yet."));
  }

  function renderZones() {
    const n = players();
    const bottom = bottomSeat();
    const others = Array.from({ length: n - 1 }, (_, i) => (bottom + 1 + i) % n);
    fill(ui.others, others.map(zone));
    fill(ui.mine, zone(bottom));
    ui.mine.setAttribute("aria-label", seated() ? "Your sets" : `${name(bottom)}'s sets`);
  }

  function renderSwap() {
    if (!swap || !seated() || !setById(swap.set)) { swap = null; ui.swap.hidden = true; fill(ui.swap); return; }
    const r = evaluateSwap();
    const candidates = swapCandidates();
    const litTake = new Set(candidates.flatMap((a) => a.take));
    const s = r.set;
    const owner = s.owner === ctx.seat ? "your" : `${name(s.owner)}'s`;
    const before = s.score;
    // What the given cards stand for: a given zero takes the value that balances the set.
    const givenZero = r.give.find(isZero);
    const givenText = !givenZero ? signed(sumOf(r.give))
      : r.check && r.check.ok ? `${signed(sumOf(r.give) + r.check.zeroValue)}, the ${cardText(givenZero)} as ${signed(r.check.zeroValue)}`
        : `${signed(sumOf(r.give))} + wild`;
    fill(ui.swap,
      el("h3", {}, `Swap with ${owner} set ${s.id}`),
      el("p", { class: "muted abs-help" }, "Take 1 or 2 cards from the set and give 1 or 2 from your hand; the set must still add up to 0. Lit cards can still complete a swap."),
      el("p", { class: "abs-swap-label" }, "Take from the set:"),
      el("div", { class: "abs-swap-take" }, s.cards.map((c, i) => cardFace(c, {
        tag: "button", zeroValue: isZero(c) ? s.zero : null,
        extra: (swap.take.has(c) ? "is-selected" : "") + (litTake.has(c) && !swap.take.has(c) ? " is-lit" : ""),
        "aria-pressed": swap.take.has(c) ? "true" : "false", dataset: { card: c, focus: `swap-${s.id}-take-${i}` },
        onclick: () => toggleTake(c), disabled: busy,
      }))),
      el("p", { class: "abs-swap-sums" },
        el("span", {}, "You give: ", el("strong", {}, r.give.length ? `${cardsText(r.give)} (${givenText})` : "— tap cards in your hand")),
        el("span", {}, "You take: ", el("strong", {}, r.take.length ? `${cardsText(r.take)} (${signed(sumOf(r.take) + (r.take.some(isZero) ? s.zero : 0))})` : "—"))),
      el("div", { class: "abs-verdict " + (r.problem ? "is-bad" : "is-ok"), role: "status" },
        r.problem ? `✗ ${r.problem}` : `✓ Legal swap. Set ${s.id} becomes ${cardsText(r.result)}`
          + (r.check && r.check.zeroValue !== null ? ` (the ${cardText(r.result.find(isZero))} stands for ${signed(r.check.zeroValue)})` : "")
          + `: ${r.score.score} pts (was ${before}).`),
      el("div", { class: "abs-row-buttons" },
        el("button", {
          type: "button", class: "btn btn-primary", dataset: { focus: "swap-confirm" },
          disabled: Boolean(r.problem) || busy, onclick: commitSwap,
        }, "Confirm swap"),
        el("button", { type: "button", class: "btn", dataset: { focus: "swap-suggest" }, onclick: suggestSwap, disabled: busy }, "Suggest"),
        el("button", { type: "button", class: "btn btn-quiet", dataset: { focus: "swap-cancel" }, onclick: cancelSwap }, "Cancel")));
    ui.swap.hidden = false;
  }

  function renderDraft() {
    if (!seated() || !draft.groups.length || isOver()) { ui.draft.hidden = true; fill(ui.draft); return; }
    const r = evaluateDraft();
    const hand = new Set(myHand());
    const frozen = frozenZeros();
    const groups = r.groups.map(({ g, check, unchanged, score }) => {
      const origin = g.origin !== null ? draft.origins.get(g.origin) : null;
      const title = origin ? `Set ${g.origin}` + (unchanged ? " (unchanged)" : " (changed)") : "New set";
      const zero = g.cards.find(isZero);
      const moveable = selected.size && [...selected].some((c) => !g.cards.includes(c));
      let sumLine = `Sum ${signed(check.total)}`;
      if (zero && g.cards.length > 1) {
        sumLine = `Numbers add up to ${signed(check.total)}, so the ${cardText(zero)} stands for ${signed(-check.total)}`;
        if (frozen.has(zero)) sumLine += ` (it must keep ${signed(frozen.get(zero))})`;
      }
      return el("li", {
        class: "abs-group " + (check.ok ? "is-ok" : "is-bad"), dataset: { group: g.key },
      },
      el("div", { class: "abs-group-head" },
        el("span", { class: "abs-group-name" }, title),
        el("span", { class: "abs-group-flag", "aria-hidden": "true" }, check.ok ? "✓" : "✗"),
        score ? el("span", { class: "abs-group-score" }, el("strong", {}, String(score.score)), " pts") : null),
      el("div", { class: "abs-group-cards" }, g.cards.map((c) => cardFace(c, {
        tag: "button", zeroValue: isZero(c) && check.ok ? check.zeroValue : null,
        extra: (selected.has(c) ? "is-selected" : "") + (hand.has(c) ? " is-from-hand" : " is-from-table"),
        "aria-pressed": selected.has(c) ? "true" : "false",
        dataset: { card: c, focus: `draft-card-${c}` }, disabled: busy || Boolean(swap),
        onclick: () => toggle(c),
      }))),
      el("p", { class: "abs-group-sum" }, sumLine),
      el("p", { class: "abs-group-verdict" }, check.ok
        ? `✓ A valid set: ${score.score} pts = ${breakdown(score)}${origin && !unchanged ? ` (was ${origin.score})` : ""}.`
        : `✗ ${check.message}`),
      el("div", { class: "abs-group-actions" },
        moveable ? el("button", {
          type: "button", class: "btn btn-small is-lit", dataset: { focus: `group-${g.key}` },
          onclick: () => moveTo(g.key), disabled: busy || Boolean(swap),
        }, "Move selected here") : el("span", { dataset: { focus: `group-${g.key}` }, tabindex: "-1" }),
        el("button", {
          type: "button", class: "btn btn-small btn-quiet", dataset: { focus: `group-${g.key}-back` },
          onclick: () => putBack(g.key), disabled: busy || Boolean(swap),
        }, origin ? "Put back" : g.cards.every((c) => hand.has(c)) ? "Back to hand" : "Undo")));
    });
    const count = r.changed.length;
    const label = r.problem ? "Play" : `Play ${plural(count, "set")} · ${r.gain >= 0 ? "+" : MINUS}${Math.abs(r.gain)} pts`;
    fill(ui.draft,
      el("h3", {}, "Your play ", el("span", { class: "muted" }, "(not on the table until you press Play)")),
      el("p", { class: "muted abs-help" }, "Tap cards to select them, then “Move selected here” or “New set”. Cards of your sets can move between groups, which regroups them."),
      el("ol", { class: "abs-groups" }, groups),
      el("div", { class: "abs-draft-foot" },
        el("p", { class: "abs-verdict " + (r.problem ? "is-bad" : "is-ok"), id: "abs-draft-why" },
          r.problem ? r.problem : `Ready: your sets will score ${r.after} pts (${r.gain >= 0 ? "+" : MINUS}${Math.abs(r.gain)}). You then discard a card.`),
        el("div", { class: "abs-row-buttons" },
          el("button", {
            type: "button", class: "btn btn-primary", dataset: { focus: "draft-commit" },
            disabled: Boolean(r.problem) || busy || Boolean(swap), "aria-describedby": "abs-draft-why",
            onclick: commitPlay,
          }, label),
          el("button", { type: "button", class: "btn btn-quiet", dataset: { focus: "draft-reset" }, onclick: resetDraft, disabled: busy }, "Reset"))));
    ui.draft.hidden = false;
  }

  function renderHand() {
    if (!seated()) { ui.hand.hidden = true; fill(ui.hand); return; }
    const v = view();
    const hand = myHand();
    const placed = draftCards();
    const shown = hand.filter((c) => !placed.has(c));
    const t = v.this_turn || {};
    const drawn = t.seat === ctx.seat ? t.drawn_card : null;
    let lit = null;
    if (swap) lit = new Set(swapCandidates().flatMap((a) => a.give));
    else if (mustDiscard()) lit = lg.discards;
    const heading = `Your hand · ${plural(hand.length, "card")}` + (placed.size ? ` (${[...placed].filter((c) => hand.includes(c)).length} in your play)` : "");
    fill(ui.hand,
      el("h3", { class: "abs-hand-title" }, heading,
        !isOver() && v.round ? el("span", { class: "muted abs-penalty" }, ` · if the round ended now: ${signed(-handPenalty(hand))}`) : null),
      shown.length
        ? el("div", { class: "abs-hand", role: "group", "aria-label": "Your hand: tap cards to select them" },
          shown.map((c) => cardFace(c, {
            tag: "button",
            extra: (selected.has(c) ? "is-selected" : "") + (lit && lit.has(c) && !selected.has(c) ? " is-lit" : "") + (c === drawn ? " is-new" : ""),
            "aria-pressed": selected.has(c) ? "true" : "false",
            dataset: { card: c, focus: `hand-${c}` }, disabled: busy || isOver(),
            onclick: () => toggle(c),
          })))
        : el("p", { class: "muted" }, hand.length ? "All your cards are in your play." : "Your hand is empty."));
    ui.hand.hidden = false;
  }

  function renderTray() {
    if (!seated() || isOver()) { ui.tray.hidden = true; fill(ui.trayButtons); return; }
    const v = view();
    const hand = new Set(myHand());
    const sel = sortCards([...selected]);
    const buttons = [];
    let info;
    if (sel.length) {
      const total = sumOf(sel);
      const zeros = sel.filter(isZero);
      info = [el("strong", {}, `${sel.length} selected`), ` · sum ${signed(total)}`];
      if (zeros.length === 1 && sel.length > 1) info.push(` · the ${cardText(zeros[0])} would stand for ${signed(-total)}`);
      else if (!zeros.length && sel.length >= 2 && total === 0 && sel.length >= MIN_SET) info.push(" · adds up to 0 ✓");
    } else if (swap) {
      info = "Tap 1 or 2 cards in your hand to give.";
    } else if (myTurn() && v.phase === "draw") {
      info = "Draw first: tap the deck or the discard pile. You may already select cards to plan.";
    } else if (mustDiscard()) {
      info = "Tap the card you want to get rid of, then Discard.";
    } else if (myTurn()) {
      const n = lg.plays.length;
      info = n ? `Tap cards to build a set, or pick one to discard. ${plural(n, "possible play")} right now.`
        : "Tap cards to build a set, or pick one to discard. No set can be made from your hand alone right now.";
    } else {
      info = "Plan ahead: tap cards to try sets before your turn.";
    }
    if (sel.length && !swap) {
      buttons.push(el("button", { type: "button", class: "btn btn-small", dataset: { focus: "tray-new" }, onclick: newGroup, disabled: busy }, "New set"));
      if (sel.some((c) => hand.has(c) && inDraft(c))) {
        buttons.push(el("button", { type: "button", class: "btn btn-small", dataset: { focus: "tray-back" }, onclick: backToHand, disabled: busy }, "Back to hand"));
      }
    }
    if (sel.length === 1 && lg.discards.has(sel[0]) && !swap) {
      buttons.push(el("button", {
        type: "button", class: "btn btn-small btn-primary", dataset: { focus: "tray-discard" }, onclick: discardSelected, disabled: busy,
      }, `Discard ${cardText(sel[0])}`));
    }
    if (!sel.length && !swap && !draft.groups.length && lg.plays.length) {
      buttons.push(el("button", { type: "button", class: "btn btn-small", dataset: { focus: "tray-suggest" }, onclick: suggest, disabled: busy }, "Suggest a set"));
    }
    if (lg.hold && !swap) {
      buttons.push(el("button", {
        type: "button", class: "btn btn-small" + (sel.length ? "" : " btn-primary"), dataset: { focus: "tray-hold" },
        onclick: () => send({ type: "hold" }, "hand"), disabled: busy,
        title: "End your turn without discarding",
      }, "Hold"));
    }
    if (sel.length) {
      buttons.push(el("button", { type: "button", class: "btn btn-small btn-quiet", dataset: { focus: "tray-clear" }, onclick: () => { selected.clear(); render("hand"); } }, "Clear"));
    }
    ui.tray.classList.toggle("is-active", sel.length > 0 || Boolean(swap));
    const infoText = el("span", {}, info).textContent;
    if (ui.trayInfo.textContent !== infoText) fill(ui.trayInfo, info); // a live region: changes only
    fill(ui.trayButtons, buttons);
    ui.trayButtons.hidden = !buttons.length;
    ui.tray.hidden = false;
  }

  function renderScores() {
    const v = view();
    const n = players();
    const rounds = v.round_scores || [];
    const headers = [];
    for (let r = 1; r <= v.rounds_total; r += 1) headers.push(el("th", { scope: "col", class: "num" }, `R${r}`));
    const best = Math.max(...v.totals);
    fill(ui.scores, el("details", { open: isOver() || rounds.length ? true : undefined },
      el("summary", {}, "Scores by round"),
      el("div", { class: "table-scroll" }, el("table", { class: "score-table abs-score-table" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Player"), headers, el("th", { scope: "col", class: "num" }, "Total"))),
        el("tbody", {}, Array.from({ length: n }, (_, seat) => el("tr", {
          class: isOver() && v.totals[seat] === best ? "row-win" : undefined, dataset: { seat },
        },
        el("th", { scope: "row" }, name(seat)),
        Array.from({ length: v.rounds_total }, (_, r) => el("td", { class: "num" },
          rounds[r] ? signed(rounds[r][seat]) : r + 1 === v.round && !isOver() ? "…" : "")),
        el("td", { class: "num abs-total" }, number(v.totals[seat])))))))));
  }

  function render(focusKey = null) {
    if (!msg) return;
    const active = felt.contains(document.activeElement) ? document.activeElement.dataset.focus : null;
    felt.classList.toggle("is-spectator", !seated());
    felt.classList.toggle("is-my-turn", myTurn());
    renderTop();
    renderOutcome();
    renderRoundOver();
    renderStatus();
    renderPiles();
    renderZones();
    renderSwap();
    renderDraft();
    renderHand();
    renderTray();
    renderScores();
    // Keep the keyboard focus on the same control (or on the one an edit points to).
    const wanted = focusKey && active ? focusKey : active;
    if (wanted) {
      const again = felt.querySelector(`[data-focus="${CSS.escape(wanted)}"]:not([disabled])`)
        || felt.querySelector(".abs-hand .abs-card:not([disabled])");
      if (again) again.focus({ preventScroll: true });
    }
  }

  function reconcile() {
    const v = view();
    if (!seated()) { draft = emptyDraft(); selected.clear(); swap = null; return; }
    const roundChanged = previous && previous.view.round !== v.round;
    if (!previous || roundChanged || isOver()) {
      draft = emptyDraft(); selected.clear(); swap = null; return;
    }
    const last = msg.last;
    if (last && last.seat === ctx.seat && last.action && last.action.type === "play") {
      draft = emptyDraft(); selected.clear();
    }
    let changed = false;
    for (const [id, origin] of draft.origins) {
      const s = setById(id);
      if (!s || s.locked || !sameCards(s.cards, origin.cards)) changed = true;
    }
    if (changed) {
      draft = emptyDraft();
      selected.clear();
      ctx.explain("One of your sets changed on the table, so your unfinished play was cleared.");
    } else {
      const hand = new Set(myHand());
      const fromSets = new Set([...draft.origins.values()].flatMap((o) => o.cards));
      removeFromGroups(new Set([...draftCards()].filter((c) => !hand.has(c) && !fromSets.has(c))));
    }
    if (swap) {
      const s = setById(swap.set);
      if (!s || !myTurn() || !lg.swaps.some((a) => a.set === swap.set)) swap = null;
      else swap.take = new Set([...swap.take].filter((c) => s.cards.includes(c)));
    }
    tidy();
  }

  return {
    update(next) {
      previous = msg;
      msg = next;
      busy = false;
      felt.dataset.seq = String(next.seq);
      lg = readLegal();
      reconcile();
      render();
    },
    destroy() {
      clearInterval(ticker);
      felt.remove();
    },
  };
}

function handPenalty(hand) {
  if (!hand.length) return 0;
  return Math.max(...hand.map((c) => parseCard(c).num)) + hand.length - 1;
}

function rulesHelp() {
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
