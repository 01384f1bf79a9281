/* SkillNet SCORM 1.2 SCO: shows the quiz, keeps answers in cmi.suspend_data, reports the score. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("course-data").textContent);
  var words = data.words;

  function findAPI(win) {
    for (var hops = 0; win && hops < 10; hops++) {
      if (win.API) { return win.API; }
      if (!win.parent || win.parent === win) { break; }
      win = win.parent;
    }
    return null;
  }
  var api = findAPI(window) || (window.opener ? findAPI(window.opener) : null);
  var answers = {};
  if (api) {
    api.LMSInitialize("");
    try { answers = JSON.parse(api.LMSGetValue("cmi.suspend_data") || "{}"); } catch (e) { answers = {}; }
    var status = api.LMSGetValue("cmi.core.lesson_status");
    if (!status || status === "not attempted") { api.LMSSetValue("cmi.core.lesson_status", "incomplete"); }
    api.LMSCommit("");
    window.addEventListener("beforeunload", function () { api.LMSFinish(""); });
  }

  function save() {
    if (api) { api.LMSSetValue("cmi.suspend_data", JSON.stringify(answers).slice(0, 4096)); api.LMSCommit(""); }
  }
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }
  function plain(s) { return String(s).trim().toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, ""); }

  function choices(item, box, options) {
    options.forEach(function (option) {
      var label = el("label"), input = el("input", {type: "radio", name: item.id, value: String(option.value)});
      if (answers[item.id] === option.value) { input.checked = true; }
      input.addEventListener("change", function () { answers[item.id] = option.value; save(); });
      label.appendChild(input); label.appendChild(document.createTextNode(" " + option.text));
      box.appendChild(label); box.appendChild(el("br"));
    });
  }

  var render = {
    test: function (item, box) {
      choices(item, box, item.options.map(function (text, i) { return {text: text, value: i}; }));
    },
    true_false: function (item, box) {
      box.appendChild(el("p", {}, item.statement));
      choices(item, box, [{text: words["true"], value: true}, {text: words["false"], value: false}]);
    },
    fill_blank: function (item, box) {
      box.appendChild(el("p", {}, item.text));
      var input = el("input", {type: "text", name: item.id});
      input.value = answers[item.id] || "";
      input.addEventListener("input", function () { answers[item.id] = input.value; save(); });
      box.appendChild(input);
    },
    order_steps: function (item, box) {
      box.appendChild(el("p", {}, words.your_order));
      var order = answers[item.id] || {};
      item.steps.map(function (s, i) { return i; }).reverse().forEach(function (step) {
        var row = el("div"), select = el("select", {"data-step": String(step), name: item.id + "-" + step});
        select.appendChild(el("option", {value: ""}, "–"));
        item.steps.forEach(function (s, n) { select.appendChild(el("option", {value: String(n + 1)}, String(n + 1))); });
        select.value = order[step] ? String(order[step]) : "";
        select.addEventListener("change", function () {
          order[step] = Number(select.value) || null; answers[item.id] = order; save();
        });
        row.appendChild(select); row.appendChild(document.createTextNode(" " + item.steps[step]));
        box.appendChild(row);
      });
    },
    dialogue: function (item, box) {
      var state = answers[item.id] || {node: item.start, path: [], done: false};
      var area = el("div", {"class": "dialogue"});
      box.appendChild(area);
      function draw() {
        area.innerHTML = "";
        state.path.forEach(function (step) { area.appendChild(el("p", {"class": "dialogue-line"}, "→ " + step.text)); });
        if (state.done) {
          var restart = el("button", {type: "button"}, words.restart_dialogue);
          restart.addEventListener("click", function () { state = {node: item.start, path: [], done: false}; answers[item.id] = state; save(); draw(); });
          area.appendChild(restart);
          return;
        }
        var node = item.nodes[state.node];
        area.appendChild(el("p", {}, node.speaker + ": " + node.text));
        node.options.forEach(function (option, i) {
          var button = el("button", {type: "button", "data-correct": String(option.correct)}, option.text);
          button.addEventListener("click", function () {
            state.path.push({text: option.text, correct: option.correct});
            state.done = option.next === null || option.next === undefined;
            state.node = option.next; answers[item.id] = state; save(); draw();
          });
          area.appendChild(button);
        });
      }
      draw();
    },
    practical_case: function (item, box) {
      box.appendChild(el("p", {}, item.scenario));
      box.appendChild(el("textarea", {rows: "4", cols: "60", name: item.id}));
      var details = el("details"); details.appendChild(el("summary", {}, words.model_answer));
      details.appendChild(el("p", {}, item.model_answer)); box.appendChild(details);
      box.appendChild(el("p", {"class": "feedback"}, words.not_graded));
    }
  };

  var grade = {
    test: function (item, a) { return a === item.answer; },
    true_false: function (item, a) { return a === item.answer; },
    fill_blank: function (item, a) {
      return typeof a === "string" && item.answers.some(function (ok) { return plain(ok) === plain(a); });
    },
    order_steps: function (item, a) { return !!a && item.steps.every(function (s, i) { return a[i] === i + 1; }); },
    dialogue: function (item, a) { return !!a && a.done && a.path.every(function (step) { return step.correct; }); }
  };
  function answered(item) {
    var a = answers[item.id];
    if (item.type === "order_steps") { return !!a && item.steps.every(function (s, i) { return !!a[i]; }); }
    if (item.type === "dialogue") { return !!a && a.done; }
    return a !== undefined && a !== "";
  }

  var quiz = document.getElementById("quiz"), boxes = {};
  quiz.appendChild(el("h2", {}, words.quiz));
  data.quiz.forEach(function (item, n) {
    var box = el("div", {"class": "exercise", id: "ex-" + item.id, "data-type": item.type});
    box.appendChild(el("p", {}, (n + 1) + ". " + item.prompt));
    render[item.type](item, box);
    box.appendChild(el("p", {"class": "feedback"}));
    quiz.appendChild(box); boxes[item.id] = box;
  });
  var submit = el("button", {type: "button", id: "submit"}, words.submit), result = el("p", {id: "result"});
  quiz.appendChild(submit); quiz.appendChild(result);

  submit.addEventListener("click", function () {
    var graded = data.quiz.filter(function (item) { return item.graded; });
    if (!graded.every(answered)) { result.textContent = words.answer_all; return; }
    var right = 0;
    graded.forEach(function (item) {
      var ok = grade[item.type](item, answers[item.id]), box = boxes[item.id];
      right += ok ? 1 : 0;
      box.className = "exercise " + (ok ? "correct" : "wrong");
      box.querySelector(".feedback:last-child").textContent = (ok ? words.correct : words.wrong) + " " + item.explanation;
    });
    var score = graded.length ? Math.round(100 * right / graded.length) : 100;
    var passed = score >= data.mastery;
    result.textContent = (passed ? words.passed : words.failed) + " · " + words.score + " " + score;
    if (api) {
      api.LMSSetValue("cmi.core.score.min", "0");
      api.LMSSetValue("cmi.core.score.max", "100");
      api.LMSSetValue("cmi.core.score.raw", String(score));
      api.LMSSetValue("cmi.core.lesson_status", passed ? "passed" : "failed");
      save();
    }
  });
})();
