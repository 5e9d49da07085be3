"""Agents for the environments of :mod:`kibitzer.envs`: the rule AIs, the library's native
players and a uniform random player. Each has ``act(env)`` (the action as text) and
``act(env, explain="short")`` (the action and why: the rules' explanation of the decision, or
what the player's method is).

>>> from kibitzer import agents, envs
>>> env = envs.DurakEnv()
>>> envs.play(env, [agents.rules("durak"), agents.lowest("durak")], seed=1)["durak"] in (0, 1, None)
True
"""

from __future__ import annotations

import random as _random
from typing import Optional

from . import _native
from .envs import _DDZ_ORDER

_NATIVE = {
    "durak": {
        "random": "uniform over the legal actions",
        "lowest": "leads and throws in its lowest card (no trump thrown in), beats the first unbeaten card with its lowest beating card, takes when it cannot",
        "reference": "the threshold policy of docs/durak.md: hand values compared for every candidate, thresholds as parameters",
    },
    "mahjong": {
        "random": "uniform over its discards, wins when it can",
        "reference": "the reference bot: shape-based discards, calls scored by singles and partials",
        "strong": "fewest shanten, then most live useful tiles; calls that improve both",
    },
    "doudizhu": {
        "random": "uniform over the legal actions",
        "lowest": "bids nothing; leads and answers with its lowest play (bombs and the rocket only when it cannot otherwise), passes on its partner's play",
        "endgame": "plays as `lowest` until at most `solve_below` cards are left in all hands, then the open-hand endgame solver's winning move (it sees every hand)",
    },
}

# The dou dizhu play types in the order `lowest` prefers to spend them (bombs and the rocket last).
_DDZ_LAST_RESORT = ("bomb", "rocket")


def _game_of(env):
    return getattr(env, "game", env)


def _game_name(env) -> str:
    game = _game_of(env)
    if isinstance(game, _native.DurakGame):
        return "durak"
    if isinstance(game, _native.MahjongGame):
        return "mahjong"
    if type(game).__name__ == "_DoudizhuGame":
        return "doudizhu"
    raise _native.BadInput("agents play kibitzer's durak, mahjong or dou dizhu environments")


class Agent:
    """An agent: ``act(env)`` gives the action of the seat to act."""

    name = "agent"

    def act(self, env, explain=None):
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<kibitzer agent {self.name}>"


class RandomAgent(Agent):
    """Uniform over the legal actions, from its own seeded stream."""

    name = "random"

    def __init__(self, seed: Optional[int] = 0):
        self._rng = _random.Random(seed)

    def act(self, env, explain=None):
        legal = _game_of(env).legal_actions()
        action = self._rng.choice(legal)
        if explain is None:
            return action
        return action, {"agent": self.name, "because": f"chosen at random among {len(legal)} legal actions"}


class NativeAgent(Agent):
    """One of the library's native players (durak: random, lowest, reference; mahjong:
    random, reference, strong; dou dizhu: random, lowest, endgame)."""

    def __init__(self, game: str, name: str, seed: int = 0):
        if game not in _NATIVE:
            raise _native.BadInput(f"no native players for `{game}` (durak, mahjong, doudizhu)")
        if name not in _NATIVE[game]:
            raise _native.BadInput(f"unknown {game} player `{name}` ({', '.join(_NATIVE[game])})")
        self.game = game
        self.name = name
        if game == "doudizhu":
            self._player = _DoudizhuPlayer(name, seed)
        else:
            cls = _native.DurakNativeAgent if game == "durak" else _native.MahjongNativeAgent
            self._player = cls(name, seed)

    def act(self, env, explain=None):
        action = self._player.act(_game_of(env))
        if explain is None:
            return action
        return action, {"agent": self.name, "because": _NATIVE[self.game][self.name]}


class RulesAgent(Agent):
    """A rule set deciding every move, each decision one run of the rules; ``act(env,
    explain=...)`` returns the rules' explanation of the decision ("short", "full" or "text")."""

    def __init__(self, game: str, rules: Optional[str] = None, params: Optional[dict] = None, ruleset: Optional[str] = None):
        self.game = game
        if game == "durak":
            self._player = _native.DurakRulesAgent(rules, params)
        elif game == "mahjong":
            self._player = _native.MahjongRulesAgent(ruleset or "mahjong", rules, params)
        elif game == "doudizhu":
            ruleset = ruleset or "doudizhu_table"
            self._player = _DoudizhuRules(ruleset, rules, params)
        else:
            raise _native.BadInput(f"no rule AI for `{game}` (durak, mahjong, doudizhu)")
        self.name = f"rules:{ruleset or game}"

    def act(self, env, explain=None):
        game = _game_of(env)
        if explain is None:
            return self._player.act(game)
        return self._player.act(game, explain)


class _DoudizhuRules:
    """The shipped rule set ``doudizhu_table`` (or an edited copy) deciding each move of the
    three-player game, one run of a reused session per decision: it bids, and once at most
    ``solve_below`` cards are left it plays the open-hand solver's winning move."""

    def __init__(self, ruleset: str, rules: Optional[str], params: Optional[dict]):
        self._session = _native.Session(ruleset, rules, params)
        # The game's variant unless the caller chose one: the rules must know the game's moves.
        self._own_variant = "variant" not in (params or {})

    def act(self, game, explain=None):
        seat = game.turn
        if game.phase == "bid":
            inputs = {"me": " ".join(game.hands[seat]), "role": "bidder", "high_bid": game.high}
        else:
            by = "none" if game.last is None else ("next", "after")[(game.last_by - seat) % 3 - 1]
            inputs = {
                "me": " ".join(game.hands[seat]),
                "next": " ".join(game.hands[(seat + 1) % 3]),
                "after": " ".join(game.hands[(seat + 2) % 3]),
                "role": ("landlord", "down", "up")[(seat - game.landlord) % 3],
                "last": game.last or "",
                "last_by": by,
            }
        s = self._session
        if self._own_variant:
            s.set_param("variant", game.variant)
        s.reset()
        s.set(**inputs)
        s.run()
        move = s.first("move")
        legal = game.legal_actions()
        if move is None or move[0] not in legal:
            chosen = "nothing" if move is None else f"`{move[0]}`"
            raise _native.BadRules(f"the rules chose {chosen}, which is not legal here")
        if explain is None:
            return move[0]
        mode = explain if isinstance(explain, str) else ("full" if explain is True else "short")
        return move[0], s.explain(relation="move", mode=mode)


class _DoudizhuPlayer:
    """Dou dizhu's players, over the library's move generator and three-player endgame solver."""

    def __init__(self, name: str, seed: int = 0, solve_below: int = 20, max_nodes: int = 2_000_000):
        self.name = name
        self._rng = _random.Random(seed)
        self.solve_below = solve_below
        self.max_nodes = max_nodes

    def act(self, game) -> str:
        legal = game.legal_actions()
        if self.name == "random":
            return self._rng.choice(legal)
        if game.phase == "bid":
            return "pass"
        if self.name == "endgame" and sum(len(h) for h in game.hands) <= self.solve_below:
            move = self._solve(game)
            if move is not None:
                return move
        return self._lowest(game, legal)

    def _lowest(self, game, legal):
        partner_played = (
            game.last is not None
            and game.last_by is not None
            and game.landlord not in (game.turn, game.last_by)
        )
        if partner_played and "pass" in legal:
            return "pass"
        plays = [p for p in legal if p != "pass"]
        plain = [p for p in plays if game._kinds.get(p) not in _DDZ_LAST_RESORT]
        if game.last is not None and not plain and "pass" in legal:
            return "pass"
        choices = plain or plays
        if not choices:
            return "pass"
        rank = _DDZ_ORDER
        return min(choices, key=lambda p: (rank[p.split()[0]], -len(p.split())))

    def _solve(self, game):
        landlord = game.landlord
        seats = {landlord: "landlord", (landlord + 1) % 3: "down", (landlord + 2) % 3: "up"}
        hands = game.hands_of()
        answer = _native.doudizhu_solve3(
            hands[landlord],
            hands[(landlord + 1) % 3],
            hands[(landlord + 2) % 3],
            to_move=seats[game.turn],
            last=game.last or "",
            last_by=seats[game.last_by] if game.last is not None else None,
            variant=game.variant,
            max_nodes=self.max_nodes,
        )
        if answer["outcome"] != "win" or answer["play"] is None:
            return None
        return answer["play"]


def rules(game: str, rules: Optional[str] = None, params: Optional[dict] = None, ruleset: Optional[str] = None) -> RulesAgent:
    """The rule AI of ``game`` (``"durak"``; ``"mahjong"``, with ``ruleset="mahjong-reference"`` for
    the reference bot; ``"doudizhu"``, the rule set ``doudizhu_table``: the open-hand solver once
    at most ``solve_below`` cards are left); ``rules`` a rule file in place of the shipped one,
    ``params`` overrides."""
    return RulesAgent(game, rules, params, ruleset)


def random(game: Optional[str] = None, seed: Optional[int] = 0) -> RandomAgent:
    """A uniform random player (for any of the environments)."""
    return RandomAgent(seed)


def lowest(game: str = "durak") -> NativeAgent:
    """Durak's "lowest card" baseline."""
    if game != "durak":
        raise _native.BadInput(f"`lowest` is a durak player; {game}'s baselines: {', '.join(_NATIVE.get(game, {}))}")
    return NativeAgent("durak", "lowest")


def native(game: str, name: str, seed: int = 0) -> NativeAgent:
    """A native player by name: durak ``random``, ``lowest``, ``reference``; mahjong
    ``random``, ``reference``, ``strong``; dou dizhu ``random``, ``lowest``, ``endgame``."""
    return NativeAgent(game, name, seed)
