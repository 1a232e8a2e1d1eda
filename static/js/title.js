// title.js: the document title, as "(2) Lobby · cardroom": the page's own title, after how many
// matches wait for the player (nothing when none). Pages set their own part with setTitle;
// the header's count (waiting.js) sets the number with setWaiting.

let own = document.title;
let waiting = 0;

function render() {
  document.title = waiting > 0 ? `(${waiting}) ${own}` : own;
}

// The page's own title, without the count.
export function pageTitle() {
  return own;
}

export function setTitle(text) {
  own = text;
  render();
}

export function setWaiting(count) {
  waiting = count;
  render();
}
