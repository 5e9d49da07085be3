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
}


def _game_of(env):
    return getattr(env, "game", env)


def _game_name(env) -> str:
    game = _game_of(env)
    if isinstance(game, _native.DurakGame):
        return "durak"
    if isinstance(game, _native.MahjongGame):
        return "mahjong"
    raise _native.BadInput("agents play kibitzer's durak or mahjong environments")


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
    random, reference, strong)."""

    def __init__(self, game: str, name: str, seed: int = 0):
        if game not in _NATIVE:
            raise _native.BadInput(f"no native players for `{game}` (durak, mahjong)")
        if name not in _NATIVE[game]:
            raise _native.BadInput(f"unknown {game} player `{name}` ({', '.join(_NATIVE[game])})")
        self.game = game
        self.name = name
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
        else:
            raise _native.BadInput(f"no rule AI for `{game}` (durak, mahjong)")
        self.name = f"rules:{ruleset or game}"

    def act(self, env, explain=None):
        game = _game_of(env)
        if explain is None:
            return self._player.act(game)
        return self._player.act(game, explain)


def rules(game: str, rules: Optional[str] = None, params: Optional[dict] = None, ruleset: Optional[str] = None) -> RulesAgent:
    """The rule AI of ``game`` (``"durak"``; ``"mahjong"``, with ``ruleset="mahjong-seed"`` for
    the reference bot); ``rules`` a rule file in place of the shipped one, ``params`` overrides."""
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
    ``random``, ``seed``, ``strong``."""
    return NativeAgent(game, name, seed)
