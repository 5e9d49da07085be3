// The TextMate grammar tokenized with vscode-textmate (the engine VS Code runs): every rule file of
// the repository, and the scopes of keywords, names, variables, strings, templates, comments and
// numbers asserted on examples/pocket.rules.
const test = require("node:test");
const assert = require("node:assert");
const fs = require("node:fs");
const path = require("node:path");
const { execFileSync } = require("node:child_process");
const oniguruma = require("vscode-oniguruma");
const vsctm = require("vscode-textmate");

const here = __dirname;
const repo = path.resolve(here, "../../..");

async function grammar() {
  const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer;
  await oniguruma.loadWASM(wasm);
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async () => {
      const file = path.join(here, "../syntaxes/kibitzer.tmLanguage.json");
      return vsctm.parseRawGrammar(fs.readFileSync(file, "utf8"), file);
    },
  });
  return registry.loadGrammar("source.kibitzer");
}

/// Each line's tokens as [text, scopes].
function tokenize(g, text) {
  let stack = vsctm.INITIAL;
  return text.split("\n").map((line) => {
    const r = g.tokenizeLine(line, stack);
    stack = r.ruleStack;
    return r.tokens.map((t) => [line.slice(t.startIndex, t.endIndex), t.scopes]);
  });
}

/// The scopes of the first token that is `text` on a line containing `context`.
function scopesOf(lines, source, context, text) {
  const at = source.split("\n").findIndex((l) => l.includes(context));
  assert.ok(at >= 0, `no line contains ${context}`);
  const token = lines[at].find(([t]) => t === text);
  assert.ok(token, `no token ${JSON.stringify(text)} on line ${at + 1}: ${JSON.stringify(lines[at])}`);
  return token[1].join(" ");
}

function ruleFiles() {
  const listed = execFileSync("git", ["-C", repo, "ls-files", "*.rules"], { encoding: "utf8" });
  return listed.split("\n").filter((f) => f && fs.existsSync(path.join(repo, f)));
}

test("pocket.rules: keywords, names, variables, strings, templates, comments, numbers", async () => {
  const g = await grammar();
  const source = fs.readFileSync(path.join(repo, "examples/pocket.rules"), "utf8");
  const lines = tokenize(g, source);
  const has = (context, text, scope) =>
    assert.match(scopesOf(lines, source, context, text), new RegExp(scope.replace(/\./g, "\\.")), `${text} in ${context}`);
  has("# A small complete", "# A small complete rule set: the groups of equal ranks in a hand, and whether to keep it.", "comment.line.number-sign");
  has("ruleset pocket", "ruleset", "storage.type.declaration");
  has("ruleset pocket", "pocket", "entity.name.type");
  has("rule Trips", "rule", "storage.type.rule");
  has("rule Trips", "Trips", "entity.name.function.rule");
  has("rule Trips", "20", "constant.numeric");
  has("rule Trips", "salience", "keyword.control");
  has("rule Trips", "\"", "string.quoted.double");
  has("rule Drop", "-10", "constant.numeric");
  has("?r = rank_held(?h, 3)", "?r", "variable.other");
  has("?r = rank_held(?h, 3)", "rank_held", "entity.name.function.call");
  has("?r = rank_held(?h, 3)", "3", "constant.numeric");
  has("assert holds(\"trips\", ?r)", "assert", "keyword.other.action");
  has("because \"three {?r:ranks}\"", "because", "keyword.control.section");
  has("because \"three {?r:ranks}\"", "?r", "variable.other.template");
  has("?best = max ?r", "max", "keyword.other.aggregate");
  has("?best >= keep_from", ">=", "keyword.operator");
  has("not keep(_)", "not", "keyword.control");
  has("not keep(_)", "_", "variable.language.wildcard");
  has("assert keep(true)", "true", "constant.language.boolean");
  for (const word of ["when", "then", "end"]) has(`${word}`, word, "keyword.control.section");
});

test("follow.rules: assert logical", async () => {
  const g = await grammar();
  const source = fs.readFileSync(path.join(repo, "examples/follow.rules"), "utf8");
  const lines = tokenize(g, source);
  assert.match(scopesOf(lines, source, "assert logical left", " logical"), /keyword\.other\.action/);
  assert.match(scopesOf(lines, source, "assert logical left", "left"), /entity\.name\.function\.call/);
});

test("every rule file tokenizes; its variables, comments and strings are scoped so", async () => {
  const g = await grammar();
  const files = ruleFiles();
  assert.ok(files.length > 20, `${files.length} rule files`);
  for (const f of files) {
    const lines = tokenize(g, fs.readFileSync(path.join(repo, f), "utf8"));
    lines.forEach((tokens, i) => {
      for (const [text, scopes] of tokens) {
        const s = scopes.join(" ");
        const where = `${f}:${i + 1}: ${JSON.stringify(text)} (${s})`;
        if (s.includes("comment") || s.includes("string")) continue;
        if (/^\?[A-Za-z0-9_]+$/.test(text)) assert.match(s, /variable\.other/, where);
        if (/^#/.test(text)) assert.fail(`a comment not scoped as one: ${where}`);
        if (/^\d+$/.test(text)) assert.match(s, /constant\.numeric/, where);
      }
    });
  }
});
