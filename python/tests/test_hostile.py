"""Hostile calls into the binding: rows that contain themselves or nest without end, limits past
what a search can take, objects used from another thread. Each ends in a `KibitzerError`, never
in a crash or PyO3's `PanicException`."""

import threading

import pytest

import kibitzer

STUD = {"hand": "8S 10D 10S 8H 8C", "opponent": "XX 3C 5D 4H 6H"}


def test_internal_error_is_a_kibitzer_error():
    assert issubclass(kibitzer.InternalError, kibitzer.KibitzerError)
    assert "InternalError" in kibitzer.__all__


def test_a_row_that_contains_itself_is_a_bad_input():
    row = dict(STUD)
    row["self"] = row
    with pytest.raises(kibitzer.BadInput, match="contains itself"):
        kibitzer.batch("stud", [row])
    loop = []
    loop.append(loop)
    with pytest.raises(kibitzer.BadInput, match="contains itself"):
        kibitzer.batch("stud", [{"hand": loop}])


def test_a_row_nested_thirty_thousand_deep_is_a_bad_input():
    deep = "8S"
    for _ in range(30_000):
        deep = [deep]
    with pytest.raises(kibitzer.BadInput, match="nests dicts and lists more than"):
        kibitzer.batch("stud", [{"hand": deep}])
    deep_dict = {}
    for _ in range(30_000):
        deep_dict = {"x": deep_dict}
    with pytest.raises(kibitzer.BadInput, match="nests dicts and lists more than"):
        kibitzer.batch("stud", [deep_dict])


def test_a_row_as_deep_as_a_value_may_nest_is_answered():
    value = 1
    for _ in range(30):
        value = [value]
    answers = kibitzer.batch("stud", [dict(STUD, extra=value)], explain=False)
    assert len(answers) == 1


@pytest.mark.parametrize("limit", [1e308, float("inf"), float("nan"), -1.0, 0.0, 86_401.0])
def test_a_time_limit_out_of_range_is_a_bad_input(limit):
    with pytest.raises(kibitzer.BadInput, match="time_limit"):
        kibitzer.doudizhu_solve("3 3 4 5 6 7 8", "9 9", time_limit=limit)


def test_a_session_used_from_another_thread_is_a_kibitzer_error():
    s = kibitzer.Session("stud")
    s.set(**STUD)
    caught = []

    def use():
        try:
            s.run()
        except BaseException as e:  # noqa: BLE001 - PanicException is a BaseException
            caught.append(e)

    t = threading.Thread(target=use)
    t.start()
    t.join()
    assert len(caught) == 1 and isinstance(caught[0], kibitzer.BadInput), caught
    assert "thread" in str(caught[0])
    # The session still works on its own thread, and one made on another thread works there.
    assert s.run() == "quiescent"
    made = []
    t = threading.Thread(target=lambda: made.append(kibitzer.Session("stud").ruleset))
    t.start()
    t.join()
    assert made == ["stud"]


def test_a_rules_agent_used_from_another_thread_is_a_kibitzer_error():
    agent = kibitzer._native.DurakRulesAgent()
    game = kibitzer.DurakGame(2, 36, False, 1000)
    game.reset(1)
    caught = []

    def use():
        try:
            agent.act(game)
        except BaseException as e:  # noqa: BLE001
            caught.append(e)

    t = threading.Thread(target=use)
    t.start()
    t.join()
    assert len(caught) == 1 and isinstance(caught[0], kibitzer.BadInput), caught
    assert agent.act(game) in game.legal_actions()
