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
  var enginePanel = byId('engine');
  var sideSelect = byId('engine-side');
  var strengthSelect = byId('engine-strength');
  var startButton = byId('engine-start');
  var goButton = byId('engine-go');
  var resignButton = byId('resign');
  var matchLine = byId('match');
  var gameOver = byId('game-over');
  var reviewButton = byId('review');
  var download = byId('download');
  var reviewSummary = byId('review-summary');
  var reviewTable = byId('review-table');
  // the rules choice: a select per game option of each game (Minefield's win rule and
  // glyphs), in spans marked with their game
  var ruleSpans = Array.prototype.slice.call(document.querySelectorAll('.rule'));
  // the server's description of the position shown (its options: the game options it
  // is played with, other than the defaults; every request about it sends them)
  var current = null;
  // earlier {d: description, n: moves in the line, user: your side then (a game against
  // the engine) or null} (for undo)
  var history = [];
  var line = [];          // the moves played since the last load
  var prefix = [];
  var best = null;
  var bestLine = [];      // the answer's line of moves (for "Show the line")
  var searching = false;  // a solve or an analysis is running
  // the game against the engine, or null: {game, start, players, user (your side now),
  // first (your side at the start), budget ({seconds} or {iterations}), label, by (who
  // played each move of the line: 'you' or 'engine'), ticket (answers to an older
  // request are dropped), thinking, note, over (the result line, once the game is
  // over), resigned, record (the record text, once over), url (its download), options
  // (the game options it is played with)}
  var match = null;

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

  // ---- The rules choice ----------------------------------------------------------

  function ruleSelects(game) {
    return ruleSpans.filter(function (s) { return s.getAttribute('data-game') === game; })
      .map(function (s) { return s.querySelector('select'); });
  }

  // the game options chosen on the page for `game` (each of them, defaults included)
  function chosenRules(game) {
    var found = {};
    ruleSelects(game).forEach(function (sel) { found[sel.getAttribute('data-option')] = sel.value; });
    return found;
  }

  // a request: `fields` and the game options `rules`
  function withRules(fields, rules) {
    var body = {};
    Object.keys(rules || {}).forEach(function (k) { body[k] = rules[k]; });
    Object.keys(fields).forEach(function (k) { body[k] = fields[k]; });
    return body;
  }

  function showRuleSpans(game) {
    ruleSpans.forEach(function (s) { s.hidden = s.getAttribute('data-game') !== game; });
  }

  // the selects say the options `d` is played with (one not given: its default)
  function setRules(d) {
    ruleSelects(d.game).forEach(function (sel) {
      var name = sel.getAttribute('data-option');
      var given = d.options && d.options[name] !== undefined;
      sel.value = given ? String(d.options[name]) : sel.getAttribute('data-default');
    });
  }

  function gameName(game) {
    var found = game;
    Array.prototype.forEach.call(gameSelect.options, function (o) { if (o.value === game) { found = o.textContent; } });
    return found;
  }

  // "Minefield, cartwheel glyphs. " when `d` is played with options other than the defaults
  function rulesText(d) {
    var names = Object.keys(d.options || {});
    if (!names.length) { return ''; }
    var labels = {};
    ruleSelects(d.game).forEach(function (sel) { labels[sel.getAttribute('data-option')] = sel.getAttribute('data-label'); });
    return gameName(d.game) + ', ' + names.map(function (n) {
      return d.options[n] + ' ' + (labels[n] || n);
    }).join(', ') + '. ';
  }

  function describe(d) {
    return rulesText(d) + describePlay(d);
  }

  function describePlay(d) {
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
    showRuleSpans(d.game);
    setRules(d);
    lineField.textContent = line.join(' ') || '-';
    if (!keepAnswer) { clearAnswer(); }
    say(describe(d));
    fillSides(d);
    refresh();
    if (match) { matchTurn(); } else { panel(); }
  }

  function clearAnswer() {
    answer.textContent = '';
    answer.className = '';  // no empty box left over from the last answer
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
    if (refuseMove()) { return; }
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
    if (refuseMove()) { return; }
    var before = current;
    post('/api/play', withRules({ game: current.game, position: current.position, moves: [move] },
                                current.options))
      .then(function (data) {
        if (current !== before) { return; }
        history.push({ d: before, n: line.length, user: match ? match.user : null });
        line.push(move);
        if (match) {
          match.by.push('you');
          match.note = '';
          if (exchanges(move)) { match.user = other(match.user); }
        }
        show(data.board);
      })
      .catch(function (error) { prefix = []; refresh(); say(error.message, 'bad'); });
  }

  function playMoves(moves) {
    if (match && !match.over) { say('Not during a game against the engine: play your move.', 'bad'); return; }
    if (refuseMove()) { return; }
    var before = current;
    post('/api/play', withRules({ game: current.game, position: current.position, moves: moves },
                                current.options))
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

  function busy(on) {
    searching = on;
    var engineThinking = !!(match && match.thinking);
    solveButton.disabled = on || engineThinking;
    analyseButton.disabled = on || engineThinking;
  }

  // a new position (the rules chosen on the page in `body`): the line starts again
  function load(url, body) {
    post(url, body).then(function (d) { leaveMatch(); history = []; line = []; show(d); })
      .catch(function (error) {
        if (current) { setRules(current); }  // the selects go back to the position's rules
        say(error.message, 'bad');
      });
  }

  // ---- Play the engine ----------------------------------------------------------

  function fillSides(d) {
    var keep = sideSelect.value;
    sideSelect.textContent = '';
    (d.players || []).forEach(function (p) {
      var option = document.createElement('option');
      option.value = p.symbol;
      option.textContent = p.name + ' (' + p.symbol + ')';
      sideSelect.appendChild(option);
      if (p.symbol === keep) { sideSelect.value = keep; }
    });
  }

  function sideName(symbol) {
    var found = symbol;
    (match ? match.players : current.players || []).forEach(function (p) {
      if (p.symbol === symbol) { found = p.name + ' (' + p.symbol + ')'; }
    });
    return found;
  }

  // the pie rule's swap (Minefield): the stone stays and the players exchange colours,
  // so after it you play the other side
  function exchanges(move) { return move === 'swap'; }

  function other(symbol) {
    var found = symbol;
    match.players.forEach(function (p) { if (p.symbol !== symbol) { found = p.symbol; } });
    return found;
  }

  function refuseMove() {
    if (!match || !current) { return false; }
    if (match.over) {
      if (current.result !== 'ongoing') { return false; }  // no move is legal anyway
      say(match.over + ' Load a position to go on analysing.', 'bad');
      return true;
    }
    if (current.to_move !== match.user) { say('Wait: it is the engine\'s move.', 'bad'); return true; }
    return false;
  }

  function panel() {
    var on = !!match && !match.over;
    var state = 'off';
    if (match) { state = match.over ? 'over' : (current.to_move === match.user ? 'you' : 'engine'); }
    enginePanel.setAttribute('data-state', state);
    sideSelect.disabled = on;
    strengthSelect.disabled = on;
    ruleSpans.forEach(function (s) { s.querySelector('select').disabled = on; });
    startButton.hidden = on;
    resignButton.hidden = !on;
    goButton.hidden = !(state === 'engine' && !match.thinking);
    gameOver.hidden = state !== 'over';
    matchLine.hidden = !match;
    if (match) {
      var text = 'You play ' + sideName(match.user) + ' against the engine (' + match.label + '): ';
      if (state === 'over') { text = match.over; }
      else if (state === 'you') { text += 'your move.'; }
      else if (match.thinking) { text += 'the engine is thinking…'; }
      else { text += 'the engine did not answer; ask it again.'; }
      matchLine.textContent = text;
      matchLine.className = 'status' + (state === 'over' ? ' good' : '');
    }
    busy(searching);
  }

  function matchTurn() {
    if (!match.over && current.result !== 'ongoing') {
      var won = current.result === 'win' && [].concat(current.winner).indexOf(match.user) >= 0;
      var who = current.result === 'draw' ? '' : (won ? ' You won.' : ' The engine won.');
      finish(describe(current) + who);
    }
    if (match.over) {
      say(match.over, 'good');
    } else if (current.to_move === match.user) {
      say(rulesText(current) + match.note + 'Your move (' + sideName(match.user) +
        '): click the board or type a move.');
    } else if (!match.thinking) {
      engineMove();
    }
    panel();
  }

  function engineMove() {
    match.ticket += 1;
    var ticket = match.ticket;
    var asked = current;
    var body = withRules({ game: asked.game, position: asked.position }, asked.options);
    Object.keys(match.budget).forEach(function (k) { body[k] = match.budget[k]; });
    match.thinking = true;
    say(rulesText(asked) + match.note + 'The engine (' + sideName(asked.to_move) + ') is thinking…');
    panel();
    post('/api/engine-move', body).then(function (data) {
      if (!match || match.ticket !== ticket || current !== asked) { return; }
      match.thinking = false;
      history.push({ d: asked, n: line.length, user: match.user });
      line.push(data.move);
      match.by.push('engine');
      if (exchanges(data.move)) { match.user = other(match.user); }
      match.note = 'The engine played ' + data.move + '. ';
      show(data.board);
    }, function (error) {
      if (!match || match.ticket !== ticket) { return; }
      match.thinking = false;
      say(error.message, 'bad');
      panel();
    });
  }

  // the record: the text form, or the JSON form when it must carry the game options
  // (Minefield's variant: `boardproof review` makes the game from them) or odd text
  function recordText() {
    var options = Object.keys(match.options).length ? match.options : null;
    var plain = !options && (match.start + line.join(' ')).indexOf('#') < 0 &&
      line.every(function (m) { return !/\s/.test(m); });
    if (!plain) {  // the JSON form: no comment, any text
      var data = { game: match.game };
      if (options) { data.options = options; }
      data.start = match.start;
      data.moves = line;
      return JSON.stringify(data) + '\n';
    }
    var lines = [
      '# ' + match.game + ': you (' + match.first + ') against the engine (' + match.label +
        ') on the boardproof analysis board',
      '# ' + match.over,
      '# review it: boardproof review ' + match.game + ' FILE',
      match.start
    ];
    if (line.length) { lines.push(line.join(' ')); }
    return lines.join('\n') + '\n';
  }

  function finish(text) {
    match.over = text;
    match.thinking = false;
    match.ticket += 1;
    match.record = recordText();
    match.final = match.by.slice();
    if (match.url) { URL.revokeObjectURL(match.url); }
    match.url = URL.createObjectURL(new Blob([match.record], { type: 'text/plain' }));
    download.href = match.url;
    download.setAttribute('download', match.game + '-game.txt');
  }

  function clearReview() {
    reviewSummary.hidden = true;
    reviewSummary.textContent = '';
    reviewTable.hidden = true;
    reviewTable.tBodies[0].textContent = '';
    reviewButton.disabled = false;
  }

  function leaveMatch() {
    if (match && match.url) { URL.revokeObjectURL(match.url); }
    match = null;
    clearReview();
  }

  function verdict(v) {
    if (!v) { return '-'; }
    return v.proved ? v.proved : '~' + Math.round(100 * v.estimate) + '%';
  }

  function showReview(data) {
    var body = reviewTable.tBodies[0];
    body.textContent = '';
    data.plies.forEach(function (r) {
      var row = document.createElement('tr');
      cell(row, String(r.ply));
      cell(row, r.player);
      cell(row, match && match.final ? (match.final[r.ply - 1] || '') : '');
      cell(row, r.move);
      cell(row, verdict(r.before));
      cell(row, verdict(r.after));
      cell(row, r.best === null ? '-' : r.best + (r.best_value ? ' (' + verdict(r.best_value) + ')' : ''));
      cell(row, r.ply === data.losing_move ? 'THE LOSING MOVE' : (r.mark || ''));
      if (r.mark) { row.className = r.mark; }
      body.appendChild(row);
    });
    reviewTable.hidden = !data.plies.length;
    var text = 'losing move: none proved';
    if (data.losing_move !== null) {
      var r = data.plies[data.losing_move - 1];
      text = 'losing move: ply ' + r.ply + ', ' + r.player + ' played ' + r.move;
    }
    if (!data.complete) { text += ' (the review stopped after ply ' + data.plies.length + ': the server\'s time limit)'; }
    reviewSummary.textContent = 'Review: ' + text + ' (' + data.seconds + ' s). Values are for the ' +
      'side that moves: win, loss, draw proved; ~N% estimated.';
    reviewSummary.className = 'status good reviewed';
  }

  startButton.addEventListener('click', function () {
    if (!current) { return; }
    if (current.result !== 'ongoing') { say('The game is over in this position: start or load another one.', 'bad'); return; }
    var parts = strengthSelect.value.split(':');
    var budget = {};
    budget[parts[0]] = Number(parts[1]);
    leaveMatch();
    match = {
      game: current.game, start: current.position, players: current.players || [],
      user: sideSelect.value, first: sideSelect.value, budget: budget,
      label: strengthSelect.options[strengthSelect.selectedIndex].textContent,
      by: [], ticket: 0, thinking: false, note: '', over: null, resigned: false,
      record: null, final: null, url: null, options: current.options || {}
    };
    history = [];
    line = [];
    show(current);
  });
  goButton.addEventListener('click', function () { if (match && !match.over) { matchTurn(); } });
  resignButton.addEventListener('click', function () {
    if (!match || match.over) { return; }
    finish('Game over: you resigned (' + sideName(match.user) + '); the engine won.');
    matchTurn();
  });
  reviewButton.addEventListener('click', function () {
    if (!match || !match.record) { return; }
    var body = withRules({ game: match.game, record: match.record }, match.options);
    if (match.budget.iterations) { body.iterations = match.budget.iterations; } else { body.seconds = 0.2; }
    clearReview();
    reviewButton.disabled = true;
    reviewSummary.hidden = false;
    reviewSummary.className = 'status';
    reviewSummary.textContent = 'Reviewing ' + line.length + ' moves…';
    var asked = match;
    post('/api/review', body).then(function (data) {
      if (match === asked) { showReview(data); }
    }).catch(function (error) {
      reviewSummary.textContent = error.message;
      reviewSummary.className = 'status bad';
    }).then(function () { reviewButton.disabled = false; });
  });

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
    if (match) { undoMatch(); return; }
    if (!history.length) { say('Nothing to undo.'); return; }
    var last = history.pop();
    line = line.slice(0, last.n);
    show(last.d);
  });
  // against the engine: back to before your last move (the engine's reply goes too)
  function undoMatch() {
    if (match.resigned) { say(match.over + ' Load a position to go on analysing.', 'bad'); return; }
    var k = history.length - 1;
    while (k >= 0 && history[k].d.to_move !== history[k].user) { k -= 1; }
    if (k < 0) { say('Nothing to undo: you have not moved yet.'); return; }
    var entry = history[k];
    history = history.slice(0, k);
    line = line.slice(0, entry.n);
    match.by = match.by.slice(0, entry.n);
    match.user = entry.user;
    match.over = null;
    match.record = null;
    match.thinking = false;
    match.ticket += 1;
    match.note = 'Took back your move. ';
    clearReview();
    show(entry.d);
  }

  function startPosition() {
    load('/api/start', withRules({ game: gameSelect.value }, chosenRules(gameSelect.value)));
  }
  byId('new').addEventListener('click', startPosition);
  gameSelect.addEventListener('change', function () { showRuleSpans(gameSelect.value); startPosition(); });
  byId('load').addEventListener('click', function () {
    load('/api/position', withRules({ game: gameSelect.value, position: positionField.value.trim() },
                                    chosenRules(gameSelect.value)));
  });
  // another rule: the position shown, under it (the line and its undo start again there)
  ruleSpans.forEach(function (span) {
    span.querySelector('select').addEventListener('change', function () {
      var game = span.getAttribute('data-game');
      if (!current || current.game !== game) { startPosition(); return; }
      load('/api/position', withRules({ game: game, position: current.position }, chosenRules(game)));
    });
  });
  byId('solve-form').addEventListener('submit', function (event) {
    event.preventDefault();
    if (!current) { return; }
    var seconds = Number(byId('seconds').value);
    busy(true);
    clearAnswer();
    answer.textContent = 'Solving (at most ' + seconds + ' s)…';
    var asked = current;
    post('/api/solve', withRules({ game: asked.game, position: asked.position, timeout: seconds },
                                 asked.options))
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
    post('/api/analyse', withRules({ game: asked.game, position: asked.position, timeout: seconds },
                                   asked.options))
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

  startPosition();
}());
