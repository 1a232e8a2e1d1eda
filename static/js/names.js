// names.js: how seats and players are named on screen (always inserted as text).

export function seatLabel(index) {
  return `Seat ${index + 1}`;
}

// A room seat {"seat","player":{"id","name"}|null,"bot":level|null} or a match seat
// (which may carry "name"/"player_id" directly) -> the name to show.
export function seatName(seat, index = seat && seat.seat) {
  if (!seat) return seatLabel(index ?? 0);
  if (seat.player && seat.player.name) return seat.player.name;
  if (seat.name) return seat.name;
  if (seat.bot) return `Bot (${seat.bot})`;
  return seatLabel(index ?? 0);
}

// The name a table gives a seat: a stand-in bot playing for an away player is named for him
// ("Bot for Bob"), in the seats, the move lines and the outcome, while it plays.
export function tableName(seat, index = seat && seat.seat) {
  if (seat && seat.stand_in && seat.player && seat.player.name) return standInName(seat.player.name);
  return seatName(seat, index);
}

export function standInName(playerName) {
  return `Bot for ${playerName}`;
}

export function seatPlayerId(seat) {
  if (!seat) return null;
  if (seat.player && seat.player.id !== undefined) return seat.player.id;
  return seat.player_id ?? null;
}

// The room's host may come as an id or as {"id","name"}.
export function hostId(room) {
  const host = room && room.host;
  if (host && typeof host === "object") return host.id ?? null;
  return host ?? null;
}

// The host's name when the room carries it ({"id","name"}), else the seated host's name.
export function hostName(room) {
  const host = room && room.host;
  if (host && typeof host === "object" && host.name) return host.name;
  const seat = ((room && room.seats) || []).find((s) => s.player && s.player.id === hostId(room));
  return seat ? seat.player.name : null;
}

// The spectators' names, when the room lists them ({id, name} each).
export function spectatorNames(room) {
  const value = room && room.spectators;
  return Array.isArray(value) ? value.map((s) => s.name) : [];
}

// How many watch: "spectator_count" when the room carries it (it lists the first 50 names).
export function spectatorCount(room) {
  if (room && Number.isInteger(room.spectator_count)) return room.spectator_count;
  const value = room && room.spectators;
  if (Array.isArray(value)) return value.length;
  return Number(value) || 0;
}
