"""Durak, two-player mahjong and dou dizhu as environments for self-play, in PettingZoo's AEC shape.

Two ways to drive them:

* the plain game API: ``reset(seed)``, ``legal_actions()`` (text such as ``"attack 7S"`` or
  ``"discard E"``), ``step(action)``, ``observation()`` (a readable dict for the player to act)
  and ``result()`` once the game is over;
* the AEC API RL code expects: ``agents``, ``agent_selection``, ``observe(agent)`` (a dict with
  an ``observation`` vector and an ``action_mask``), ``step(action_number)``, ``last()``,
  ``rewards``, ``terminations``, ``truncations``, ``infos``, ``observation_space(agent)`` and
  ``action_space(agent)``.

``step`` takes either form. The spaces need ``gymnasium`` and ``numpy`` (``pip install
kibitzer[envs]``); with PettingZoo installed the environments are ``pettingzoo.AECEnv``
subclasses, and ``pettingzoo.test.api_test`` passes on them.

An environment is its game's seed and the actions played since: ``state()`` gives them as plain
data, ``clone()`` (or ``copy.deepcopy``) and ``pickle`` rebuild the same position by dealing the
same seed and playing the same actions again, so a search can try moves on copies.
"""

from __future__ import annotations

import copy as _copy
import random as _random
from typing import Any, Dict, Iterable, List, Optional

from . import _native

try:  # The AEC base class when PettingZoo is there; the same methods are defined below anyway.
    from pettingzoo import AECEnv as _Base
except ImportError:  # pragma: no cover - exercised only without pettingzoo
    _Base = object


def _np():
    import numpy

    return numpy


def _spaces():
    from gymnasium import spaces

    return spaces


class _GameEnv(_Base):
    """What the two environments share; a subclass sets ``game`` and its name."""

    metadata: Dict[str, Any] = {"render_modes": ["ansi"], "name": "kibitzer", "is_parallelizable": False}

    def __init__(self, game, render_mode: Optional[str] = None, **config):
        if _Base is not object:
            super().__init__()
        self.game = game
        self.render_mode = render_mode
        # What rebuilds this position: the constructor's settings, the seed dealt, the actions
        # played since (as the native game took them).
        self._config: Dict[str, Any] = dict(config)
        self._seed: Optional[int] = None
        self._history: List[Any] = []
        self.possible_agents = [f"player_{i}" for i in range(game.players)]
        self.agents: List[str] = []
        self._obs_spaces: Dict[str, Any] = {}
        self._act_spaces: Dict[str, Any] = {}
        self.rewards: Dict[str, float] = {}
        self._cumulative_rewards: Dict[str, float] = {}
        self.terminations: Dict[str, bool] = {}
        self.truncations: Dict[str, bool] = {}
        self.infos: Dict[str, dict] = {}
        self.agent_selection: Optional[str] = None
        self._seed_rng = _random.Random()

    # ---- the plain game API -----------------------------------------------------------------

    def legal_actions(self) -> List[str]:
        """The legal actions of the player to act, as text."""
        return self.game.legal_actions()

    def observation(self) -> dict:
        """What the player to act sees, as a readable dict."""
        return self.game.observation()

    def result(self) -> Optional[dict]:
        """None while the game runs; the outcome and each seat's reward once it is over."""
        return self.game.result()

    def is_over(self) -> bool:
        return self.game.is_over()

    # ---- AEC --------------------------------------------------------------------------------

    def observation_space(self, agent: str):
        if agent not in self._obs_spaces:
            spaces, np = _spaces(), _np()
            self._obs_spaces[agent] = spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (self.game.observation_size,), dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (self.game.action_count,), dtype=np.int8),
                }
            )
        return self._obs_spaces[agent]

    def action_space(self, agent: str):
        if agent not in self._act_spaces:
            self._act_spaces[agent] = _spaces().Discrete(self.game.action_count)
        return self._act_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def _deal(self, seed: int) -> None:
        raise NotImplementedError

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        """Deals a new game: the same seed deals the same cards or tiles."""
        if seed is None:
            seed = self._seed_rng.getrandbits(63)
        self._seed = int(seed)
        self._history = []
        self._deal(int(seed))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._after_move()

    def _mask(self, agent: str):
        np = _np()
        mask = np.zeros(self.game.action_count, dtype=np.int8)
        if not self.game.is_over() and self.agent_selection == agent:
            mask[self.game.legal_ids()] = 1
        return mask

    def _vector(self, agent: str):
        raise NotImplementedError

    def observe(self, agent: str):
        np = _np()
        return {
            "observation": np.asarray(self._vector(agent), dtype=np.float32),
            "action_mask": self._mask(agent),
        }

    def last(self, observe: bool = True):
        agent = self.agent_selection
        obs = self.observe(agent) if observe else None
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def agent_iter(self, max_iter: int = 2**63):
        """The agent to act, until every agent is done (or ``max_iter`` steps)."""
        n = 0
        while self.agents and n < max_iter:
            yield self.agent_selection
            n += 1

    def _after_move(self) -> None:
        """Points `agent_selection` at the seat to act, or ends the game for everyone."""
        seat = self.game.to_act()
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
            for a in self.agents:
                self.infos[a] = {"legal_moves": self.game.legal_ids()} if a == self.agent_selection else {}
            return
        result = self.game.result() or {}
        rewards = result.get("rewards", [0.0] * len(self.possible_agents))
        truncated = bool(result.get("aborted", False))
        for i, a in enumerate(self.possible_agents):
            if a in self.agents:
                self.rewards[a] = float(rewards[i])
                self.terminations[a] = not truncated
                self.truncations[a] = truncated
                self.infos[a] = {"result": result}
        self._accumulate_rewards()
        if self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]

    def _accumulate_rewards(self) -> None:
        for a, r in self.rewards.items():
            self._cumulative_rewards[a] = self._cumulative_rewards.get(a, 0.0) + r

    def _clear_rewards(self) -> None:
        for a in self.rewards:
            self.rewards[a] = 0.0

    def _was_dead_step(self, action) -> None:
        if action is not None:
            raise ValueError("when an agent is done, the only valid action is None")
        agent = self.agent_selection
        for d in (self.terminations, self.truncations, self.rewards, self._cumulative_rewards, self.infos):
            d.pop(agent, None)
        self.agents.remove(agent)
        if self.agents:
            self.agent_selection = self.agents[0]
        self._clear_rewards()

    def step(self, action) -> None:
        """Plays an action for the agent to act: its text (``"take"``) or its number (as the
        action mask numbers them). Once the game is over each agent is stepped with None, as
        PettingZoo does, until `agents` is empty."""
        agent = self.agent_selection
        if agent is not None and (self.terminations.get(agent) or self.truncations.get(agent)):
            self._was_dead_step(action)
            return
        if hasattr(action, "item") and not isinstance(action, str):
            action = action.item()
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._play(action)
        self._after_move()

    def _play(self, action) -> None:
        """Plays an action on the native game and records it (the replay of `state()`)."""
        self.game.step(action)
        self._history.append(action)

    # ---- copies -----------------------------------------------------------------------------

    # The AEC bookkeeping a copy carries over as it is (plain dicts, lists and strings).
    _AEC_FIELDS = ("agents", "rewards", "_cumulative_rewards", "terminations", "truncations", "infos", "agent_selection")

    def state(self) -> dict:
        """This position as plain data: the environment's settings, the seed dealt and the actions
        played since, with the AEC bookkeeping. ``from_state`` (and pickling) rebuild it."""
        state = {
            "env": type(self).__name__,
            "config": dict(self._config),
            "render_mode": self.render_mode,
            "seed": self._seed,
            "history": list(self._history),
            "seed_rng": self._seed_rng.getstate(),
            "options": self._options(),
        }
        for name in self._AEC_FIELDS:
            value = getattr(self, name)
            state[name] = _copy.deepcopy(value)
        return state

    @classmethod
    def from_state(cls, state: dict) -> "_GameEnv":
        """The environment ``state()`` described: its seed dealt and its actions played again."""
        env = cls.__new__(cls)
        env.__setstate__(state)
        return env

    def clone(self) -> "_GameEnv":
        """An independent copy of this position (the same as ``copy.deepcopy``)."""
        return type(self).from_state(self.state())

    def __getstate__(self) -> dict:
        return self.state()

    def __setstate__(self, state: dict) -> None:
        type(self).__init__(self, render_mode=state.get("render_mode"), **state["config"])
        self._restore_options(state.get("options") or {})
        self._seed_rng.setstate(state["seed_rng"])
        if state["seed"] is not None:
            self._seed = int(state["seed"])
            self._deal(self._seed)
            for action in state["history"]:
                self._replay(action)
        self._history = list(state["history"])
        for name in self._AEC_FIELDS:
            setattr(self, name, _copy.deepcopy(state[name]))

    def _replay(self, action) -> None:
        self.game.step(action)

    def _options(self) -> dict:
        """What `reset`'s options set that the deal reads (a subclass's), for `state()`."""
        return {}

    def _restore_options(self, options: dict) -> None:
        """Sets what `_options` gave, before the deal is replayed."""

    def __deepcopy__(self, memo) -> "_GameEnv":
        return self.clone()

    # ---- text -------------------------------------------------------------------------------

    def render(self) -> str:
        """The position as text for a person: the player to act's view and its legal actions,
        or the outcome once the game is over (``render_mode="ansi"``)."""
        if self.game.is_over():
            return self._render_result(self.game.result() or {})
        lines = self._render_view(self.game.observation())
        legal = self.game.legal_actions()
        shown = ", ".join(legal[:12]) + (f", … ({len(legal)} in all)" if len(legal) > 12 else "")
        lines.append(f"legal: {shown}")
        return "\n".join(lines)

    def _render_view(self, view: dict) -> List[str]:
        return [f"{k}: {v}" for k, v in view.items()]

    def _render_result(self, result: dict) -> str:
        rewards = ", ".join(f"{a} {r:+g}" for a, r in zip(self.possible_agents, result.get("rewards", [])))
        return f"over: rewards {rewards}"

    def close(self) -> None:
        pass

    def action_text(self, action: int) -> str:
        """The text of action number ``action``."""
        return self.game.action_text(action)


class DurakEnv(_GameEnv):
    """Durak (2–6 players, 24/32/36/52 cards, optional transfers) on the library's engine.

    >>> env = DurakEnv(); env.reset(seed=7)
    >>> env.legal_actions()[:2]
    ['attack AS', 'attack 6D']
    """

    metadata = {"render_modes": ["ansi"], "name": "kibitzer_durak_v0", "is_parallelizable": False}

    def __init__(self, players: int = 2, deck: int = 36, transfer: bool = False, render_mode: Optional[str] = None):
        super().__init__(
            _native.DurakGame(players, deck, transfer), render_mode, players=players, deck=deck, transfer=transfer
        )

    def _deal(self, seed: int) -> None:
        self.game.reset(seed)

    def _render_view(self, v: dict) -> List[str]:
        table = " ".join(a if d is None else f"{a}/{d}" for a, d in v["table"]) or "empty"
        sizes = ", ".join(str(n) for n in v["hand_sizes"])
        taking = " (the defender takes)" if v["defender_taking"] else ""
        return [
            f"player_{v['player']} to act ({v['role']}); attacker player_{v['attacker']}, "
            f"defender player_{v['defender']}{taking}",
            f"trump {v['trump']} ({v['trump_card']}), stock {v['stock']}, discard pile {v['discard']}",
            f"hand: {' '.join(v['hand'])}",
            f"table: {table}",
            f"hand sizes: {sizes}",
        ]

    def _render_result(self, result: dict) -> str:
        if result.get("aborted"):
            who = "aborted"
        elif result.get("draw"):
            who = "a draw: no durak"
        else:
            who = f"player_{result['durak']} is the durak"
        return f"over: {who}; {super()._render_result(result)[len('over: '):]}"

    def _vector(self, agent: str):
        return self.game.observation_vector(self._seat(agent))

    def full_state(self) -> dict:
        """Every hand, the stock and the discard pile (the referee's view, for tests)."""
        return self.game.full_state()


class MahjongEnv(_GameEnv):
    """Two-player mahjong (64 tiles of characters and honours, 8 flowers) on the library's
    engine. A player acts on its own turn (``discard``, ``ready``, ``kong``, ``win``) and on the
    opponent's discard (``pass``, ``pong``, ``kong``, ``chow``, ``win``). Seats alternate
    dealing with the seed's parity unless ``dealer`` is given to ``reset``'s ``options``."""

    metadata = {"render_modes": ["ansi"], "name": "kibitzer_mahjong_v0", "is_parallelizable": False}

    def __init__(self, chow: bool = True, render_mode: Optional[str] = None):
        super().__init__(_native.MahjongGame(chow), render_mode, chow=chow)
        self._last_vectors: Dict[int, list] = {}
        self._dealer: Optional[int] = None

    def _options(self) -> dict:
        return {"dealer": self._dealer}

    def _restore_options(self, options: dict) -> None:
        self._dealer = options.get("dealer")

    def _deal(self, seed: int) -> None:
        dealer = self._dealer if self._dealer is not None else seed % 2
        self._last_vectors = {}
        self.game.reset(seed, dealer)

    def _replay(self, action) -> None:
        self.game.step(action)
        seat = self.game.to_act()
        if seat is not None:
            self._last_vectors[seat] = self.game.observation_vector()

    def _render_view(self, v: dict) -> List[str]:
        lines = [
            f"player_{v['player']} to act ({v['phase']}){', dealer' if v['dealer'] else ''}; "
            f"wall {v['wall']}, shanten {v['shanten']}{', ready' if v['ready'] else ''}",
            f"hand: {v['hand']}" + (f", drawn {v['drawn']}" if v.get("drawn") else ""),
        ]
        if v.get("offered"):
            lines.append(f"offered: {v['offered']}")
        lines.append(f"melds: {v['melds'] or 'none'}; opponent's: {v['opponent_melds'] or 'none'}"
                     + ("; the opponent is ready" if v["opponent_ready"] else ""))
        lines.append(f"discards: {v['discards'] or 'none'}; opponent's: {v['opponent_discards'] or 'none'}")
        return lines

    def _render_result(self, result: dict) -> str:
        winner = result.get("winner")
        if winner is None:
            who = "a draw (the wall ran out)"
        else:
            how = "self-drawn" if result.get("self_drawn") else "on a discard"
            who = f"player_{winner} wins ({result.get('form', '')}, {how})"
        return f"over: {who}; {super()._render_result(result)[len('over: '):]}"

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        self._dealer = (options or {}).get("dealer")
        super().reset(seed, options)

    def _after_move(self) -> None:
        seat = self.game.to_act()
        if seat is not None:
            # The engine shows a seat its view only when it asks it to decide: kept for observe().
            self._last_vectors[seat] = self.game.observation_vector()
        super()._after_move()

    def _vector(self, agent: str):
        seat = self._seat(agent)
        vector = self._last_vectors.get(seat)
        return vector if vector is not None else [0.0] * self.game.observation_size


_DDZ_RANKS = "3 4 5 6 7 8 9 T J Q K A 2".split()
_DDZ_ORDER = {r: i for i, r in enumerate(_DDZ_RANKS + ["BJ", "RJ"])}
_DDZ_DECK = [r for r in _DDZ_RANKS for _ in range(4)] + ["BJ", "RJ"]
_DDZ_ROLES = ("landlord", "down farmer", "up farmer")


def _ddz_sorted(cards: Iterable[str]) -> List[str]:
    return sorted(cards, key=_DDZ_ORDER.__getitem__)


def _ddz_counts(cards: Iterable[str]) -> List[float]:
    counts = [0.0] * 15
    for c in cards:
        counts[_DDZ_ORDER[c]] += 0.25 if _DDZ_ORDER[c] < 13 else 1.0
    return counts


class _DoudizhuGame:
    """Three-player dou dizhu: 17 cards each and 3 for the landlord, who leads; a play stands until
    both others pass; the first to empty a hand wins for their side. Actions are plays written as
    their cards (``"3 3 3 4"``), ``"pass"``, and with bidding ``"bid 1"`` to ``"bid 3"``. The
    move set is the library's (RLCard's, under the standard rules)."""

    players = 3

    def __init__(self, bidding: bool = False, variant: str = "standard"):
        self.bidding = bidding
        self.variant = variant
        plays = _native.doudizhu_plays(" ".join(_DDZ_DECK), "", variant)
        self._actions = ["pass"] + [cards for cards, _ in plays] + ["bid 1", "bid 2", "bid 3"]
        self._ids = {a: i for i, a in enumerate(self._actions)}
        self._kinds = dict(plays)
        self.action_count = len(self._actions)
        # hand, cards each seat played, the play to answer (15 ranks each), who made it, hand
        # sizes, role (3 each), bidding: phase and highest bid.
        self.observation_size = 15 + 3 * 15 + 15 + 3 + 3 + 3 + 2
        self.winner: Optional[int] = None
        self.phase = "over"
        self.turn: Optional[int] = None

    # ---- dealing and bidding ----------------------------------------------------------------

    def reset(self, seed: int = 0, landlord: Optional[int] = None) -> None:
        self._rng = _random.Random(seed)
        self.winner = None
        self.landlord: Optional[int] = None
        self.bids: List[Optional[int]] = [None, None, None]
        self.high = 0
        self.last: Optional[str] = None
        self.last_by: Optional[int] = None
        self._deal()
        if self.bidding and landlord is None:
            self.phase = "bid"
            self.turn = self._rng.randrange(3)
            self._first_bidder = self.turn
        else:
            self._start_play(landlord if landlord is not None else self._rng.randrange(3))

    def _deal(self) -> None:
        deck = list(_DDZ_DECK)
        self._rng.shuffle(deck)
        self.hands = [_ddz_sorted(deck[17 * i : 17 * i + 17]) for i in range(3)]
        self.bottom = _ddz_sorted(deck[51:])
        self.played: List[List[str]] = [[], [], []]
        self.turns = 0

    def _start_play(self, landlord: int) -> None:
        self.landlord = landlord
        self.hands[landlord] = _ddz_sorted(self.hands[landlord] + self.bottom)
        self.phase = "play"
        self.turn = landlord
        self.last = None
        self.last_by = None

    # ---- the game API -----------------------------------------------------------------------

    def to_act(self) -> Optional[int]:
        return None if self.winner is not None else self.turn

    def is_over(self) -> bool:
        return self.winner is not None

    def role(self, seat: int) -> Optional[str]:
        if self.landlord is None:
            return None
        return _DDZ_ROLES[(seat - self.landlord) % 3]

    def legal_actions(self) -> List[str]:
        if self.winner is not None:
            raise _native.BadInput("the game is over")
        if self.phase == "bid":
            return ["pass"] + [f"bid {b}" for b in (1, 2, 3) if b > self.high]
        hand = " ".join(self.hands[self.turn])
        if self.last is None:
            return [cards for cards, _ in _native.doudizhu_plays(hand, "", self.variant)]
        return ["pass"] + [cards for cards, _ in _native.doudizhu_plays(hand, self.last, self.variant)]

    def legal_ids(self) -> List[int]:
        return [self._ids[a] for a in self.legal_actions()]

    def action_text(self, action: int) -> str:
        if not 0 <= action < len(self._actions):
            raise _native.BadInput(f"action number {action} is out of range (0 to {len(self._actions) - 1})")
        return self._actions[action]

    def _read(self, action) -> str:
        if isinstance(action, int) and not isinstance(action, bool):
            return self.action_text(action)
        text = " ".join(str(action).split())
        if text in ("pass",) or text.startswith("bid "):
            return text
        try:
            return " ".join(_ddz_sorted(c.upper() for c in text.split()))
        except KeyError:
            raise _native.BadInput(f"`{action}` is not a play: cards are 3 4 5 6 7 8 9 T J Q K A 2 BJ RJ") from None

    def step(self, action) -> None:
        text = self._read(action)
        legal = self.legal_actions()
        if text not in legal:
            shown = ", ".join(legal[:8]) + (", …" if len(legal) > 8 else "")
            raise _native.BadInput(f"`{text}` is not legal now (legal: {shown})")
        seat = self.turn
        self.turns += 1
        if self.phase == "bid":
            if text != "pass":
                self.high = int(text.split()[1])
                self.bids[seat] = self.high
            if self.high == 3:
                self._start_play(seat)
            elif (seat + 1) % 3 == self._first_bidder:
                if self.high == 0:  # everybody passed: deal again, the next seat bids first
                    self._deal()
                    self.bids = [None, None, None]
                    self._first_bidder = (self._first_bidder + 1) % 3
                    self.turn = self._first_bidder
                else:
                    self._start_play(self.bids.index(self.high))
            else:
                self.turn = (seat + 1) % 3
            return
        if text == "pass":
            self.turn = (seat + 1) % 3
            if self.turn == self.last_by:
                self.last = None
            return
        for card in text.split():
            self.hands[seat].remove(card)
        self.played[seat].extend(text.split())
        self.last, self.last_by = text, seat
        if not self.hands[seat]:
            self.winner = seat
        else:
            self.turn = (seat + 1) % 3

    def observation(self, player: Optional[int] = None) -> dict:
        seat = self.turn if player is None else player
        return {
            "player": seat,
            "phase": self.phase if self.winner is None else "over",
            "role": self.role(seat),
            "landlord": self.landlord,
            "hand": " ".join(self.hands[seat]),
            "bottom": " ".join(self.bottom) if self.landlord is not None else None,
            "last": self.last,
            "last_by": self.last_by,
            "hand_sizes": [len(h) for h in self.hands],
            "played": [" ".join(_ddz_sorted(p)) for p in self.played],
            "bids": list(self.bids),
        }

    def observation_vector(self, seat: int) -> List[float]:
        v = _ddz_counts(self.hands[seat])
        for i in range(3):
            v += _ddz_counts(self.played[(seat + i) % 3])
        v += _ddz_counts(self.last.split()) if self.last else [0.0] * 15
        who = [0.0, 0.0, 0.0]
        if self.last_by is not None:
            who[(self.last_by - seat) % 3] = 1.0
        v += who
        v += [len(self.hands[(seat + i) % 3]) / 20.0 for i in range(3)]
        role = [0.0, 0.0, 0.0]
        if self.landlord is not None:
            role[(seat - self.landlord) % 3] = 1.0
        v += role
        v += [1.0 if self.phase == "bid" else 0.0, self.high / 3.0]
        return v

    def result(self) -> Optional[dict]:
        if self.winner is None:
            return None
        landlord_wins = self.winner == self.landlord
        # RLCard's payoffs: 1 for each player of the winning side, 0 for the others.
        rewards = [float((i == self.landlord) == landlord_wins) for i in range(3)]
        return {
            "winner": self.winner,
            "landlord": self.landlord,
            "landlord_wins": landlord_wins,
            "rewards": rewards,
            "turns": self.turns,
        }

    def hands_of(self) -> List[str]:
        """Every hand (the referee's view): what the open-hand solver and the tests read."""
        return [" ".join(h) for h in self.hands]


class DoudizhuEnv(_GameEnv):
    """Dou dizhu for three: the landlord (17 cards and the 3 of the bottom) against two farmers, with
    the library's move set (RLCard's under the standard rules, 27,000-odd plays and ``pass``). The
    landlord is drawn by the seed, or chosen by bidding (``bidding=True``: each seat in turn bids 1
    to 3 or passes; a 3, or the highest bid once all have spoken, makes the landlord; if everybody
    passes the cards are dealt again), or given as ``reset``'s ``options={"landlord": seat}``.
    Rewards as RLCard pays them: 1 for each player of the side that goes out first, 0 for the other.

    >>> env = DoudizhuEnv(); env.reset(seed=1)
    >>> env.observation()["role"]
    'landlord'
    """

    metadata = {"render_modes": ["ansi"], "name": "kibitzer_doudizhu_v0", "is_parallelizable": False}

    def __init__(self, bidding: bool = False, variant: str = "standard", render_mode: Optional[str] = None):
        super().__init__(_DoudizhuGame(bidding, variant), render_mode, bidding=bidding, variant=variant)
        self._landlord: Optional[int] = None

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        self._landlord = (options or {}).get("landlord")
        super().reset(seed, options)

    def _options(self) -> dict:
        return {"landlord": self._landlord}

    def _restore_options(self, options: dict) -> None:
        self._landlord = options.get("landlord")

    def _deal(self, seed: int) -> None:
        self.game.reset(seed, self._landlord)

    def _vector(self, agent: str):
        return self.game.observation_vector(self._seat(agent))

    def hands(self) -> List[str]:
        """Every hand (the referee's view, for tests and the open-hand solver)."""
        return self.game.hands_of()

    def _render_view(self, v: dict) -> List[str]:
        if v["phase"] == "bid":
            bids = ", ".join(f"player_{i} {'-' if b is None else b}" for i, b in enumerate(v["bids"]))
            return [f"player_{v['player']} to bid (bids: {bids})", f"hand: {v['hand']}"]
        last = "nothing: a lead" if v["last"] is None else f"{v['last']} by player_{v['last_by']}"
        sizes = ", ".join(str(n) for n in v["hand_sizes"])
        return [
            f"player_{v['player']} to act ({v['role']}); landlord player_{v['landlord']}, bottom {v['bottom']}",
            f"hand: {v['hand']}",
            f"to answer: {last}",
            f"hand sizes: {sizes}",
        ]

    def _render_result(self, result: dict) -> str:
        side = "the landlord" if result["landlord_wins"] else "the farmers"
        return f"over: player_{result['winner']} went out, {side} win; {super()._render_result(result)[len('over: '):]}"


def raw_env(game: str, **kwargs) -> _GameEnv:
    """The environment of a game by name, ``"durak"``, ``"mahjong"`` or ``"doudizhu"``, without
    wrappers: an illegal action raises ``BadInput`` and leaves the game as it was."""
    if game == "durak":
        return DurakEnv(**kwargs)
    if game == "mahjong":
        return MahjongEnv(**kwargs)
    if game == "doudizhu":
        return DoudizhuEnv(**kwargs)
    raise _native.BadInput(f"no environment for `{game}` (durak, mahjong, doudizhu)")


def env(game: str, **kwargs):
    """The environment of a game by name, as PettingZoo's own classic environments come: wrapped so
    that an illegal action ends the game with a reward of -1 for the player who made it
    (``TerminateIllegalWrapper``), an action outside the action space is refused
    (``AssertOutOfBoundsWrapper``) and the AEC calls are checked for their order
    (``OrderEnforcingWrapper``). Without PettingZoo installed it is ``raw_env``."""
    environment = raw_env(game, **kwargs)
    try:
        from pettingzoo.utils import wrappers
    except ImportError:  # pragma: no cover - exercised only without pettingzoo
        return environment
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)


def play(environment: _GameEnv, agents: Iterable, seed: Optional[int] = None) -> dict:
    """Plays one game to its end with one agent per seat (see :mod:`kibitzer.agents`) and
    returns ``result()`` with the number of decisions taken."""
    seats = list(agents)
    environment.reset(seed=seed)
    game = environment.game
    steps = 0
    while not game.is_over():
        environment._play(seats[game.to_act()].act(environment))
        steps += 1
    environment._after_move()
    result = dict(game.result())
    result["steps"] = steps
    return result
