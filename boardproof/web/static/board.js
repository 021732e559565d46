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
  var analyseButton = byId('analyse');
  var playLine = byId('play-line');
  var table = byId('analysis');
  var current = null;     // the server's description of the position shown
  var history = [];       // earlier {d: description, n: moves in the line} (for undo)
  var line = [];          // the moves played since the last load
  var prefix = [];
  var best = null;
  var bestLine = [];      // the answer's line of moves (for "Show the line")

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
    if (!keepAnswer) { clearAnswer(); }
    say(describe(d));
    refresh();
  }

  function clearAnswer() {
    answer.textContent = '';
    best = null;
    bestLine = [];
    playBest.hidden = true;
    playLine.hidden = true;
    table.hidden = true;
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
        history.push({ d: before, n: line.length });
        line.push(move);
        show(data.board);
      })
      .catch(function (error) { prefix = []; refresh(); say(error.message, 'bad'); });
  }

  function playMoves(moves) {
    var before = current;
    post('/api/play', { game: current.game, position: current.position, moves: moves })
      .then(function (data) {
        history.push({ d: before, n: line.length });
        line = line.concat(moves);
        show(data.board);
        say('Played the line ' + moves.join(' ') + '. ' + describe(data.board));
      })
      .catch(function (error) { say(error.message, 'bad'); });
  }

  function markBest(move, moves) {
    best = null;
    if (move) {
      current.moves.forEach(function (e) { if (e[0] === move) { best = { move: e[0], path: e[1] }; } });
    }
    bestLine = moves || [];
    playBest.hidden = !best;
    playLine.hidden = bestLine.length < 2;
    refresh();
  }

  function cell(row, text) {
    var td = document.createElement('td');
    td.textContent = text;  // text only: nothing from the answer is parsed as HTML
    row.appendChild(td);
  }

  function busy(on) { solveButton.disabled = on; analyseButton.disabled = on; }

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
    var last = history.pop();
    line = line.slice(0, last.n);
    show(last.d);
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
    busy(true);
    clearAnswer();
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
        markBest(data.best_move, data.pv);
      })
      .catch(function (error) { answer.textContent = error.message; answer.className = 'status bad'; })
      .then(function () { busy(false); });
  });
  analyseButton.addEventListener('click', function () {
    if (!current) { return; }
    var seconds = Number(byId('seconds').value);
    busy(true);
    clearAnswer();
    answer.textContent = 'Analysing (for ' + seconds + ' s)…';
    var asked = current;
    post('/api/analyse', { game: asked.game, position: asked.position, timeout: seconds })
      .then(function (data) {
        if (current !== asked) { return; }
        var parts = ['result: ' + data.result];
        if (data.winner !== null && data.winner !== undefined) { parts.push('winner: ' + data.winner); }
        if (data.result === 'unknown') {
          parts.push('estimate: ' + (100 * data.value).toFixed(1) + '% for ' + data.to_move + ' (not a proof)');
        }
        if (data.score !== undefined && data.score !== null) { parts.push('mean score: ' + data.score); }
        if (data.best_move) { parts.push('best move: ' + data.best_move); }
        if (data.pv && data.pv.length) { parts.push('line: ' + data.pv.join(' ')); }
        if (data.note) { parts.push('note: ' + data.note); }
        parts.push(data.iterations + ' iterations, ' + data.seconds + ' s, ' + data.method);
        answer.textContent = parts.join('; ');
        answer.className = 'status good analysed';
        var body = table.tBodies[0];
        body.textContent = '';
        data.moves.forEach(function (m) {
          var row = document.createElement('tr');
          cell(row, m.move);
          cell(row, String(m.visits));
          cell(row, (100 * m.value).toFixed(1));
          cell(row, m.proved || '-');
          body.appendChild(row);
        });
        table.hidden = !data.moves.length;
        markBest(data.best_move, data.pv);
      })
      .catch(function (error) { answer.textContent = error.message; answer.className = 'status bad'; })
      .then(function () { busy(false); });
  });
  playBest.addEventListener('click', function () { if (best) { playMove(best.move); } });
  playLine.addEventListener('click', function () { if (bestLine.length) { playMoves(bestLine); } });

  load('/api/start', { game: gameSelect.value });
}());
