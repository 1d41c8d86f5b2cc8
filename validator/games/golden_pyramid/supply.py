"""Rules of the supply: cards and cubes, the market, and trading (a mixin of the State)."""

from __future__ import annotations

from bisect import insort

from validator.kit import shuffle

from .constants import KEEP, KEEP_LIMIT, KEEP_SET, MAIN, MARKET, OFFER, RETURN

MARKET_TRIES = 100  # redraws of a market showing 3 of a colour before it is left as it is


def _masks(m: int, k: int, exact: bool) -> list[int]:
    return [mask for mask in range(1 << m) if (bin(mask).count("1") == k if exact else bin(mask).count("1") <= k)]


# KEEP masks by cards drawn and cards that may be kept: up to k (rule keep-fewer), or exactly k
MASKS_UP_TO = [[_masks(m, k, False) for k in range(KEEP_LIMIT + 1)] for m in range(10)]
MASKS_EXACT = [[_masks(m, k, True) for k in range(KEEP_LIMIT + 1)] for m in range(10)]
KEEP_ACTIONS: dict = {}  # the keep actions by (cards drawn, cards kept, keep-fewer, places repeating a design)


class Supply:
    __slots__ = ()

    # ------------------------------------------------------------------ cards
    def _to_hand(self, p: int, d: int) -> None:
        hand = self.hands[p]
        if not hand[d]:
            insort(self.held[p], d)
        hand[d] += 1
        self.hand_n[p] += 1
        self.hand_col[p][self.g.d_col[d]] += 1

    def _from_hand(self, p: int, d: int) -> None:
        hand = self.hands[p]
        hand[d] -= 1
        if not hand[d]:
            self.held[p].remove(d)
        self.hand_n[p] -= 1
        self.hand_col[p][self.g.d_col[d]] -= 1

    def _play(self, p: int, d: int) -> None:
        """A card played for an action goes to the discard pile at once."""
        self._from_hand(p, d)
        self.discard.append(d)

    def _draw_card(self) -> int:
        """The top card of the deck (the discard pile reshuffled first when the deck is empty); -1: none.
        A determinized copy's deck is unordered (``lazy``): its top card is a random one."""
        if self.undealt >= 0:
            self._deal()
        deck = self.deck
        if not deck:
            if not self.discard:
                return -1
            deck, self.deck, self.discard = self.discard, self.discard, []
            if not self.lazy:
                shuffle(self.chance, deck)
            self.cnt["reshuffles"] += 1
            if self.log is not None:
                self._event(f"the discard pile ({len(deck)} cards) is shuffled into a new deck")
        if self.lazy:
            n = len(deck)
            if n > 1:
                getrandbits = self.chance.getrandbits
                bits = self.g.bits[n - 1]
                j = getrandbits(bits)
                while j >= n:
                    j = getrandbits(bits)
                d = deck[j]
                deck[j] = deck[-1]
                deck[-1] = d
        return deck.pop()

    def _draw_for_choice(self, p: int, k: int) -> None:
        """Action b: draw ``k`` cards and choose up to three to keep."""
        if self.undealt >= 0:
            self._deal()
        deck = self.deck
        if len(deck) >= k and not self.lazy:  # the top k cards (their order does not matter: sorted)
            drawn = deck[-k:]
            del deck[-k:]
        else:
            drawn = []
            for _ in range(k):
                x = self._draw_card()
                if x < 0:
                    break
                drawn.append(x)
        drawn.sort()
        self.pend_cards = drawn
        self.pend_keep = KEEP_LIMIT
        if not drawn:
            self._end_turn()
        elif len(drawn) <= KEEP_LIMIT and not self.g.keep_fewer:
            self._keep(p, (1 << len(drawn)) - 1)  # no choice: every drawn card is kept
        else:
            self.phase = KEEP

    def _keep_legal(self) -> list[int]:
        """Every way to keep three of the drawn cards (up to three with the rule keep-fewer), identical
        cards counted once."""
        drawn = self.pend_cards
        m = len(drawn)
        dups = 0  # places holding the same design as the place before
        for i in range(1, m):
            if drawn[i] == drawn[i - 1]:
                dups |= 1 << i
        fewer = self.g.keep_fewer
        key = (m, min(self.pend_keep, m), fewer, dups)
        acts = KEEP_ACTIONS.get(key)
        if acts is None:
            masks = (MASKS_UP_TO if fewer else MASKS_EXACT)[key[0]][key[1]]
            dup = [i for i in range(1, m) if dups >> i & 1]
            # a copy may be kept only if the identical copy before it is kept too
            acts = KEEP_ACTIONS[key] = tuple(KEEP_SET + mask for mask in masks
                                             if all(not mask >> i & 1 or mask >> (i - 1) & 1 for i in dup))
        return list(acts)

    def _keep(self, p: int, mask: int) -> None:
        drawn = self.pend_cards
        hand, held, hand_col, col = self.hands[p], self.held[p], self.hand_col[p], self.g.d_col
        kept = 0
        for i, d in enumerate(drawn):
            if mask >> i & 1:
                if not hand[d]:
                    insort(held, d)
                hand[d] += 1
                hand_col[col[d]] += 1
                kept += 1
            else:
                self.discard.append(d)
        self.hand_n[p] += kept
        if self.log is not None:
            kept = ", ".join(self.g.d_name[d] for i, d in enumerate(drawn) if mask >> i & 1) or "nothing"
            self._event(f"P{p + 1} keeps {kept}")
        self.pend_cards = []
        self._end_turn()

    # ------------------------------------------------------------------ cubes
    def _draw_cube(self) -> int:
        """A random cube from the bag (its colour), or -1 when the bag is empty."""
        n = self.bag_n
        if n == 0:
            return -1
        getrandbits = self.chance.getrandbits  # what randrange(n) draws
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        bag = self.bag
        c = 0
        while r >= bag[c]:
            r -= bag[c]
            c += 1
        bag[c] -= 1
        self.bag_n = n - 1
        return c

    def _draw_cubes(self, p: int, k: int) -> None:
        """Action a: draw ``k`` cubes, keep half rounded up (the player puts the others back)."""
        pend = self.pend_cubes
        bag = self.bag
        n = self.bag_n
        drawn = k if k < n else n
        getrandbits = self.chance.getrandbits
        for _ in range(drawn):  # as _draw_cube
            bits = n.bit_length()
            r = getrandbits(bits)
            while r >= n:
                r = getrandbits(bits)
            c = 0
            while r >= bag[c]:
                r -= bag[c]
                c += 1
            bag[c] -= 1
            n -= 1
            pend[c] += 1
        self.bag_n = n
        if self.log is not None:
            g = self.g
            self._event(f"P{p + 1} draws {drawn} cube(s): "
                        + ", ".join(f"{pend[c]} {g.colours[c]}" for c in range(g.K) if pend[c]))
        self.pend_ret = drawn // 2
        self._returns_done()

    def _return_cube(self, c: int) -> None:
        self.pend_cubes[c] -= 1
        self.bag[c] += 1
        self.bag_n += 1
        self.pend_ret -= 1

    def _returns_done(self) -> None:
        """Put back half the drawn cubes: the player chooses, unless one colour is all that is left."""
        pend = self.pend_cubes
        if self.pend_ret:
            if len(pend) - pend.count(0) > 1:  # cubes of two colours or more
                self.phase = RETURN
                return
            c = 0  # one colour drawn: its cubes go back
            while not pend[c]:
                c += 1
            while self.pend_ret:
                self._return_cube(c)
        p = self.cur
        cubes = self.cubes[p]
        kept = 0
        for c, k in enumerate(pend):
            if k:
                cubes[c] += k
                kept += k
                pend[c] = 0
        self.cube_n[p] += kept
        self._end_turn()

    # ------------------------------------------------------------------ the market
    def _fill_market(self, size: int) -> None:
        market = self.market
        for _ in range(size):
            c = self._draw_cube()
            if c < 0:
                break
            market[c] += 1
            self.market_n += 1

    def _check_market(self) -> None:
        """Three or more of one colour: the market goes back in the bag and is drawn again until it shows
        no such colour; when bag and market together cannot make such a market, it stays as it is."""
        market = self.market
        if max(market) < 3:
            return
        K = self.g.K
        size = self.market_n
        if sum(min(self.bag[c] + market[c], 2) for c in range(K)) < size:
            self.cnt["market_stuck"] += 1
            if self.log is not None:
                self._event("the market shows 3 of a colour, but the bag cannot give a better one: it stays")
            return
        for _ in range(MARKET_TRIES):
            for c in range(K):
                self.bag[c] += market[c]
                market[c] = 0
            self.bag_n += size
            self.market_n = 0
            self._fill_market(size)
            self.cnt["market_replaced"] += 1
            if max(market) < 3:
                break
        else:
            self.cnt["market_stuck"] += 1
        if self.log is not None:
            self._event("the market shows 3 of a colour and is replaced: " + self._market_text())

    def _market_text(self) -> str:
        return ", ".join(f"{self.market[c]} {self.g.colours[c]}" for c in range(self.g.K) if self.market[c]) or "empty"

    def _refresh_market(self, p: int) -> None:
        """Optional rule: draw as many cubes as the market holds, then the old market goes back to the bag."""
        old = self.market[:]
        size = self.market_n
        self.market = [0] * self.g.K
        self.market_n = 0
        self._fill_market(size)
        for c in range(self.g.K):
            self.bag[c] += old[c]
        self.bag_n += sum(old)
        self.cnt["refreshes"] += 1
        if self.log is not None:
            self._event(f"P{p + 1} refreshes the market: {self._market_text()}")
        self._check_market()

    def _market_trades(self, p: int) -> list[int]:
        K = self.g.K
        mine = self.cubes[p]
        market = self.market
        acts = []
        for take in range(K):
            if not market[take]:
                continue
            for give in range(K):
                if not mine[give]:
                    continue
                base = MARKET + (take * K + give) * K
                for out in range(K):
                    if mine[out] - (out == give) > 0:
                        acts.append(base + out)
        return acts

    def _market_trade(self, p: int, code: int) -> None:
        K = self.g.K
        take, rest = divmod(code, K * K)
        give, out = divmod(rest, K)
        cubes = self.cubes[p]
        self.market[take] -= 1
        cubes[take] += 1
        cubes[give] -= 1
        self.market[give] += 1
        cubes[out] -= 1
        self.bag[out] += 1
        self.bag_n += 1
        self.cube_n[p] -= 1
        self.cnt["market_trades"] += 1
        if self.log is not None:
            cn = self.g.colours
            self._event(f"P{p + 1} takes a {cn[take]} column from the market for a {cn[give]} one and puts a "
                        f"{cn[out]} one in the bag")
        self._check_market()
        self._end_turn()

    # ------------------------------------------------------------------ trading with a player
    def _can_offer(self, p: int) -> bool:
        """Whether player ``p`` may offer a trade: a player not asked yet this turn holds a cube of another
        colour than one of ``p``'s.  With cubes of two colours or more any player holding a cube does (if
        all his cubes are of one of them, none is of the other: ``cube_n`` counts a player's cubes); with
        one colour, one holding a cube of another colour."""
        mine = self.cubes[p]
        kinds = len(mine) - mine.count(0)
        if not kinds:
            return False
        cube_n, offered = self.cube_n, self.offered
        if kinds >= 2:
            for q in range(self.n):
                if q != p and cube_n[q] and not offered >> q & 1:
                    return True
            return False
        c = mine.index(max(mine))  # the one colour
        cubes = self.cubes
        for q in range(self.n):
            if q != p and cube_n[q] > cubes[q][c] and not offered >> q & 1:
                return True
        return False

    def _offers(self, p: int) -> list[int]:
        K = self.g.K
        mine = self.cubes[p]
        acts = []
        for q in range(self.n):
            if q == p or self.offered >> q & 1:
                continue
            theirs = self.cubes[q]
            for give in range(K):
                if mine[give]:
                    base = OFFER + (q * K + give) * K
                    acts.extend(base + take for take in range(K) if take != give and theirs[take])
        return acts

    def _answer(self, accept: bool) -> None:
        q, give, take = self.offer
        p = self.tp
        self.offer = None
        self.cur = p
        if not accept:
            self.offered |= 1 << q
            if self.log is not None:
                self._event(f"P{q + 1} declines")
            self.phase = MAIN
            return
        mine, theirs = self.cubes[p], self.cubes[q]
        mine[give] -= 1
        theirs[give] += 1
        theirs[take] -= 1
        mine[take] += 1
        self.cnt["trades"] += 1
        if not self.pv_own:
            self._own_pv()
        self.pv["accepted"][q] += 1
        self.pv["traded"][p] += 1
        self.pv["traded"][q] += 1
        self.trade_log.append((p, q))
        if self.log is not None:
            self._event(f"P{q + 1} accepts")
        self._end_turn()
