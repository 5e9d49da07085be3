"""The native searches as functions, against the CLI's answers for the same positions."""

import pytest

import kibitzer


def concluded(answer, relation):
    return [c["args"] for c in answer["conclusions"] if c["relation"] == relation]


@pytest.mark.parametrize(
    "hand,opponents,dead",
    [
        ("8S 10D 10S 8H 8C", ["XX 3C 5D 4H 6H"], ""),
        ("AS KS", ["XX QH JD"], ""),
        ("7C 7D 2H", ["XX KD QD", "XX 5S 5H"], "9C"),
        ("2C 3D", ["XX", "XX", "XX"], ""),
    ],
)
def test_stud_equity_against_the_rules_native_path(cli, hand, opponents, dead):
    mine = kibitzer.stud_equity(hand, opponents, dead, samples=20000)
    args = [f"hand={hand}", "--param", "odds_path=native", "--param", "samples=20000"]
    for i, o in enumerate(opponents):
        args.append(f"opponent{'' if i == 0 else i + 1}={o}")
    if dead:
        args.append(f"dead={dead}")
    theirs = concluded(cli.ask_json("stud", *args), "odds")[0]
    assert [mine["wins"], mine["ties"], mine["losses"]] == theirs[:3]
    assert mine["p_win"] == pytest.approx(theirs[3], abs=1e-9)
    assert mine["wins"] + mine["ties"] + mine["losses"] == mine["total"]


def test_stud_equity_seed_and_describe():
    odds = kibitzer.stud_equity("8S TD TS 8H 8C", "XX 3C 5D 4H 6H")
    assert odds["exact"] and odds["total"] == 43 and odds["p_win"] == 1.0
    d = kibitzer.stud_describe(["8S", "TD", "TS", "8H", "8C"])
    assert d["name"] == "full house" and d["category"] == 3
    with pytest.raises(kibitzer.BadInput):
        kibitzer.stud_equity("8S 8S", "XX")
    with pytest.raises(kibitzer.BadInput):
        kibitzer.stud_equity("8S", [])


@pytest.mark.parametrize(
    "me,enemy,last",
    [
        ("3 3 4 5 6 7 8", "9 9", ""),
        ("3 3 4 4 5 5", "6 7", ""),
        ("3 4 5 6 7 9 9", "8 8 J", ""),
        ("K K 2", "A A 3", "Q Q"),
    ],
)
def test_doudizhu_solve_against_the_rules(cli, me, enemy, last):
    mine = kibitzer.doudizhu_solve(me, enemy, last)
    args = [f"me={me}", f"enemy={enemy}"] + ([f"last={last}"] if last else [])
    a = cli.ask_json("doudizhu", *args)
    assert [mine["outcome"]] == concluded(a, "outcome")[0]
    assert [mine["play"], mine["kind"]] == concluded(a, "play")[0]
    assert [mine["line"]] == concluded(a, "line")[0]
    assert mine["nodes"] >= 1


def test_doudizhu_budget_and_errors():
    cut = kibitzer.doudizhu_solve("3 3 4 5 7 7 9 J Q K 2", "4 4 6 8 8 T J A A 2", max_nodes=10)
    assert cut["outcome"] == "unknown" and cut["play"] is None and cut["line"] == []
    with pytest.raises(kibitzer.BadInput):
        kibitzer.doudizhu_solve("3 3 X", "4")
    with pytest.raises(kibitzer.BadInput):
        kibitzer.doudizhu_solve("3 3", "4", variant="house")


@pytest.mark.parametrize(
    "hand,visible",
    [
        ("1122334m EEESSS", ""),
        ("123m456m789m EE SS", ""),
        ("1112345678999m", ""),
        ("1357m 2468m EESSW", "EW"),
        ("147m 258m EESWNPF", ""),
    ],
)
def test_mahjong_against_the_rules(cli, hand, visible):
    mine = kibitzer.mahjong_analyse(hand, visible=visible)
    a = cli.ask_json("mahjong", f"hand={hand}", *([f"visible={visible}"] if visible else []))
    assert [mine["shanten"]] == concluded(a, "shanten")[0]
    waits = concluded(a, "waits")
    if mine["shanten"] == 0:
        assert waits[0] == [[w["tile"] for w in mine["waits"]], sum(w["live"] for w in mine["waits"])]
    useful = concluded(a, "useful")
    if useful:
        assert useful[0] == [[u["tile"] for u in mine["useful"]], sum(u["live"] for u in mine["useful"])]
    assert kibitzer.mahjong_shanten(hand) == mine["shanten"]


def test_mahjong_drawn_hand_and_errors():
    won = kibitzer.mahjong_analyse("123m456m789m EEE SS")
    assert won["drawn"] and won["win"] == "standard" and won["shanten"] == -1
    assert {d["tile"] for d in won["discards"]} == {"1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "E", "S"}
    with pytest.raises(kibitzer.BadInput):
        kibitzer.mahjong_analyse("11111m")


@pytest.mark.parametrize(
    "hand",
    ["2H 3H 4H 5H 7S 7D 7C 9D KD", "2H3H4H5H4H5H6H3C3C3D3D4D", "AS 2S 3S 4S KH KD KC QS", "5C 9H JD"],
)
def test_rummy_against_the_rules(cli, hand):
    mine = kibitzer.rummy_evaluate(hand)
    a = cli.ask_json("rummy", f"hand={hand}")
    assert [mine["min_deadwood_cards"], mine["min_deadwood_points"]] == concluded(a, "deadwood")[0]
    assert [mine["arrangements"]] == concluded(a, "arrangements")[0]
    best = concluded(a, "best")[0]
    assert [mine["best"]["melds"], mine["best"]["dump"]] == best


def test_rummy_options():
    plain = kibitzer.rummy_evaluate("QH KH AH 5C")
    high = kibitzer.rummy_evaluate("QH KH AH 5C", ace_high=True)
    assert plain["min_deadwood_cards"] == 4 and high["min_deadwood_cards"] == 1
    wild = kibitzer.rummy_evaluate("4S 5S 2D 9C", wild="2")
    assert wild["min_deadwood_cards"] == 1
    with pytest.raises(kibitzer.BadInput):
        kibitzer.rummy_evaluate("4S 5S", wild="Z")


@pytest.mark.parametrize(
    "hand,trump,stock,hands",
    [
        ("6S 7S KH AD 9C", "H", 10, "5 6"),
        ("AS 9D 7C 7H KC 6D", "D", 12, "6,6,5"),
        ("", "S", 0, "0 3"),
        ("7S 7D 7C 7H", "C", 0, "4 1"),
    ],
)
def test_durak_hand_value_against_the_rules(cli, hand, trump, stock, hands):
    mine = kibitzer.durak_hand_value(hand, trump, stock, hands)
    a = cli.ask_json("durak", f"hand={hand}", f"trump={trump}", f"stock={stock}", f"hands={hands}")
    assert [mine["total"]] == concluded(a, "hand_value")[0]
    assert sum(t["value"] for t in mine["terms"]) == mine["total"]


def test_durak_value_parameters():
    base = kibitzer.durak_hand_value("6S 7S KH", "H", 10, [3, 6])
    more = kibitzer.durak_hand_value("6S 7S KH", "H", 10, [3, 6], params={"trump_bonus": 2300})
    assert more["total"] == base["total"] + 1000
    with pytest.raises(kibitzer.BadInput):
        kibitzer.durak_hand_value("6S", "H", params={"nonsense": 1})
