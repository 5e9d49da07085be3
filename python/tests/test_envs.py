"""The environments played to the end: legal moves only, every card and tile accounted for, the
AEC shape (and PettingZoo's own API test where PettingZoo is installed), the agents."""

import random
from collections import Counter

import pytest

import kibitzer
from conftest import ROOT
from kibitzer import agents, envs


def durak_cards(env):
    s = env.full_state()
    held = [c for h in s["hands"] for c in h] + s["stock"] + s["discard"] + s["table"]
    return held


@pytest.mark.parametrize("players,deck,transfer", [(2, 36, False), (3, 36, True), (4, 52, False), (2, 24, True)])
def test_durak_random_games_conserve_cards_and_play_legal_moves(players, deck, transfer):
    env = envs.DurakEnv(players=players, deck=deck, transfer=transfer)
    rng = random.Random(players * 100 + deck)
    for seed in range(8):
        env.reset(seed=seed)
        full = sorted(durak_cards(env))
        assert len(full) == deck and len(set(full)) == deck
        steps = 0
        while not env.is_over():
            legal = env.legal_actions()
            assert legal, "a seat to act always has an action"
            obs = env.observation()
            assert len(obs["hand"]) == obs["hand_sizes"][obs["player"]]
            env.step(rng.choice(legal))
            steps += 1
            assert sorted(durak_cards(env)) == full
        result = env.result()
        assert result["actions"] == steps
        if result["durak"] is not None:
            assert result["rewards"][result["durak"]] == -1.0
            assert sum(result["rewards"]) == pytest.approx(0.0)


def test_durak_refuses_illegal_moves_and_leaves_the_state():
    env = envs.DurakEnv()
    env.reset(seed=3)
    before = env.full_state()
    with pytest.raises(kibitzer.BadInput) as caught:
        env.step("take")
    assert "not legal now" in str(caught.value)
    assert env.full_state() == before
    ids = env.game.legal_ids()
    assert [env.action_text(i) for i in ids] == env.legal_actions()
    env.step(ids[0])
    assert env.full_state() != before


def mahjong_tiles_ok(obs):
    """Each kind at most four times among what a seat sees, and the concealed hand the size its
    melds allow."""
    seen = Counter()
    for key in ("hand_counts", "meld_counts", "opponent_meld_counts", "discard_counts", "opponent_discard_counts"):
        for i, n in enumerate(obs[key]):
            seen[i] += n
    assert max(seen.values()) <= 4
    melds = len(obs["melds"].split()) if obs["melds"] else 0
    size = sum(obs["hand_counts"])
    expected = 13 - 3 * melds + (1 if obs["phase"] == "turn" else 0)
    assert size == expected
    # 64 tiles: what this seat sees, the opponent's concealed tiles and the wall (which also holds
    # the flowers not yet drawn) account for all of them.
    opp_melds = len(obs["opponent_melds"].split()) if obs["opponent_melds"] else 0
    total = sum(seen.values()) + (13 - 3 * opp_melds) + obs["wall"]
    assert 64 <= total <= 72


def test_mahjong_random_games_run_to_the_end_without_misplays():
    env = envs.MahjongEnv()
    rng = random.Random(5)
    outcomes = Counter()
    for seed in range(20):
        env.reset(seed=seed)
        while not env.is_over():
            legal = env.legal_actions()
            obs = env.observation()
            mahjong_tiles_ok(obs)
            env.step(rng.choice(legal))
        result = env.result()
        assert result["misplays"] == []
        outcomes["draw" if result["winner"] is None else "win"] += 1
        assert sum(result["rewards"]) == 0
    assert outcomes["win"] + outcomes["draw"] == 20


def test_mahjong_illegal_moves_are_refused():
    env = envs.MahjongEnv()
    env.reset(seed=1)
    assert env.game.phase() == "turn"
    with pytest.raises(kibitzer.BadInput):
        env.step("pong")
    ids = env.game.legal_ids()
    assert [env.action_text(i) for i in ids] == env.legal_actions()


def aec_random_game(env, seed):
    env.reset(seed=seed)
    rng = random.Random(seed)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        assert env.observation_space(agent).contains(obs)
        legal = [i for i, m in enumerate(obs["action_mask"]) if m]
        env.step(rng.choice(legal))
    return env


@pytest.mark.parametrize("make", [envs.DurakEnv, envs.MahjongEnv])
def test_the_aec_loop_ends_with_rewards(make):
    pytest.importorskip("gymnasium")
    env = make()
    for seed in range(3):
        aec_random_game(env, seed)
        assert env.agents == []
        result = env.result()
        assert result is not None


@pytest.mark.parametrize("make", [envs.DurakEnv, envs.MahjongEnv])
def test_pettingzoo_api_test(make):
    test = pytest.importorskip("pettingzoo.test")
    test.api_test(make(), num_cycles=200, verbose_progress=False)


def test_agents_play_whole_games_and_explain():
    durak = envs.DurakEnv()
    r = envs.play(durak, [agents.rules("durak"), agents.lowest("durak")], seed=11)
    assert r["steps"] > 0 and (r["durak"] in (0, 1) or r["draw"] or r["aborted"])
    durak.reset(seed=2)
    action, why = agents.rules("durak").act(durak, explain="short")
    assert action in durak.legal_actions() and why["rule"] and why["fact"].startswith("play(")
    action, why = agents.lowest().act(durak, explain="short")
    assert action in durak.legal_actions() and "lowest" in why["because"]

    mahjong = envs.MahjongEnv()
    r = envs.play(mahjong, [agents.rules("mahjong"), agents.native("mahjong", "strong")], seed=4)
    assert r["misplays"] == []
    r = envs.play(mahjong, [agents.rules("mahjong", ruleset="mahjong-reference"), agents.random(seed=1)], seed=5)
    assert r["misplays"] == []
    mahjong.reset(seed=6)
    action, why = agents.rules("mahjong").act(mahjong, explain="text")
    assert action in mahjong.legal_actions() and isinstance(why, str) and why


def test_unknown_agents_and_games():
    with pytest.raises(kibitzer.BadInput):
        agents.native("durak", "clever")
    with pytest.raises(kibitzer.BadInput):
        agents.lowest("mahjong")
    with pytest.raises(kibitzer.BadInput):
        envs.env("chess")
    with pytest.raises(kibitzer.BadInput):
        envs.DurakEnv(players=7)


def _play_out(env, seed):
    """Plays random legal moves to the end; the list of (render, legal actions) seen."""
    rng = random.Random(seed)
    seen = []
    while not env.is_over():
        legal = env.legal_actions()
        seen.append((env.render(), legal))
        env.step(rng.choice(legal))
    seen.append((env.render(), env.result()))
    return seen


@pytest.mark.parametrize("make", [lambda: envs.DurakEnv(players=3, transfer=True), envs.MahjongEnv])
def test_copies_and_pickles_continue_the_same_game(make):
    import copy
    import pickle

    env = make()
    env.reset(seed=11)
    rng = random.Random(4)
    for _ in range(9):
        env.step(rng.choice(env.legal_actions()))
    copies = [copy.deepcopy(env), pickle.loads(pickle.dumps(env)), env.clone(), type(env).from_state(env.state())]
    for other in copies:
        assert other is not env and other.game is not env.game
        assert other.render() == env.render() and other.last()[1:] == env.last()[1:]
        assert (other.observe(other.agent_selection)["observation"] == env.observe(env.agent_selection)["observation"]).all()
    # A copy plays on alone: the original does not move, and the same moves give the same game.
    first = copies[0]
    before = env.render()
    played = _play_out(first, seed=5)
    assert env.render() == before
    assert _play_out(copies[1], seed=5) == played
    assert _play_out(env, seed=5) == played
    # The AEC bookkeeping travels too: a finished game's copy is finished for every agent.
    done = copy.deepcopy(env)
    assert done.is_over() and done.terminations == env.terminations and done.rewards == env.rewards


def test_render_is_text_a_person_reads():
    env = envs.DurakEnv()
    env.reset(seed=7)
    text = env.render()
    assert text.splitlines()[0] == "player_0 to act (leader); attacker player_0, defender player_1"
    assert "hand: AS 6D KD 6C TC JC" in text and "trump D (9D)" in text and text.splitlines()[-1].startswith("legal: attack AS")
    env = envs.MahjongEnv()
    env.reset(seed=3)
    text = env.render()
    assert text.startswith("player_1 to act (turn), dealer; wall 41, shanten 1")
    assert "hand: 1456678899m NCCC, drawn C" in text
    envs.play(env, [agents.random(seed=1), agents.random(seed=2)], seed=3)
    assert env.render() == "over: player_0 wins (standard, self-drawn); rewards player_0 +1, player_1 -1"


@pytest.mark.parametrize("game", ["durak", "mahjong"])
def test_env_is_wrapped_as_pettingzoo_wraps_its_own(game):
    import pickle

    test = pytest.importorskip("pettingzoo.test")
    test.api_test(envs.env(game), num_cycles=100, verbose_progress=False)
    env = envs.env(game)
    env.reset(seed=3)
    offender = env.agent_selection
    mask = env.observe(offender)["action_mask"]
    illegal = int((mask == 0).nonzero()[0][0])
    env.step(illegal)  # PettingZoo logs a warning
    assert all(env.terminations.values())
    assert env.rewards[offender] == -1 and all(r == 0 for a, r in env.rewards.items() if a != offender)
    # The wrapped environment pickles with its game.
    again = pickle.loads(pickle.dumps(env))
    assert again.unwrapped.render() == env.unwrapped.render()
    # The raw one refuses the illegal action and leaves the game as it was.
    raw = envs.raw_env(game)
    raw.reset(seed=3)
    before = raw.render()
    with pytest.raises(kibitzer.BadInput):
        raw.step(illegal)
    assert raw.render() == before


DECK = sorted(["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2"] * 4 + ["BJ", "RJ"])


def test_doudizhu_moves_are_rlcards_and_the_solver_answers():
    plays = kibitzer._native.doudizhu_plays("3 3 4")
    assert sorted(plays) == [("3", "single"), ("3 3", "pair"), ("4", "single")]
    assert kibitzer._native.doudizhu_plays("5 6", last="4") == [("5", "single"), ("6", "single")]
    # Every play of the game plus `pass`: RLCard's 27,472 actions; then the three bids.
    env = envs.DoudizhuEnv()
    assert env.game.action_count == 27472 + 3
    assert env.action_text(0) == "pass" and env.action_text(27472) == "bid 1"
    won = kibitzer._native.doudizhu_solve3("3", "4 4", "5 5", to_move="landlord")
    assert (won["outcome"], won["play"]) == ("win", "3")
    lost = kibitzer._native.doudizhu_solve3("3 4", "5", "6 6", to_move="landlord")
    assert lost["outcome"] == "lose"
    with pytest.raises(kibitzer.BadInput):
        kibitzer._native.doudizhu_solve3("3 3 3 3 3", "4", "5")


@pytest.mark.parametrize("bidding", [False, True])
def test_doudizhu_random_games_conserve_cards_and_end_with_rlcards_payoffs(bidding):
    env = envs.DoudizhuEnv(bidding=bidding)
    rng = random.Random(5)
    for seed in range(6):
        env.reset(seed=seed)
        while env.game.phase == "bid":
            env.step(rng.choice(env.legal_actions()))
        landlord = env.game.landlord
        assert [len(h.split()) for h in env.hands()][landlord] == 20
        while not env.is_over():
            legal = env.legal_actions()
            assert legal and len(set(legal)) == len(legal)
            env.step(rng.choice(legal))
            g = env.game
            assert sorted(sum((h.split() for h in env.hands()), []) + sum(g.played, [])) == DECK
        r = env.result()
        winners = [i for i in range(3) if (i == landlord) == r["landlord_wins"]]
        assert r["rewards"] == [1.0 if i in winners else 0.0 for i in range(3)]
        assert env.hands()[r["winner"]] == ""
        assert env.render().startswith(f"over: player_{r['winner']} went out")


def test_doudizhu_refuses_what_is_not_legal_and_reads_cards_in_any_order():
    env = envs.DoudizhuEnv()
    env.reset(seed=2, options={"landlord": 1})
    assert env.agent_selection == "player_1" and env.observation()["role"] == "landlord"
    with pytest.raises(kibitzer.BadInput):
        env.step("pass")  # the landlord leads: no pass
    hand = env.observation()["hand"].split()
    before = env.render()
    with pytest.raises(kibitzer.BadInput):
        env.step(f"{hand[0]} {hand[-1]}" if hand[0] != hand[-1] else "3 4 5")
    assert env.render() == before
    pair = next(p for p in env.legal_actions() if len(p.split()) == 2 and p.split()[0] == p.split()[1])
    env.step(" ".join(reversed(pair.lower().split())))
    assert env.game.observation(1)["played"][1] == pair


@pytest.mark.parametrize("make", [envs.DoudizhuEnv, lambda: envs.env("doudizhu"), lambda: envs.DoudizhuEnv(bidding=True)])
def test_doudizhu_passes_pettingzoos_api_test(make):
    test = pytest.importorskip("pettingzoo.test")
    test.api_test(make(), num_cycles=300, verbose_progress=False)


def test_doudizhu_copies_continue_the_same_game():
    import copy
    import pickle

    env = envs.DoudizhuEnv(bidding=True)
    env.reset(seed=9)
    rng = random.Random(1)
    for _ in range(12):
        env.step(rng.choice(env.legal_actions()))
    for other in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        assert other.render() == env.render() and other.hands() == env.hands()
        assert _play_out(other, seed=2) == _play_out(copy.deepcopy(env), seed=2)
    given = envs.DoudizhuEnv()
    given.reset(seed=4, options={"landlord": 2})
    assert pickle.loads(pickle.dumps(given)).game.landlord == 2
    # Mahjong's dealer given to reset travels with its copies the same way.
    table = envs.MahjongEnv()
    table.reset(seed=4, options={"dealer": 1})
    assert pickle.loads(pickle.dumps(table)).render() == table.render()


def test_doudizhu_agents_play_and_the_endgame_agent_solves_small_hands():
    env = envs.DoudizhuEnv()
    tally = Counter()
    for seed in range(10):
        r = envs.play(env, [agents.native("doudizhu", "endgame"), agents.native("doudizhu", "lowest"), agents.random(seed=seed)], seed=seed)
        tally[r["winner"]] += 1
        assert r["steps"] > 0
    assert sum(tally.values()) == 10
    # With few cards left, the endgame agent plays the solver's winning move.
    player = agents.native("doudizhu", "endgame")
    env.reset(seed=0, options={"landlord": 0})
    g = env.game
    g.hands = [["3", "3"], ["5"], ["4", "6"]]
    move, why = player.act(env, explain="short")
    assert move == "3 3" and "solver" in why["because"]


def test_doudizhu_rule_agent_plays_whole_games_and_the_solver_decides_small_hands():
    rules = agents.rules("doudizhu")
    assert rules.name == "rules:doudizhu_table"
    env = envs.DoudizhuEnv(bidding=True)
    for seed in range(3):
        r = envs.play(env, [rules, agents.native("doudizhu", "lowest"), agents.random(seed=seed)], seed=seed)
        assert r["steps"] > 0 and r["winner"] in (0, 1, 2)
    # Every seat the rule agent: once at most 20 cards are left, each move is the solver's winning
    # move whenever the seat to act has one (the oracle: the library's solver asked directly).
    env = envs.DoudizhuEnv()
    solved = 0
    for seed in range(6):
        env.reset(seed=seed)
        g = env.game
        while not g.is_over():
            move = rules.act(env)
            if sum(len(h) for h in g.hands) <= 20:
                seats = {g.landlord: "landlord", (g.landlord + 1) % 3: "down", (g.landlord + 2) % 3: "up"}
                hands = g.hands_of()
                answer = kibitzer._native.doudizhu_solve3(
                    hands[g.landlord], hands[(g.landlord + 1) % 3], hands[(g.landlord + 2) % 3],
                    to_move=seats[g.turn], last=g.last or "",
                    last_by=seats[g.last_by] if g.last is not None else None,
                    max_nodes=2_000_000, table_mb=256,
                )
                if answer["outcome"] == "win":
                    assert move == answer["play"], (seed, g.hands, g.last)
                    solved += 1
            env.step(move)
    assert solved >= 10
    # The explanation names the rule that decided.
    env.reset(seed=0, options={"landlord": 0})
    env.game.hands = [["3", "3"], ["5"], ["4", "6"]]
    move, why = rules.act(env, explain="short")
    assert move == "3 3" and why["rule"] == "PlayTheWin", why


def test_doudizhu_rule_agent_takes_an_edited_rule_file_and_parameters(tmp_path):
    shipped = (ROOT / "rules" / "doudizhu_table.rules").read_text(encoding="utf-8")
    edited = tmp_path / "table.rules"
    # A table that never bids: the bidding rule asks for five bombs.
    edited.write_text(shipped.replace("?n >= 2", "?n >= 5"), encoding="utf-8")
    env = envs.DoudizhuEnv(bidding=True)
    env.reset(seed=1)
    g = env.game
    g.hands[g.turn] = ["3", "3", "3", "3", "4", "4", "4", "4"] + g.hands[g.turn][8:]
    assert agents.rules("doudizhu").act(env) == "bid 3"
    assert agents.rules("doudizhu", rules=str(edited)).act(env) == "pass"
    # Without the solver the landlord leads its lowest play.
    env = envs.DoudizhuEnv()
    env.reset(seed=0, options={"landlord": 0})
    env.game.hands = [["3", "3"], ["5"], ["4", "6"]]
    assert agents.rules("doudizhu", params={"solve_below": 0}).act(env) == "3 3"
    env.game.hands = [["3", "4", "4"], ["5"], ["6", "7"]]
    assert agents.rules("doudizhu", params={"solve_below": 0}).act(env) == "3"
