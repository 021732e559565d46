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
          return !s.value || row.getAttribute('data-' + s.getAttribute('data-filter')) === s.value;
        });
        if (ok && unsolved && unsolved.checked && row.classList.contains('is-solved')) { ok = false; }
        row.hidden = !ok;
        if (ok) { shown += 1; }
      });
      if (count) { count.textContent = shown + ' of ' + rows.length + ' puzzles shown.'; }
    }
    selects.forEach(function (s) { s.addEventListener('change', apply); });
    if (unsolved) { unsolved.addEventListener('change', apply); }
    var p = byId('progress');
    if (p) { p.textContent = progressText(progress); }
    apply();
  }

  var source = byId('puzzle-data');
  if (source) { puzzlePage(source); }
  var archive = byId('archive');
  if (archive) { archivePage(archive); }
}());
