'use strict';
(function () {
  var KEY = 'boardproof-progress';

  function load() {
    try {
      var data = JSON.parse(window.localStorage.getItem(KEY) || '{}');
      if (data && typeof data === 'object' && data.solved && typeof data.solved === 'object') {
        return data;
      }
    } catch (e) { /* no storage: progress is not kept */ }
    return { solved: {} };
  }

  function save(data) {
    try { window.localStorage.setItem(KEY, JSON.stringify(data)); } catch (e) { /* ignore */ }
  }

  function isoDay(date) {
    var m = String(date.getMonth() + 1).padStart(2, '0');
    var d = String(date.getDate()).padStart(2, '0');
    return date.getFullYear() + '-' + m + '-' + d;
  }

  function streak(data, today) {
    var days = {};
    Object.keys(data.solved).forEach(function (id) { days[data.solved[id]] = true; });
    var day = new Date(today.getTime());
    if (!days[isoDay(day)]) { day.setDate(day.getDate() - 1); }
    var count = 0;
    while (days[isoDay(day)]) { count += 1; day.setDate(day.getDate() - 1); }
    return count;
  }

  function progressText(data) {
    var solved = Object.keys(data.solved).length;
    var run = streak(data, new Date());
    return 'Solved here: ' + solved + ' puzzle' + (solved === 1 ? '' : 's') +
      '; streak: ' + run + ' day' + (run === 1 ? '' : 's') + ' in a row.';
  }

  function byId(id) { return document.getElementById(id); }

  // ---------------------------------------------------------------- Glicko-2
  // Glickman, "Example of the Glicko-2 system" (2013), step for step as
  // boardproof/puzzles/glicko.py (the reference of its tests).
  var GLICKO = (function () {
    var SCALE = 173.7178, TAU = 0.5, EPSILON = 0.000001, MAX_RD = 350;
    function g(phi) { return 1 / Math.sqrt(1 + 3 * phi * phi / (Math.PI * Math.PI)); }
    function e(mu, muJ, phiJ) { return 1 / (1 + Math.exp(-g(phiJ) * (mu - muJ))); }
    function volatility(delta, phi, v, sigma, tau) {
      var a = Math.log(sigma * sigma);
      function f(x) {
        var ex = Math.exp(x);
        return ex * (delta * delta - phi * phi - v - ex) / (2 * Math.pow(phi * phi + v + ex, 2)) -
          (x - a) / (tau * tau);
      }
      var A = a, B, k;
      if (delta * delta > phi * phi + v) {
        B = Math.log(delta * delta - phi * phi - v);
      } else {
        k = 1;
        while (f(a - k * tau) < 0) { k += 1; }
        B = a - k * tau;
      }
      var fA = f(A), fB = f(B);
      while (Math.abs(B - A) > EPSILON) {
        var C = A + (A - B) * fA / (fB - fA);
        var fC = f(C);
        if (fC * fB <= 0) { A = B; fA = fB; } else { fA /= 2; }
        B = C; fB = fC;
      }
      return Math.exp(A / 2);
    }
    // games: [[opponent rating, opponent RD, score], ...]; returns [rating, RD, volatility]
    function update(rating, rd, vol, games, tau) {
      tau = tau || TAU;
      var mu = (rating - 1500) / SCALE, phi = rd / SCALE;
      if (!games.length) {
        return [rating, Math.min(Math.sqrt(phi * phi + vol * vol) * SCALE, MAX_RD), vol];
      }
      var vInv = 0, total = 0;
      games.forEach(function (game) {
        var muJ = (game[0] - 1500) / SCALE, phiJ = game[1] / SCALE;
        var gJ = g(phiJ), eJ = e(mu, muJ, phiJ);
        vInv += gJ * gJ * eJ * (1 - eJ);
        total += gJ * (game[2] - eJ);
      });
      var v = 1 / vInv;
      var sigma = volatility(v * total, phi, v, vol, tau);
      var phiStar = Math.sqrt(phi * phi + sigma * sigma);
      var phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
      var muNew = mu + phiNew * phiNew * total;
      return [muNew * SCALE + 1500, Math.min(phiNew * SCALE, MAX_RD), sigma];
    }
    return { update: update, START: [1500, 350, 0.06], PUZZLE_RD: 80 };
  }());
  window.boardproofGlicko = GLICKO;

  var RATING_KEY = 'boardproof-rating';

  function loadRating() {
    try {
      var data = JSON.parse(window.localStorage.getItem(RATING_KEY) || 'null');
      if (data && typeof data === 'object' && typeof data.rating === 'number' &&
          typeof data.rd === 'number' && typeof data.vol === 'number' &&
          data.tried && typeof data.tried === 'object') {
        return data;
      }
    } catch (e) { /* no storage: the rating is not kept */ }
    return { rating: GLICKO.START[0], rd: GLICKO.START[1], vol: GLICKO.START[2], tried: {} };
  }

  function saveRating(data) {
    try { window.localStorage.setItem(RATING_KEY, JSON.stringify(data)); } catch (e) { /* ignore */ }
  }

  // one first attempt at a puzzle rated puzzleRating: solved (true) or not; a puzzle
  // counts once (its first attempt), as on lichess
  function rateAttempt(id, puzzleRating, solved) {
    var data = loadRating();
    if (!id || data.tried[id] !== undefined || typeof puzzleRating !== 'number') { return null; }
    var next = GLICKO.update(data.rating, data.rd, data.vol,
      [[puzzleRating, GLICKO.PUZZLE_RD, solved ? 1 : 0]]);
    var change = next[0] - data.rating;
    data.rating = next[0]; data.rd = next[1]; data.vol = next[2];
    data.tried[id] = solved ? 1 : 0;
    saveRating(data);
    return change;
  }

  function ratingText(data, change) {
    var text = 'Your puzzle rating: ' + Math.round(data.rating) + ' (RD ' + Math.round(data.rd) + ')';
    if (typeof change === 'number') {
      var c = Math.round(change);
      text += ', ' + (c >= 0 ? '+' : '') + c + ' for this puzzle';
    }
    var n = Object.keys(data.tried).length;
    return text + '; ' + n + ' puzzle' + (n === 1 ? '' : 's') + ' rated.';
  }

  function showRating(change) {
    var p = byId('rating');
    if (p) { p.textContent = ratingText(loadRating(), change); }
  }

  // ---------------------------------------------------------------- puzzle page
  function puzzlePage(source) {
    var data = JSON.parse(source.textContent);
    var frames = Array.prototype.slice.call(document.querySelectorAll('.frame'));
    var status = byId('status');
    var choices = byId('choices');
    var typed = byId('typed-move');
    var takeBack = byId('take-back');
    var stepIndex = 0;
    var prefix = [];
    var wrong = null;
    var done = false;
    var missed = false;

    function say(text, kind) {
      status.textContent = text;
      status.className = 'status ' + (kind || '');
    }

    function show(index) {
      frames.forEach(function (frame, k) { frame.hidden = k !== index; });
    }

    function step() { return data.steps[stepIndex]; }

    function hits() {
      var frame = frames[step().frame];
      return Array.prototype.slice.call(frame.querySelectorAll('.hit'));
    }

    function candidates() { return matching(prefix); }

    function targetSet() {
      var set = {};
      hits().forEach(function (hit) { set[hit.getAttribute('data-t')] = true; });
      return set;
    }

    function button(label, onClick, cls) {
      var b = document.createElement('button');
      b.type = 'button';
      b.textContent = label;
      if (cls) { b.className = cls; }
      b.addEventListener('click', onClick);
      choices.appendChild(b);
      return b;
    }

    function refresh() {
      choices.textContent = '';
      var board = targetSet();
      var marks = {};
      prefix.forEach(function (t) { marks[t] = 'sel'; });
      if (wrong) { wrong.path.forEach(function (t) { marks[t] = 'wrong'; }); }
      var next = {};
      var order = [];
      var finish = null;
      if (!done && !wrong) {
        candidates().forEach(function (entry) {
          if (entry[1].length === prefix.length) { finish = entry[0]; return; }
          var t = entry[1][prefix.length];
          if (!next[t]) { next[t] = true; order.push(t); }
        });
      }
      hits().forEach(function (hit) {
        var t = hit.getAttribute('data-t');
        var cls = 'hit';
        if (marks[t]) { cls += ' ' + marks[t]; } else if (prefix.length && next[t]) { cls += ' next'; }
        hit.setAttribute('class', cls);
      });
      if (done || wrong) { return; }
      order.forEach(function (t) {
        if (prefix.length === 0 && board[t]) { return; }
        var label = (data.labels && data.labels[t]) || t;
        button(label, function () { pick(t); }, 'choice').setAttribute('data-t', t);
      });
      if (finish !== null) {
        button('play ' + finish, function () { submit(finish); }, 'choice finish');
      }
      if (prefix.length) {
        button('clear', function () { prefix = []; refresh(); say('Selection cleared.'); }, 'choice');
      }
    }

    function matching(path) {
      return step().moves.filter(function (entry) {
        for (var k = 0; k < path.length; k += 1) {
          if (entry[1][k] !== path[k]) { return false; }
        }
        return true;
      });
    }

    function pick(t) {
      if (done || wrong) { return; }
      var left = matching(prefix.concat([t]));
      if (left.length) {
        prefix = prefix.concat([t]);
      } else {
        left = matching([t]);
        if (!left.length) {
          say('No legal move ' + (prefix.length ? 'goes on with ' : 'starts with ') + t + '.', 'bad');
          refresh();
          return;
        }
        prefix = [t];
      }
      var exact = left.filter(function (e) { return e[1].length === prefix.length; });
      if (exact.length && left.length === exact.length) { submit(exact[0][0]); return; }
      say('Selected ' + prefix.join(' ') + ': choose how the move goes on.');
      refresh();
    }

    function record() {
      var progress = load();
      if (data.id && !progress.solved[data.id]) {
        progress.solved[data.id] = isoDay(new Date());
        save(progress);
      }
      var p = byId('progress');
      if (p) { p.textContent = progressText(progress); }
    }

    function submit(text) {
      prefix = [];
      var entry = null;
      step().moves.forEach(function (e) { if (e[0] === text) { entry = e; } });
      if (!entry) {
        say(text + ' is not a legal move here (moves are written like ' + step().moves[0][0] + ').', 'bad');
        refresh();
        return;
      }
      if (step().answers.indexOf(text) < 0) {
        wrong = { text: text, path: entry[1] };
        missed = true;
        var lost = rateAttempt(data.id, data.rating, false);
        if (lost !== null) { showRating(lost); }
        var extra = '';
        if (data.objective === 'score' && data.values && text in data.values) {
          var v = data.values[text];
          extra = ' (it secures ' + (v > 0 ? '+' : '') + v + ', the best turn ' +
            (data.score > 0 ? '+' : '') + data.score + ')';
          say(text + ' is not the best turn' + extra + '. Take it back and try again.', 'bad');
        } else {
          say(text + ' is not the winning move. Take it back and try again.', 'bad');
        }
        takeBack.hidden = false;
        takeBack.focus();
        refresh();
        return;
      }
      var current = step();
      show(current.frame + 1);
      if (current.reply === null || stepIndex + 1 >= data.steps.length) {
        finishPuzzle(text);
        return;
      }
      stepIndex += 1;
      say(text + ' is right. The defence: ' + current.reply + '. Your move.', 'good');
      show(step().frame);
      refresh();
    }

    function finishPuzzle(text) {
      done = true;
      if (data.objective === 'score') {
        say('Solved! ' + text + ' is the best turn: it secures ' + (data.score > 0 ? '+' : '') +
          data.score + '. The rest of the best line: ' + data.line.slice(1).join(' ') + '.', 'good solved');
      } else {
        say('Solved! ' + text + ' wins. The whole line: ' + data.line.join(' ') + '.', 'good solved');
      }
      typed.disabled = true;
      record();
      if (!missed) {
        var won = rateAttempt(data.id, data.rating, true);
        if (won !== null) { showRating(won); }
      }
      refresh();
    }

    takeBack.addEventListener('click', function () {
      wrong = null;
      takeBack.hidden = true;
      say('Taken back. Your move.');
      refresh();
    });

    frames.forEach(function (frame) {
      frame.addEventListener('click', function (event) {
        var t = event.target.getAttribute && event.target.getAttribute('data-t');
        if (t && frames[step().frame] === frame) { pick(t); }
      });
      frame.addEventListener('keydown', function (event) {
        var t = event.target.getAttribute && event.target.getAttribute('data-t');
        if (t && (event.key === 'Enter' || event.key === ' ')) {
          event.preventDefault();
          if (frames[step().frame] === frame) { pick(t); }
        }
      });
    });

    byId('typed-form').addEventListener('submit', function (event) {
      event.preventDefault();
      var text = typed.value.trim();
      if (!text || done) { return; }
      if (wrong) { say('Take back the wrong move first.', 'bad'); return; }
      typed.value = '';
      submit(text);
    });

    var copy = byId('copy-position');
    if (copy) {
      copy.addEventListener('click', function () {
        var field = byId('position-text');
        field.select();
        var text = field.value;
        var done = function () { say('Position copied: ' + text); };
        try {
          if (navigator.clipboard && navigator.clipboard.writeText) {
            navigator.clipboard.writeText(text).then(done, function () { say('Select the position and copy it.'); });
          } else { say('Select the position and copy it.'); }
        } catch (e) { say('Select the position and copy it.'); }
      });
    }

    var progress = load();
    var p = byId('progress');
    if (p) { p.textContent = progressText(progress); }
    if (data.id && progress.solved[data.id]) {
      var note = byId('already');
      if (note) { note.textContent = 'You have solved this puzzle before (' + progress.solved[data.id] + ').'; }
    }
    showRating();
    show(step().frame);
    say('Your move: click the board or type the move.');
    refresh();
  }

  // ---------------------------------------------------------------- archive
  function archivePage(table) {
    var progress = load();
    var rows = Array.prototype.slice.call(table.querySelectorAll('tbody tr'));
    var selects = Array.prototype.slice.call(document.querySelectorAll('select[data-filter]'));
    var unsolved = byId('filter-unsolved');
    var count = byId('shown');
    rows.forEach(function (row) {
      var cell = row.querySelector('.done');
      if (progress.solved[row.getAttribute('data-id')]) {
        row.classList.add('is-solved');
        if (cell) { cell.textContent = 'solved'; }
      }
    });
    function apply() {
      var shown = 0;
      rows.forEach(function (row) {
        var ok = selects.every(function (s) {
          var values = (row.getAttribute('data-' + s.getAttribute('data-filter')) || '').split('|');
          return !s.value || values.indexOf(s.value) >= 0;
        });
        if (ok && unsolved && unsolved.checked && row.classList.contains('is-solved')) { ok = false; }
        row.hidden = !ok;
        if (ok) { shown += 1; }
      });
      if (count) { count.textContent = shown + ' of ' + rows.length + ' puzzles shown.'; }
    }
    var query = {};
    try {
      new URLSearchParams(window.location.search).forEach(function (v, k) { query[k] = v; });
    } catch (e) { /* no query */ }
    selects.forEach(function (s) {
      var wanted = query[s.getAttribute('data-filter')];
      if (wanted !== undefined && Array.prototype.some.call(s.options, function (o) { return o.value === wanted; })) {
        s.value = wanted;
      }
      s.addEventListener('change', apply);
    });
    if (unsolved) { unsolved.addEventListener('change', apply); }
    var p = byId('progress');
    if (p) { p.textContent = progressText(progress); }
    showRating();
    apply();
  }

  var source = byId('puzzle-data');
  if (source) { puzzlePage(source); }
  var archive = byId('archive');
  if (archive) { archivePage(archive); }
}());
