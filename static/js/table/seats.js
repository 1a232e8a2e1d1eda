// seats.js: who sits where, as every table draws it. No DOM.
//
// Identity is ctx.seat (null for a spectator): "You", controls and "You win!" follow it.
// Orientation is ctx.perspective: the seat drawn at the bottom (or first), the others after it
// in seat order. A ctx built by hand may leave perspective out: it then reads as `seat ?? 0`.

// Words about the seats of a table, for a renderer's ctx. `numberTwins`: two seats of the same
// name (bots) are told apart by their seat number ("Bot 2"; with `twinMark` "#": "Bot #2").
export function seatWords(ctx, { numberTwins = true, twinMark = "" } = {}) {
  const seated = () => ctx.seat !== null && ctx.seat !== undefined;
  const plain = (seat) => ctx.names[seat] || `Seat ${seat + 1}`;
  // A seat's name; two seats of the same name (bots) get their seat number too.
  const name = (seat) => {
    const text = plain(seat);
    const twin = numberTwins && ctx.names.some((other, i) => i !== seat && other === text);
    return twin ? `${text} ${twinMark}${seat + 1}` : text;
  };
  const perspective = () => ctx.perspective ?? ctx.seat ?? 0;
  return {
    seated,
    plain,
    name,
    // "You" for the viewer's own seat, else the name (lower: "you")
    who: (seat) => (seated() && seat === ctx.seat ? "You" : name(seat)),
    whoLower: (seat) => (seated() && seat === ctx.seat ? "you" : name(seat)),
    isMe: (seat) => seated() && seat === ctx.seat,
    perspective,
    // a spectator's followed seat (a player follows nobody: they are "You")
    followed: (seat) => !seated() && seat === perspective(),
    // every seat, the perspective first, then the others in seat order
    order: (count) => seatOrder(count, perspective()),
  };
}

// [from, from + 1, ...] around a table of `count` seats
export function seatOrder(count, from = 0) {
  const start = from >= 0 && from < count ? from : 0;
  return Array.from({ length: count }, (_, i) => (start + i) % count);
}
