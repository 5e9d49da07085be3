"""Hostile calls into the binding: rows that contain themselves or nest without end, limits past
what a search can take, objects used from another thread. Each ends in a `KibitzerError`, never
in a crash or PyO3's `PanicException`. Long calls end at their `timeout=` and at Ctrl-C."""

import signal
import threading
import time

import pytest

import kibitzer
from conftest import ROOT

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


# ---- Ctrl-C and timeouts --------------------------------------------------------------------------

SPIN = str(ROOT / "tests" / "fixtures" / "cli" / "spin.rules")
# Both hands open, every budget at its largest: the solver would search for minutes.
BIG_ME = "3 3 4 5 6 7 8 9 10 J Q K A 2 2 BJ RJ"
BIG_ENEMY = "3 4 4 5 5 6 7 7 8 9 9 10 J Q K A A"


def _interrupted_within(call, after=0.3, within=0.5):
    """Sends SIGINT to this (the main) thread `after` seconds into `call`: the call must raise
    KeyboardInterrupt at most `within` seconds later."""
    main = threading.main_thread().ident
    timer = threading.Timer(after, lambda: signal.pthread_kill(main, signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
    finally:
        timer.cancel()
    took = time.monotonic() - start
    assert took < after + within, f"KeyboardInterrupt {took - after:.2f} s after the signal"


def test_ctrl_c_interrupts_a_long_ask():
    _interrupted_within(lambda: kibitzer.ask(SPIN, n=3, max_firings=10**15, explain=None))


def test_ctrl_c_interrupts_a_long_session_run():
    s = kibitzer.Session(SPIN, max_firings=10**15)
    s.set(n=3)
    _interrupted_within(s.run)
    # The session stays usable: the next run, with a timeout, ends on it.
    s2 = kibitzer.Session(SPIN, max_firings=10**15, timeout=0.2)
    s2.set(n=3)
    assert s2.run() == "timeout"


def test_ctrl_c_interrupts_a_long_batch():
    rows = [{"n": i} for i in range(8)]
    _interrupted_within(lambda: kibitzer.batch(SPIN, rows, explain=False, max_firings=10**15))


def test_ctrl_c_interrupts_a_long_native_search():
    _interrupted_within(
        lambda: kibitzer.doudizhu_solve(BIG_ME, BIG_ENEMY, max_nodes=10**11, line_nodes=10**11, table_mb=256)
    )


def test_ctrl_c_with_a_handler_that_does_not_raise_lets_the_call_finish():
    seen = []
    previous = signal.signal(signal.SIGINT, lambda *_: seen.append(1))
    try:
        main = threading.main_thread().ident
        timer = threading.Timer(0.2, lambda: signal.pthread_kill(main, signal.SIGINT))
        timer.start()
        answer = kibitzer.ask(SPIN, n=3, max_firings=10**15, explain=None, timeout=0.6)
        timer.cancel()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert seen == [1]
    assert answer["stop"] == "timeout"


def test_every_long_native_search_takes_a_timeout():
    start = time.monotonic()
    solved = kibitzer.doudizhu_solve(BIG_ME, BIG_ENEMY, max_nodes=10**11, line_nodes=10**11, timeout=0.3)
    # The win is proved at once; the line that measures it is what the timeout cuts.
    assert solved["timed_out"] and solved["outcome"] == "win" and not solved["line_measured"]
    odds = kibitzer.stud_equity(
        "8S TD TS", ["XX 3C 5D", "XX 4C 6D", "XX 9C", "XX 2H"], budget=0, samples=10**9, timeout=0.3
    )
    assert odds["timed_out"] and not odds["exact"]
    rummy = kibitzer.rummy_evaluate(
        "AH 2H 4H 5H 7H 8H TH JH KH AS 3S 4S 6S 7S 9S TS QS KS 2D 3D 7C JK", wild="7", node_budget=10**11, timeout=0.3
    )
    assert rummy["timed_out"] and not rummy["exact"]
    assert time.monotonic() - start < 3
    quick = kibitzer.rummy_evaluate("2H 3H 4H", timeout=5)
    assert not quick["timed_out"] and quick["exact"]
    with pytest.raises(kibitzer.BadInput, match="timeout"):
        kibitzer.stud_equity("8S TD TS", "XX 3C", timeout=0)
