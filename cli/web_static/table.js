// A seat at a rulewright table: the server pushes this seat's table over a WebSocket whenever it changes;
// the page sends this seat's requests (a move, a hint, an explanation). Every text from the server is
// put in the page as text; only the picture is SVG markup, made by the server from this seat's view.
"use strict";

const seatToken = location.pathname.split("/")[2] || "";
let socket = null;
let retry = 500;           // ms before reconnecting; doubles up to 8 s while the server is away
let table = null;          // the last table the server sent
let waiting = false;       // a move was sent: the buttons stay off until the table answers
let newest = -1;           // the version of the newest table shown since connecting: an older one is not shown
let closed = false;        // the connection is down: nothing can be asked
let ended = "";            // why the table has closed, once the server said so (or forgot this seat)
let yourTurn = false;      // the last table shown asked this seat to move
let named = false;         // the name field was filled from the table once
let audio = null;          // the sound's context, made when the sound is turned on (a click allows it)
let viewing = null;        // the past table shown (how many moves this seat had seen then), or null: now
let pastGame = null;       // the game (its number at this table) the past table shown is of
let asked = null;          // the past table last asked for: an answer to an older question is not shown
let zoom = null;           // the picture's scale (1: its own size), or null: fitted to the page

const $ = (id) => document.getElementById(id);

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}/seat/${encodeURIComponent(seatToken)}/ws`);
  socket.onopen = () => {
    retry = 500; newest = -1; closed = false; ended = "";
    $("connection").textContent = "connected";
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = (event) => {
    // nothing can be played while the table is away: its buttons are off until it answers again
    closed = true;
    waiting = false;
    if (table) showMoves(table);
    // 1012: the server said it stops; until it answers again, the page keeps saying why
    if (event.code === 1012) ended = "the table has closed: its host stopped the server (if it is resumed, this page comes back by itself)";
    $("connection").textContent = ended || "disconnected: reconnecting...";
    fetch(location.pathname, {cache: "no-store"}).then((reply) => {
      if (reply.status === 404) ended = "this table has closed: no seat has this link now";
      if (ended) $("connection").textContent = ended;
    }).catch(() => {});
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 4000);
  };
}

function send(request) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(request));
    return true;
  }
  say("not connected: wait a moment and try again");
  return false;
}

function say(text, kind) {
  const message = $("message");
  message.textContent = text || "";
  message.className = kind || "";
}

function receive(msg) {
  if (msg.type === "table") {
    if (msg.version < newest) return;
    if (!table || msg.version !== table.version) waiting = false;  // a move sent is answered by a new table
    newest = msg.version;
    show(msg);
  } else if (msg.type === "refused") {
    waiting = false;
    say(msg.error, "refused");
    if (table) showMoves(table);
  } else if (msg.type === "hint") {
    $("advice").textContent = `${msg.by} suggests: ${msg.text}`;
    markMoves((m) => m.number === msg.number, "suggested");
  } else if (msg.type === "explain") {
    $("advice").textContent = msg.explanation;
  } else if (msg.type === "history") {
    showPast(msg);
  }
}

// ------------------------------------------------------------------ history: the past tables, as this seat saw them
function showPast(h) {
  // an answer overtaken (another step, 'now', or a rematch dealt meanwhile) is not shown
  if (!table || h.at !== asked || h.game !== table.game_number) return;
  viewing = h.at;
  pastGame = h.game;
  $("board").classList.add("past");
  setPicture(h.picture, [], true);
  showLog(h.log);
  showHistory(h.of);
}

function showHistory(seen) {
  $("history-at").textContent = viewing === null
    ? `now (${seen} move${seen === 1 ? "" : "s"})`
    : `after move ${viewing} of ${seen}, as you saw it`;
  $("back").disabled = (viewing === null ? seen : viewing) <= 0;
  $("forward").disabled = viewing === null;
  $("now").disabled = viewing === null;
}

function backToNow() {
  viewing = asked = pastGame = null;
  $("board").classList.remove("past");
}

function stepTo(at) {
  if (!table) return;
  if (at >= table.history) {  // the table now
    backToNow();
    show(table);
  } else {
    asked = Math.max(0, at);
    send({cmd: "history", at: asked});
  }
}

$("back").addEventListener("click", () => stepTo((viewing === null ? table.history : viewing) - 1));
$("forward").addEventListener("click", () => stepTo(viewing + 1));
$("now").addEventListener("click", () => stepTo(Infinity));

// ------------------------------------------------------------------ the picture: zoom (buttons, Ctrl + wheel) and pan (drag)
function setPicture(svg, moves, past = false) {
  $("picture").innerHTML = svg;  // SVG from the server: its texts are escaped there
  for (const space of $("picture").querySelectorAll("[data-space]")) {
    const name = space.getAttribute("data-space");
    if (moves.some((m) => m.spaces.includes(name))) space.classList.add("playable");
    // a space of a past table is not the table now: a click there plays nothing
    space.addEventListener("click", () => past ? say("a past table: press 'now' to play on the table as it stands")
                                              : clickSpace(name));
  }
  applyZoom();
}

function applyZoom() {
  const svg = $("picture").querySelector("svg");
  if (!svg) return;
  const width = Number(svg.getAttribute("width")) || 640;
  // unzoomed on a narrow screen, the picture keeps its own size (its text readable) and pans
  const scale = zoom === null ? (window.innerWidth < 700 ? 1 : null) : zoom;
  svg.style.width = scale === null ? "" : `${Math.round(width * scale)}px`;
  svg.style.maxWidth = scale === null ? "100%" : "none";
  $("viewport").classList.toggle("zoomed", scale !== null);
}

function zoomBy(factor) {
  const svg = $("picture").querySelector("svg");
  if (!svg) return;
  const width = Number(svg.getAttribute("width")) || 640;
  const now = zoom === null ? svg.getBoundingClientRect().width / width : zoom;
  zoom = Math.min(3, Math.max(0.25, now * factor));
  applyZoom();
}

$("zoom-in").addEventListener("click", () => zoomBy(1.25));
$("zoom-out").addEventListener("click", () => zoomBy(0.8));
$("zoom-fit").addEventListener("click", () => {
  const svg = $("picture").querySelector("svg");
  const width = svg ? Number(svg.getAttribute("width")) || 640 : 640;
  zoom = Math.min(3, $("viewport").clientWidth / width);
  applyZoom();
});
$("viewport").addEventListener("wheel", (event) => {
  if (!event.ctrlKey) return;  // a wheel scrolls; with Ctrl it zooms
  event.preventDefault();
  zoomBy(event.deltaY < 0 ? 1.1 : 0.9);
}, {passive: false});

let drag = null;  // a mouse dragging the picture: where it started, and the scroll then
$("viewport").addEventListener("pointerdown", (event) => {
  if (event.pointerType !== "mouse" || event.button !== 0) return;  // a finger pans by itself (scrolling)
  const view = $("viewport");
  drag = {x: event.clientX, y: event.clientY, left: view.scrollLeft, top: view.scrollTop, moved: false};
});
window.addEventListener("pointermove", (event) => {
  if (!drag) return;
  const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
  if (Math.abs(dx) + Math.abs(dy) > 4) drag.moved = true;
  $("viewport").scrollLeft = drag.left - dx;
  $("viewport").scrollTop = drag.top - dy;
});
window.addEventListener("pointerup", () => {
  if (drag && drag.moved) {  // a drag is not a click on a space: the click that ends it goes nowhere
    const swallow = (event) => event.stopPropagation();
    window.addEventListener("click", swallow, {capture: true, once: true});
    setTimeout(() => window.removeEventListener("click", swallow, {capture: true}), 0);
  }
  drag = null;
});
window.addEventListener("resize", applyZoom);

function show(t) {
  const changed = !table || table.version !== t.version;
  table = t;
  const me = t.seats.find((seat) => seat.player === t.you) || {};
  const title = `${t.game}: ${me.name ? `${me.name} (player ${t.you})` : `player ${t.you}`}`;
  const turnNow = t.moves.length > 0 && !t.over;
  document.title = turnNow ? `Your turn - ${title}` : title;
  $("title").textContent = title;
  // the game's players and options in the page's own text, which wraps (the picture's title pans on a phone)
  const options = Object.entries(t.options || {}).map(([name, value]) => `${name}=${value}`).join(", ");
  $("options").textContent = `${t.players} players` + (options ? ` (${options})` : "");
  $("favicon").href = turnNow ? "/static/favicon-turn.svg" : "/static/favicon.svg";
  $("turn").classList.toggle("yours", turnNow);
  $("moves-section").classList.toggle("yours", turnNow);
  if (turnNow && !yourTurn) chime();
  yourTurn = turnNow;
  $("status").textContent = turnNow ? `Your turn (${t.status})` : t.status;
  $("rematch-line").hidden = !t.over;
  $("name-form").classList.toggle("unnamed", !me.name);
  if (!named && me.name) $("name").value = me.name;
  named = named || Boolean(me.name);
  if (changed) {
    say("");
    $("advice").textContent = "";
  }
  const outcome = $("outcome");
  outcome.hidden = !t.over;
  outcome.textContent = t.over ? `game over - ${t.outcome}` : "";

  if (viewing === null) {  // looking back, the past table stays until 'now'
    setPicture(t.picture, t.moves);
    showLog(t.log);
  } else if (viewing > t.history || pastGame !== t.game_number) {  // a rematch: that past is another game's
    backToNow();
    setPicture(t.picture, t.moves);
    showLog(t.log);
  }
  showHistory(t.history);

  const own = $("own");
  own.replaceChildren();
  for (const thing of t.own) {
    const block = document.createElement("div");
    block.className = "thing";
    const label = document.createElement("h3");
    label.textContent = thing.label;
    block.append(label);
    if (thing.cards) {
      const row = document.createElement("div");
      row.className = "cards";
      for (const card of thing.cards) {
        const face = document.createElement("span");
        face.className = "card";
        if (typeof card === "string") {
          face.textContent = card;
        } else {  // a card as the picture draws it: its title, its corner value apart, its text below
          const head = document.createElement("span");
          head.className = "title";
          head.textContent = card.title;
          face.append(head);
          if (card.corner) {
            const corner = document.createElement("span");
            corner.className = "corner";
            corner.textContent = card.corner;
            face.append(corner);
          }
          for (const line of card.lines) {
            const text = document.createElement("span");
            text.className = "line";
            text.textContent = line;
            face.append(text);
          }
        }
        row.append(face);
      }
      if (!thing.cards.length) row.textContent = "none";
      block.append(row);
    } else {
      const text = document.createElement("p");
      text.textContent = thing.text;
      block.append(text);
    }
    own.append(block);
  }
  $("own-things").hidden = !t.own.length;

  showMoves(t);

  const seats = $("seats");
  seats.replaceChildren();
  for (const seat of t.seats) {
    const item = document.createElement("li");
    const who = seat.player === t.you ? "you" : seat.who === "human" ? "a person" : `the agent ${seat.who}`;
    const state = seat.who === "human" && seat.player !== t.you ? (seat.here ? ", here" : ", away") : "";
    const turn = t.to_move.includes(seat.player) ? " - to move" : "";
    const name = seat.name ? ` (${seat.name})` : "";
    // how many cards each seat holds (the rules' 'as hand' entries): every seat knows it, never what they are
    const counts = (seat.counts || []).map(([label, count]) => `; ${label}: ${count}`).join("");
    item.textContent = `player ${seat.player}${name}: ${who}${state}${turn}${counts}`;
    seats.append(item);
  }

  $("notes-section").hidden = !t.notes.length;
  const notes = $("notes");
  notes.replaceChildren();
  for (const note of t.notes) {
    const item = document.createElement("li");
    item.textContent = note;
    notes.append(item);
  }

}

function showLog(lines) {
  const log = $("log");
  log.replaceChildren();
  for (const line of lines) {
    const item = document.createElement("li");
    item.textContent = line;
    log.append(item);
  }
  log.scrollTop = log.scrollHeight;
}

function showMoves(t) {
  const list = $("moves");
  list.replaceChildren();
  for (const move of t.moves) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move";
    button.textContent = move.text;
    button.dataset.number = move.number;
    button.disabled = waiting || closed;
    button.addEventListener("click", () => play(move));
    const why = document.createElement("button");
    why.type = "button";
    why.className = "explain";
    why.title = `explain '${move.text}'`;
    why.textContent = "?";
    why.addEventListener("click", () => send({cmd: "explain", number: move.number, text: move.text}));
    item.append(button, " ", why);
    list.append(item);
  }
  const none = $("no-moves");  // a sentence, not a numbered move
  none.hidden = t.moves.length > 0;
  none.textContent = t.over ? "the game is over" : "none now: wait for your turn";
  $("hint").disabled = waiting || closed || !t.moves.length;
  $("rematch").disabled = closed;
  $("name-set").disabled = closed;
  for (const button of $("moves").querySelectorAll("button.explain")) button.disabled = closed;
}

function markMoves(test, mark) {
  for (const button of $("moves").querySelectorAll("button.move")) {
    const move = table.moves.find((m) => String(m.number) === button.dataset.number);
    button.classList.toggle(mark, Boolean(move && test(move)));
  }
}

function play(move) {
  if (waiting) return;
  if (send({cmd: "move", number: move.number, text: move.text})) {
    waiting = true;
    for (const button of $("moves").querySelectorAll("button")) button.disabled = true;
    say(`you chose: ${move.text}`);
  }
}

function clickSpace(name) {
  if (!table) return;
  const naming = table.moves.filter((m) => m.spaces.includes(name));
  if (naming.length === 1) {
    play(naming[0]);
  } else if (naming.length > 1) {
    say(`${naming.length} of your moves name ${name}: choose one of the marked moves`);
    markMoves((m) => m.spaces.includes(name), "named");
  } else {
    say(table.moves.length ? `no move of yours names ${name}` : "it is not your move");
  }
}

$("hint").addEventListener("click", () => {
  $("advice").textContent = "thinking...";
  send({cmd: "hint"});
});
$("rematch").addEventListener("click", () => send({cmd: "rematch"}));
$("name-form").addEventListener("submit", (event) => {
  event.preventDefault();
  send({cmd: "name", name: $("name").value});
});

// an optional chime when the turn comes to this seat: off unless turned on (remembered in this browser)
const SOUND = "rulewright-sound";
$("sound").checked = localStorage.getItem(SOUND) === "on";
$("sound").addEventListener("change", () => {
  localStorage.setItem(SOUND, $("sound").checked ? "on" : "off");
  if ($("sound").checked) chime();
});

function chime() {
  if (!$("sound").checked) return;
  try {
    audio = audio || new AudioContext();
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = 660;
    volume.gain.setValueAtTime(0.15, audio.currentTime);
    volume.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(volume).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
    $("sound").dataset.played = String(Number($("sound").dataset.played || 0) + 1);
  } catch (error) { /* no sound in this browser: the title and the icon still say it */ }
}

connect();
