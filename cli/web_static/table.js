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

const $ = (id) => document.getElementById(id);

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}/seat/${encodeURIComponent(seatToken)}/ws`);
  socket.onopen = () => { retry = 500; newest = -1; $("connection").textContent = "connected"; };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    $("connection").textContent = "disconnected: reconnecting...";
    waiting = false;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
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
  }
}

function show(t) {
  const changed = !table || table.version !== t.version;
  table = t;
  const title = `${t.game}: player ${t.you}`;
  document.title = title;
  $("title").textContent = title;
  $("status").textContent = t.status;
  if (changed) {
    say("");
    $("advice").textContent = "";
  }
  const outcome = $("outcome");
  outcome.hidden = !t.over;
  outcome.textContent = t.over ? `game over - ${t.outcome}` : "";

  $("picture").innerHTML = t.picture;  // SVG from the server: its texts are escaped there
  for (const space of $("picture").querySelectorAll("[data-space]")) {
    const name = space.getAttribute("data-space");
    if (t.moves.some((m) => m.spaces.includes(name))) space.classList.add("playable");
    space.addEventListener("click", () => clickSpace(name));
  }

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
        face.textContent = card;
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
    item.textContent = `player ${seat.player}: ${who}${state}${turn}`;
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

  const log = $("log");
  log.replaceChildren();
  for (const line of t.log) {
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
    button.disabled = waiting;
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
  if (!t.moves.length) {
    const item = document.createElement("li");
    item.className = "none";
    item.textContent = t.over ? "the game is over" : "none now: wait for your turn";
    list.append(item);
  }
  $("hint").disabled = waiting || !t.moves.length;
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
connect();
