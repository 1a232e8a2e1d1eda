// abstrac/row.js: the row and the viewer's controls: take 1 to 3 cards from its exposed end
// (the cards that would go are previewed), or choose to go first or second.
// `tbl` is the table's shared state and parts (see ../abstrac.js): its state (msg, busy,
// preview), ctx, words, ui and the other parts' functions.

import { cardEl, cardName, cardText } from "../../js/cards.js";
import { el, fill } from "../../js/dom.js";
import { plural } from "../../js/words.js";

export function rowPart(tbl) {
  function setPreview(k) {
    tbl.preview = k;
    const n = tbl.ui.row.children.length;
    [...tbl.ui.row.children].forEach((card, i) => card.classList.toggle("will-take", k > 0 && i >= n - k));
  }

  function renderRow() {
    const v = tbl.msg.view;
    const n = v.row.length;
    const takes = new Set(tbl.busy ? [] : tbl.legalTakes());
    const myTurn = tbl.ctx.seat !== null && takes.size > 0;
    tbl.ui.rowHead.textContent = n
      ? `The row: ${plural(n, "card")}. Cards are taken from the exposed end, on the right.`
      : "The row is empty.";
    fill(tbl.ui.row, v.row.map((card, i) => {
      const k = n - i; // taking from here takes k cards
      const exposed = k === 1 ? " card-exposed" : "";
      if (takes.has(k)) {
        const label = `Take ${plural(k, "card")}: ${v.row.slice(i).reverse().map(cardName).join(", ")}`;
        return cardEl(card, {
          tag: "button", class: "card-takeable" + exposed, "aria-label": label, title: label,
          dataset: { card, focus: `card-${k}` },
          onmouseenter: () => tbl.setPreview(k), onmouseleave: () => tbl.setPreview(0),
          onfocus: () => tbl.setPreview(k), onblur: () => tbl.setPreview(0),
          onclick: () => tbl.send({ type: "take", count: k }),
        });
      }
      return cardEl(card, {
        class: exposed.trim(),
        onclick: () => {
          if (tbl.isOver()) return;
          if (myTurn) tbl.ctx.explain("Only the 1 to 3 cards at the exposed (right-hand) end can be taken.");
          else if (tbl.ctx.seat !== null && !tbl.legalOrder()) tbl.ctx.explain(`It is not your turn: ${tbl.plainName(tbl.toMove())} is playing.`);
          else if (tbl.legalOrder()) tbl.ctx.explain("First choose whether to go first or second.");
        },
      });
    }));
    tbl.ui.row.style.setProperty("--covered", Math.max(n - 1, 0));
    tbl.ui.row.classList.toggle("ab-row-live", myTurn);
    tbl.ui.row.hidden = n === 0;
    if (tbl.preview && takes.has(tbl.preview)) tbl.setPreview(tbl.preview);
    else tbl.preview = 0;
  }

  function renderControls() {
    const v = tbl.msg.view;
    const buttons = [];
    if (!tbl.busy && tbl.legalOrder()) {
      buttons.push(el("button", { type: "button", class: "btn btn-primary", dataset: { focus: "first" }, onclick: () => tbl.send({ type: "order", first: true }) }, "Go first"));
      buttons.push(el("button", { type: "button", class: "btn", dataset: { focus: "second" }, onclick: () => tbl.send({ type: "order", first: false }) }, "Go second"));
    }
    const takes = tbl.busy ? [] : tbl.legalTakes();
    for (const k of [1, 2, 3]) {
      if (!takes.includes(k)) continue;
      const cards = v.row.slice(v.row.length - k).reverse().map(cardText).join(" ");
      buttons.push(el("button", {
        type: "button", class: "btn" + (k === 1 ? " btn-primary" : ""), dataset: { take: k, focus: `take-${k}` },
        onmouseenter: () => tbl.setPreview(k), onmouseleave: () => tbl.setPreview(0),
        onfocus: () => tbl.setPreview(k), onblur: () => tbl.setPreview(0),
        onclick: () => tbl.send({ type: "take", count: k }),
      }, `Take ${k}`, el("span", { class: "btn-sub" }, cards)));
    }
    if (tbl.busy) buttons.push(el("span", { class: "muted" }, "Sending…"));
    fill(tbl.ui.controls, buttons);
    tbl.ui.controls.hidden = buttons.length === 0;
  }

  return { setPreview, renderRow, renderControls };
}
