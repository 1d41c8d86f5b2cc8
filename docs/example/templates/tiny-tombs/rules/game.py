"""Tiny Tombs: the deck compiled from the sheet, and the rules."""

from collections import Counter
from dataclasses import dataclass, field

from validator.kit import TERMINAL, Game, GameRecord, IllegalAction, RulesError, State, shuffle

POWERS = {"scarab": "steal", "mask": "guarded", "urn": "draw", "ankh": "swap"}
HAND = 2  # cards dealt to each player at the start of an expedition
SET_BONUS = 5  # for a hoard holding a relic of every colour


class TombsGame(Game):
    """The cards of the sheet as numbers: design d has ids[d], value[d], colour[d], power[d]."""

    def __init__(self, spec, data, players, expeditions=3):
        self.spec, self.players, self.expeditions = spec, players, expeditions
        relics, curses = data.deck("relic"), data.deck("curse")
        cards = relics + curses
        if not relics or sum(c.count for c in cards) < HAND * players:
            raise RulesError(f"cards.csv: {players} players need relics and at least {HAND * players} cards")
        self.ids = [c.id for c in cards]
        self.value = [c.number or 0 for c in relics] + [0] * len(curses)
        self.colour = [c.color for c in relics] + [""] * len(curses)
        self.power = [POWERS.get(c.id, "") for c in relics] + ["curse"] * len(curses)
        self.colours = set(self.colour[:len(relics)])
        self.box = [d for d, c in enumerate(cards) for _ in range(c.count)]
        self.designs = len(cards)
        n, D = players, self.designs
        self.steal0, self.swap0, self.keep = D, 2 * D, 2 * D + n * D  # action codes, see TombsState.legal_actions

    def new_initial_state(self, chance):
        return TombsState(self, chance)

    def components(self):
        return Counter(self.ids[d] for d in self.box)

    def hoard_points(self, hoard):
        full = len(self.colours) > 1 and self.colours <= {self.colour[d] for d in hoard}
        return sum(self.value[d] for d in hoard) + (SET_BONUS if full else 0)


@dataclass(frozen=True)
class Seen:
    """What one seat sees: its hand, every hoard, the discard pile, pile sizes, the scores."""

    me: int
    to_act: int
    choosing: str
    hand: tuple
    hand_sizes: tuple
    hoards: tuple
    discard: tuple
    tomb: int
    totals: tuple
    game: TombsGame = field(compare=False, repr=False)


class TombsState(State):
    def __init__(self, game, chance):
        self.game, self.chance = game, chance
        n = game.players
        self.totals = [0] * n
        self.expedition, self.turns, self.rounds, self.decisions = 0, 0, 0, 0
        self.end, self.winners = "", []
        self.counts = Counter()  # steals, swaps, curses ...
        self.used = Counter()  # (what happened, card id) for the report
        self.start_expedition()

    # -------------------------------------------------------------- the flow of play
    def start_expedition(self):
        g, n = self.game, self.game.players
        self.tomb = self.chance.shuffled(list(g.box))
        self.discard = []
        self.hands = [sorted(self.tomb.pop() for _ in range(HAND)) for _ in range(n)]
        self.hoards = [[] for _ in range(n)]
        self.first = self.expedition % n  # the start player moves one seat left each expedition
        self.player, self.choosing = self.first, ""
        self.begin_turn()

    def begin_turn(self):
        """The player to act draws; a player with nothing to draw or play is skipped."""
        n = self.game.players
        for _ in range(n):
            if self.tomb or self.hands[self.player]:
                break
            self.player = (self.player + 1) % n
        else:
            return self.end_expedition()
        self.turns += 1
        if self.player == self.first:
            self.rounds += 1
        if self.tomb:
            self.draw(self.player)

    def draw(self, p):
        if self.tomb:
            self.hands[p].append(self.tomb.pop())
            self.hands[p].sort()

    def end_turn(self):
        self.choosing = ""
        self.player = (self.player + 1) % self.game.players
        self.begin_turn()

    def end_expedition(self):
        g = self.game
        for p, hoard in enumerate(self.hoards):
            self.totals[p] += g.hoard_points(hoard)
        if self.log is not None:
            self.log.append(f"-- expedition {self.expedition + 1} ends; totals {self.totals}")
        self.expedition += 1
        if self.expedition < g.expeditions:
            return self.start_expedition()
        best = max(self.totals)
        self.winners = [p for p, t in enumerate(self.totals) if t == best]
        self.end = "richest" if len(self.winners) == 1 else "shared"
        self.player = TERMINAL

    # -------------------------------------------------------------- the protocol
    def current_player(self):
        return self.player

    def is_terminal(self):
        return self.player == TERMINAL

    def targets(self, me):
        """(player, design) of the relics this player's power may take."""
        g, n = self.game, self.game.players
        owners = [(me + 1) % n] if self.choosing == "steal" else [q for q in range(n) if q != me]
        return sorted({(q, d) for q in owners for d in self.hoards[q] if g.power[d] != "guarded"})

    def legal_actions(self, player=None):
        g = self.game
        if self.player == TERMINAL:
            return []
        if self.choosing == "steal":
            return sorted({g.steal0 + d for q, d in self.targets(self.player)})
        if self.choosing == "swap":
            return [g.swap0 + q * g.designs + d for q, d in self.targets(self.player)] + [g.keep]
        return sorted(set(self.hands[self.player]))

    def apply_action(self, action):
        if action not in self.legal_actions():
            raise IllegalAction(f"P{self.player + 1} cannot {self.action_to_string(action)} now; "
                                f"legal: {[self.action_to_string(a) for a in self.legal_actions()]}")
        self.apply_unchecked(action)

    def apply_unchecked(self, action):
        g, me, n = self.game, self.player, self.game.players
        self.decisions += 1
        if self.choosing == "steal":
            d, left = action - g.steal0, (me + 1) % n
            self.move(d, self.hoards[left], self.hoards[me], "stolen")
        elif self.choosing == "swap":
            if action != g.keep:
                q, d = divmod(action - g.swap0, g.designs)
                ankh = next(a for a in self.hoards[me] if g.power[a] == "swap")
                self.move(d, self.hoards[q], self.hoards[me], "swapped")
                self.move(ankh, self.hoards[me], self.hoards[q], "")
        else:
            self.hands[me].remove(action)
            return self.play(me, action)
        self.end_turn()

    def play(self, me, d):
        g = self.game
        self.used[("played", g.ids[d])] += 1
        if g.power[d] == "curse":
            self.counts["curses"] += 1
            if self.hoards[me]:
                best = max(self.hoards[me], key=lambda x: (g.value[x], x))
                self.move(best, self.hoards[me], self.discard, "cursed")
            else:
                self.counts["curses_harmless"] += 1
            target = self.hands[(me + 1) % g.players] if self.tomb else self.discard
            target.append(d)
            target.sort()
            return self.end_turn()
        self.hoards[me].append(d)
        self.hoards[me].sort()
        if g.power[d] == "draw":
            self.draw(me)
        if g.power[d] in ("steal", "swap"):
            self.choosing = g.power[d]
            if self.targets(me):
                return  # the same player chooses the target
        self.end_turn()

    def move(self, d, source, target, why):
        source.remove(d)
        target.append(d)
        target.sort()
        if why:
            self.used[(why, self.game.ids[d])] += 1
            self.counts[{"stolen": "steals", "swapped": "swaps", "cursed": "cursed_relics"}[why]] += 1

    def returns(self):
        return [1 / len(self.winners) if p in self.winners else 0.0 for p in range(self.game.players)]

    def stop(self, reason):
        self.player, self.end, self.winners = TERMINAL, reason, []

    def record(self):
        n = self.game.players
        return GameRecord(seats=list(range(n)), winners=list(self.winners), turns=self.turns, rounds=self.rounds,
                          actions=self.decisions, end=self.end, scores=list(self.totals), counters=dict(self.counts),
                          details={"used": dict(self.used)})

    # -------------------------------------------------------------- what each seat may see
    def observe(self, player):
        return Seen(player, self.player, self.choosing, tuple(self.hands[player]), tuple(map(len, self.hands)),
                    tuple(map(tuple, self.hoards)), tuple(sorted(self.discard)), len(self.tomb),
                    tuple(self.totals), self.game)

    def determinize(self, player, chance):
        """A copy where the tomb and the other hands are dealt again from what this player cannot see."""
        s = self.clone()
        unseen = s.tomb + [d for q, h in enumerate(s.hands) if q != player for d in h]
        shuffle(chance, unseen)
        for q, h in enumerate(s.hands):
            if q != player:
                s.hands[q] = sorted(unseen.pop() for _ in h)
        s.tomb = unseen
        return s

    def clone(self):
        s = TombsState.__new__(TombsState)
        s.__dict__.update(self.__dict__)
        s.chance, s.log = self.chance.copy(), None
        s.tomb, s.discard, s.totals = list(self.tomb), list(self.discard), list(self.totals)
        s.hands, s.hoards = [list(h) for h in self.hands], [list(h) for h in self.hoards]
        s.winners, s.counts, s.used = list(self.winners), Counter(self.counts), Counter(self.used)
        return s

    def zones(self):
        ids = self.game.ids
        out = {"tomb": [ids[d] for d in self.tomb], "discard": [ids[d] for d in self.discard]}
        for p in range(self.game.players):
            out[f"hand P{p + 1}"] = [ids[d] for d in self.hands[p]]
            out[f"hoard P{p + 1}"] = [ids[d] for d in self.hoards[p]]
        return out

    def standings(self):
        return [t + self.game.hoard_points(h) for t, h in zip(self.totals, self.hoards)]

    def position_key(self):
        return (self.expedition, self.player, self.choosing, tuple(self.tomb), tuple(map(tuple, self.hands)),
                tuple(map(tuple, self.hoards)))

    def action_to_string(self, action):
        g = self.game
        if self.choosing == "steal":
            return f"steal {g.ids[action - g.steal0]}"
        if self.choosing == "swap":
            if action == g.keep:
                return "keep the ankh"
            q, d = divmod(action - g.swap0, g.designs)
            return f"swap for P{q + 1}'s {g.ids[d]}"
        return f"play {g.ids[action]}"

    def describe(self):
        g = self.game
        lines = [f"expedition {self.expedition + 1}, tomb {len(self.tomb)}, totals {self.totals}"]
        for p in range(g.players):
            lines.append(f"P{p + 1}: hand {[g.ids[d] for d in self.hands[p]]}, "
                         f"hoard {[g.ids[d] for d in self.hoards[p]]}")
        return "\n".join(lines)
