'use strict';
(function () {
  var byId = function (id) { return document.getElementById(id); };
  var gameSelect = byId('game');
  var positionField = byId('position');
  var status = byId('status');
  var board = byId('board');
  var choices = byId('choices');
  var typed = byId('typed-move');
  var answer = byId('answer');
  var lineField = byId('line');
  var playBest = byId('play-best');
  var solveButton = byId('solve');
  var current = null;     // the server's description of the position shown
  var history = [];       // earlier descriptions (for undo)
  var line = [];          // the moves played since the last load
  var prefix = [];
  var best = null;

  function say(text, kind) {
    status.textContent = text;
    status.className = 'status ' + (kind || '');
  }

  function post(url, body) {
    return fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body)
    }).then(function (response) {
      return response.json().then(function (data) {
        if (!response.ok) { throw new Error(data.error || ('HTTP ' + response.status)); }
        return data;
      });
    });
  }

  function describe(d) {
    if (d.result === 'ongoing') {
      return 'To move: ' + d.to_move + ' (' + d.moves.length + ' legal moves). ' +
        'Click the board or type a move.';
    }
    if (d.result === 'draw') { return 'Game over: a draw.'; }
    var who = Array.isArray(d.winner) ? d.winner.join(', ') : d.winner;
    return 'Game over: won by ' + who + (d.scores ? ' (scores ' + d.scores.join(' : ') + ')' : '') + '.';
  }

  function show(d, keepAnswer) {
    current = d;
    prefix = [];
    board.innerHTML = d.svg;  // the library's own SVG (no user text in it)
    positionField.value = d.position;
    lineField.textContent = line.join(' ') || '-';
    if (!keepAnswer) { answer.textContent = ''; best = null; playBest.hidden = true; }
    say(describe(d));
    refresh();
  }

  function matching(path) {
    return current.moves.filter(function (entry) {
      for (var k = 0; k < path.length; k += 1) {
        if (entry[1][k] !== path[k]) { return false; }
      }
      return true;
    });
  }

  function button(label, onClick, cls) {
    var b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.className = cls || 'choice';
    b.addEventListener('click', onClick);
    choices.appendChild(b);
  }

  function refresh() {
    choices.textContent = '';
    if (!current) { return; }
    var hits = Array.prototype.slice.call(board.querySelectorAll('.hit'));
    var onBoard = {};
    hits.forEach(function (h) { onBoard[h.getAttribute('data-t')] = true; });
    var next = {};
    var order = [];
    var finish = null;
    matching(prefix).forEach(function (entry) {
      if (entry[1].length === prefix.length) { finish = entry[0]; return; }
      var t = entry[1][prefix.length];
      if (!next[t]) { next[t] = true; order.push(t); }
    });
    var bestPath = best && best.path ? best.path : [];
    hits.forEach(function (h) {
      var t = h.getAttribute('data-t');
      var cls = 'hit';
      if (prefix.indexOf(t) >= 0) { cls += ' sel'; }
      else if (prefix.length && next[t]) { cls += ' next'; }
      else if (bestPath.indexOf(t) >= 0) { cls += ' best'; }
      h.setAttribute('class', cls);
    });
    order.forEach(function (t) {
      if (prefix.length === 0 && onBoard[t]) { return; }
      button(t, function () { pick(t); });
    });
    if (finish !== null && prefix.length) { button('play ' + finish, function () { playMove(finish); }, 'choice finish'); }
    if (prefix.length) { button('clear', function () { prefix = []; refresh(); say(describe(current)); }); }
  }

  function pick(t) {
    var left = matching(prefix.concat([t]));
    if (left.length) { prefix = prefix.concat([t]); } else {
      left = matching([t]);
      if (!left.length) { say('No legal move starts with ' + t + '.', 'bad'); return; }
      prefix = [t];
    }
    var exact = left.filter(function (e) { return e[1].length === prefix.length; });
    if (exact.length && exact.length === left.length) { playMove(exact[0][0]); return; }
    say('Selected ' + prefix.join(' ') + ': choose how the move goes on.');
    refresh();
  }

  function playMove(move) {
    var before = current;
    post('/api/play', { game: current.game, position: current.position, moves: [move] })
      .then(function (data) {
        history.push(before);
        line.push(move);
        show(data.board);
      })
      .catch(function (error) { prefix = []; refresh(); say(error.message, 'bad'); });
  }

  function load(url, body) {
    post(url, body).then(function (d) { history = []; line = []; show(d); })
      .catch(function (error) { say(error.message, 'bad'); });
  }

  board.addEventListener('click', function (event) {
    var t = event.target.getAttribute && event.target.getAttribute('data-t');
    if (t) { pick(t); }
  });
  board.addEventListener('keydown', function (event) {
    var t = event.target.getAttribute && event.target.getAttribute('data-t');
    if (t && (event.key === 'Enter' || event.key === ' ')) { event.preventDefault(); pick(t); }
  });
  byId('typed-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var text = typed.value.trim();
    if (text && current) { typed.value = ''; playMove(text); }
  });
  byId('undo').addEventListener('click', function () {
    if (!history.length) { say('Nothing to undo.'); return; }
    line.pop();
    show(history.pop());
  });
  byId('new').addEventListener('click', function () { load('/api/start', { game: gameSelect.value }); });
  gameSelect.addEventListener('change', function () { load('/api/start', { game: gameSelect.value }); });
  byId('load').addEventListener('click', function () {
    load('/api/position', { game: gameSelect.value, position: positionField.value.trim() });
  });
  byId('solve-form').addEventListener('submit', function (event) {
    event.preventDefault();
    if (!current) { return; }
    var seconds = Number(byId('seconds').value);
    solveButton.disabled = true;
    answer.textContent = 'Solving (at most ' + seconds + ' s)…';
    var asked = current;
    post('/api/solve', { game: asked.game, position: asked.position, timeout: seconds })
      .then(function (data) {
        if (current !== asked) { return; }
        var parts = ['result: ' + data.result];
        if (data.winner !== null && data.winner !== undefined) { parts.push('winner: ' + data.winner); }
        if (data.plies !== null && data.plies !== undefined) { parts.push('in ' + data.plies + ' plies'); }
        if (data.score !== undefined && data.score !== null) { parts.push('score: ' + data.score); }
        if (data.best_move) { parts.push('best move: ' + data.best_move); }
        if (data.pv && data.pv.length) { parts.push('line: ' + data.pv.join(' ')); }
        if (data.note) { parts.push('note: ' + data.note); }
        parts.push('nodes: ' + data.nodes + ', ' + data.seconds + ' s');
        answer.textContent = parts.join('; ');
        answer.className = 'status good solved';
        best = null;
        if (data.best_move) {
          current.moves.forEach(function (e) { if (e[0] === data.best_move) { best = { move: e[0], path: e[1] }; } });
        }
        playBest.hidden = !best;
        refresh();
      })
      .catch(function (error) { answer.textContent = error.message; answer.className = 'status bad'; })
      .then(function () { solveButton.disabled = false; });
  });
  playBest.addEventListener('click', function () { if (best) { playMove(best.move); } });

  load('/api/start', { game: gameSelect.value });
}());
