"""The engine from Python against the CLI: answers, explanations, errors, sessions, batch."""

import json

import pytest

import kibitzer
from conftest import without_micros

STUD_EXAMPLE = {"hand": "8S 10D 10S 8H 8C", "opponent": "XX 3C 5D 4H 6H"}

# The README's seed examples: (rule set, inputs, parameters).
SEED_QUERIES = [
    ("stud", STUD_EXAMPLE, {}),
    ("stud", {"hand": "8S 10D 10S 8H 8C"}, {}),
    ("stud", {"hand": "AS KS", "opponent": "XX QH JD", "opponent2": "XX 2C"}, {"samples": "2000"}),
    ("durak", {"hand": "AS 9D 7C 7H KC 6D", "trump": "D", "stock": "12", "hands": "6,6,5"}, {}),
    ("durak", {"hand": "AS 9D 7C 7H KC 6D", "trump": "D", "stock": "12", "hands": "6,6", "role": "attack"}, {}),
    ("durak", {"hand": "10S 8D KH", "trump": "S", "stock": "0", "hands": "3,3", "role": "defend", "table": "7S/9S 7D"}, {}),
    ("mahjong", {"hand": "1122334m EEESSS"}, {}),
    ("mahjong-reference", {"hand": "1122334m EEESSS"}, {}),
    ("rummy", {"hand": "2H3H4H5H4H5H6H3C3C3D3D4D"}, {}),
    ("doudizhu", {"me": "3 3 4 4 5 5", "enemy": "6 7"}, {}),
]


def cli_args(inputs, params):
    args = [f"{k}={v}" for k, v in inputs.items()]
    for k, v in params.items():
        args += ["--param", f"{k}={v}"]
    return args


@pytest.mark.parametrize("ruleset,inputs,params", SEED_QUERIES)
def test_answers_equal_the_cli_json(cli, ruleset, inputs, params):
    mine = kibitzer.ask(ruleset, params=params or None, explain="full", **inputs)
    theirs = cli.ask_json(ruleset, *cli_args(inputs, params))
    assert without_micros(mine) == without_micros(theirs)


def test_the_stud_example_with_its_explanation():
    a = kibitzer.ask("stud", **STUD_EXAMPLE)
    by = {c["relation"]: c for c in a["conclusions"]}
    assert by["category"]["args"] == [3, "full house"]
    assert by["odds"]["args"] == [43, 0, 0, 1.0]
    assert by["advice"]["args"] == ["bet big"]
    e = by["advice"]["explanation"]
    assert e["rule"] == "Rule16" and e["because"] == "equity 1.0000 (43 wins, 0 ties, 0 losses) is above bet_big_above 0.7; a plain bet needs only above 0.5"
    assert "premises" not in e  # "short": the concluding rule only
    assert a["stop"] == "quiescent" and a["stats"]["fired"] == 96


def test_text_explanations_are_what_ask_prints(cli):
    a = kibitzer.ask("stud", explain="text", **STUD_EXAMPLE)
    printed = cli.run("ask", "stud", *cli_args(STUD_EXAMPLE, {})).stdout
    text = "".join(c["explanation"] for c in a["conclusions"])
    # The player's view is the whole output: the run's figures follow only the derivation or the trace.
    assert printed == text


def test_no_explanation_and_inputs_as_lists_and_numbers():
    a = kibitzer.ask("durak", explain=None, hand=["AS", "9D", "7C"], trump="D", stock=12, hands=[3, 6, 5])
    assert all("explanation" not in c for c in a["conclusions"])
    b = kibitzer.ask("durak", explain=None, hand="AS 9D 7C", trump="D", stock="12", hands="3 6 5")
    assert without_micros(a) == without_micros(b)


def test_trace_and_why_not_as_the_cli(cli):
    mine = kibitzer.ask("stud", explain="full", trace=True, why_not=["Rule1"], hand="8S 10D 10S 8H 8C")
    theirs = cli.ask_json("stud", "hand=8S 10D 10S 8H 8C", "--trace", "--why-not", "Rule1")
    assert without_micros(mine) == without_micros(theirs)


# ---- errors ------------------------------------------------------------------------------------

ERRORS = [
    (kibitzer.BadInput, ("nosuch",), {"hand": "8S"}),
    (kibitzer.BadInput, ("stud",), {"hand": "8S 10D 10S 8H 1X"}),
    (kibitzer.BadInput, ("stud",), {"hand": "8S 8S"}),
    (kibitzer.BadInput, ("stud",), {"hand": "8S", "colour": "red"}),
    (kibitzer.BadInput, ("stud",), {"opponent": "XX 3C"}),
    (kibitzer.BadInput, ("durak",), {"hand": "AS", "trump": "X"}),
]


@pytest.mark.parametrize("kind,args,inputs", ERRORS)
def test_errors_are_exceptions_with_the_cli_message(cli, kind, args, inputs):
    with pytest.raises(kind) as caught:
        kibitzer.ask(*args, **inputs)
    assert isinstance(caught.value, kibitzer.KibitzerError)
    assert str(caught.value) == cli.error("ask", *args, *cli_args(inputs, {}))


def test_a_bad_parameter(cli):
    with pytest.raises(kibitzer.BadInput) as caught:
        kibitzer.ask("stud", params={"bet_big_above": "lots"}, hand="8S")
    assert str(caught.value) == cli.error("ask", "stud", "hand=8S", "--param", "bet_big_above=lots")


def test_a_bad_rule_file_is_bad_rules_with_located_diagnostics(cli, tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text('ruleset bad "x"\ninput n: int\noutput out\nrule R when n(?n) and nosuch(?n) then assert out(?n) end\n')
    with pytest.raises(kibitzer.BadRules) as caught:
        kibitzer.ask(str(bad), n=1)
    out = cli.run("ask", str(bad), "n=1")
    assert out.returncode == 2
    assert str(caught.value) == out.stderr.strip()
    d = caught.value.diagnostics[0]
    assert (d["file"], d["line"], d["severity"]) == (str(bad), 4, "error")
    found = kibitzer.check(str(bad))
    assert found and found[0].line == 4 and found[0].col > 1 and found[0].severity == "error"
    assert str(found[0]) == d["rendered"]


def test_a_runaway_run_is_a_budget_error(cli, root):
    spin = str(root / "tests/fixtures/cli/spin.rules")
    with pytest.raises(kibitzer.BudgetExceeded) as caught:
        kibitzer.ask(spin, max_firings=1000, n=1)
    said = cli.error("ask", spin, "n=1", "--max-firings", "1000")
    # The CLI's line, naming the keyword argument where the CLI names its option.
    assert "--max-firings" in said
    assert str(caught.value) == said.replace("--max-firings", "max_firings=")
    assert "--" not in str(caught.value)


def test_why_not_takes_one_name_or_a_list():
    hand = "8S 10D 10S 8H 8C"
    one = kibitzer.ask("stud", hand=hand, why_not="Rule1")["why_not"]
    listed = kibitzer.ask("stud", hand=hand, why_not=["Rule1"])["why_not"]
    assert one == listed and one[0]["rule"] == "Rule1"
    two = kibitzer.ask("stud", hand=hand, why_not=["Rule1", "Rule2"])["why_not"]
    assert [w["rule"] for w in two] == ["Rule1", "Rule2"]
    with pytest.raises(TypeError, match="why_not takes a rule name"):
        kibitzer.ask("stud", hand=hand, why_not=3)


def test_batch_reports_progress_and_streams_as_an_iterator():
    rows = [{"hand": "8S TD TS 8H 8C"}, {"hand": "2S 3D 4S 5H 6C"}, {"hand": "ZZ"}] * 5
    seen = []
    answers = kibitzer.batch("stud", rows, explain=False, progress=lambda done, total: seen.append((done, total)))
    assert seen[0] == (0, 15) and seen[-1] == (15, 15)
    assert all(a[0] <= b[0] for a, b in zip(seen, seen[1:]))
    # The iterator form: the same answers in the same order, taken from a generator lazily.
    taken = []

    def rows_made():
        for r in rows:
            taken.append(r)
            yield r

    def timeless(answers):
        return [{k: v for k, v in a.items() if k != "stats"} for a in answers]

    it = kibitzer.batch_iter("stud", rows_made(), explain=False, chunk=4)
    first = next(it)
    assert len(taken) == 4, "the iterator reads only its first chunk before its first answer"
    assert timeless([first, *it]) == timeless(answers)
    steps = []
    list(kibitzer.batch_iter("stud", rows, explain=False, chunk=4, progress=lambda d, t: steps.append((d, t))))
    assert steps[-1] == (15, 15) and (4, 15) in steps
    # A callback that raises stops the batch with its exception.

    def fail(done, total):
        if done:
            raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        kibitzer.batch("stud", rows * 20, explain=False, progress=fail)


def test_a_timeout_gives_the_partial_answer(root):
    spin = str(root / "tests/fixtures/cli/spin.rules")
    a = kibitzer.ask(spin, max_firings=10**12, timeout=0.05, n=1)
    assert a["stop"] == "timeout"
    assert a["conclusions"][0]["args"] == ["small", 1]


def test_check_the_shipped_rules_and_a_missing_folder(root, tmp_path):
    problems = kibitzer.check(str(root / "rules"))
    assert not [p for p in problems if p.severity == "error"]
    with pytest.raises(kibitzer.BadInput):
        kibitzer.check(str(tmp_path))
    missing = kibitzer.check(str(tmp_path / "gone.rules"))
    assert missing[0].severity == "error" and missing[0].line == 0


def test_rulesets():
    assert {"stud", "durak", "mahjong", "mahjong_reference", "rummy", "doudizhu"} <= set(kibitzer.rulesets())


# ---- Session -----------------------------------------------------------------------------------


def test_a_session_loop_answers_as_ask():
    s = kibitzer.Session("stud")
    assert s.ruleset == "stud" and "hand" in s.inputs and "advice" in s.outputs
    hands = ["8S TD TS 8H 8C", "AS KS QS JS TS", "2C 3D 5H 7S 9C", "4H 4D 9S 9C KD"]
    categories = []
    for h in hands:
        s.reset()
        s.set(hand=h)
        assert s.run() == "quiescent"
        categories.append(s.first("category"))
        assert s.conclusions(explain="full") == kibitzer.ask("stud", explain="full", hand=h)["conclusions"]
    assert categories == [[3, "full house"], [1, "straight flush"], [9, "high card"], [7, "two pair"]]
    assert s.stats["fired"] >= 1
    assert s.explain(relation="category")["rule"] == "Rule7"
    assert s.why_not("Rule1")["fired"] == 0


def test_session_parameters_hold_until_changed():
    s = kibitzer.Session("stud", params={"bet_big_above": 0.95})
    assert s.params["bet_big_above"] == 0.95
    s.set(hand="8S TD TS 8H 8C", opponent="XX 3C 5D 4H 6H")
    s.run()
    assert s.first("advice") == ["bet big"]
    s.set_param("bet_big_above", 1.0)
    s.run()
    assert s.first("advice") != ["bet big"]
    with pytest.raises(kibitzer.BadInput):
        s.set(nonsense="1")


# ---- batch -------------------------------------------------------------------------------------


def batch_lines():
    rows = [
        {"hand": "8S TD TS 8H 8C", "opponent": "XX 3C 5D 4H 6H"},
        {"hand": "AS KS QS JS TS"},
        {"hand": "8S TD TS 8H 1X"},
        {"hand": ["2C", "3D", "5H", "7S", "9C"]},
        {"hand": "8S TD TS 8H 8C", "opponent": "XX 3C 5D 4H 6H", "params": {"bet_big_above": 0.99}},
        {"hand": "4H 4D 9S 9C KD", "params": "nope"},
    ]
    lines = [json.dumps(r) for r in rows] + ["", "not json", "[1, 2]"]
    return rows, lines


def test_batch_equals_the_cli_batch(cli):
    rows, lines = batch_lines()
    out = cli.run("batch", "stud", stdin="\n".join(lines) + "\n")
    theirs = [without_micros(json.loads(line)) for line in out.stdout.splitlines()]
    assert len(theirs) == len(lines)
    from_lines = [without_micros(a) for a in kibitzer.batch("stud", lines)]
    assert from_lines == theirs
    from_dicts = [without_micros(a) for a in kibitzer.batch("stud", rows)]
    assert from_dicts == theirs[: len(rows)]
    assert "error" in from_dicts[2] and "error" in from_dicts[5]
    as_text = kibitzer.batch("stud", lines, as_json=True)
    assert [without_micros(json.loads(t)) for t in as_text] == theirs


def test_batch_without_explanations_as_no_explain(cli):
    lines = [json.dumps({"hand": h}) for h in ["8S TD TS 8H 8C", "AS KS QS JS TS"] * 50]
    out = cli.run("batch", "stud", "--no-explain", stdin="\n".join(lines) + "\n")
    theirs = [without_micros(json.loads(line)) for line in out.stdout.splitlines()]
    assert [without_micros(a) for a in kibitzer.batch("stud", lines, explain=False)] == theirs


def test_the_readme_python_example_runs_as_shown(root, capsys):
    text = (root / "README.md").read_text()
    block = text.split("## From Python", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    scope = {}
    exec(compile(block, "README.md", "exec"), scope)
    assert "['bet big'] equity 1.0000 (43 wins, 0 ties, 0 losses) is above bet_big_above 0.7; a plain bet needs only above 0.5" in capsys.readouterr().out
    assert kibitzer.stud_equity("8S TD TS 8H 8C", "XX 3C 5D 4H 6H")["p_win"] == 1.0
    result = scope["envs"].play(scope["envs"].DurakEnv(), [scope["agents"].rules("durak"), scope["agents"].random(seed=1)], seed=7)
    assert result["durak"] in (0, 1, None) and sum(result["rewards"]) == 0
