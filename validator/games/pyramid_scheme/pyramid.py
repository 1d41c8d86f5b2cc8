"""One player's pyramid: a tree of cards with the figures the placement rules,
flip conditions and goals read, kept up to date as cards are added, flipped,
given limit tokens or trashed."""

from __future__ import annotations

from .spec import POLICE, VICTIM


class Pyramid:
    """One player's tree of cards.  Node 0 is the founder; a node's parent always
    has a smaller index.  Per node: the card, its parent, the capacity left below
    it (its number + limit tokens - the numbers directly below; -1 where nothing
    may go: an unflipped police or a trashed slot), the colours of unflipped
    victims on its branch (a bit mask), and counts used by conditions and goals."""

    __slots__ = ("card", "parent", "cap", "mask", "flipped", "depth", "nvict", "ccol", "nchild", "fchild", "tok",
                 "passed", "ncol", "fxf", "fxh", "n_victims", "by_color", "by_number", "by_both", "f_color", "f_number",
                 "f_police", "founder_flipped", "limits", "max_depth", "max_fchild", "flips")

    def __init__(self, ncol: int, founder: int = -1, number: int = 0):
        self.ncol = ncol
        self.card = [founder]
        self.parent = [-1]
        self.cap = [number]
        self.mask = [0]
        self.flipped = [False]
        self.depth = [1]
        self.nvict = [0]
        self.ccol = [0] * ncol
        self.nchild = [0]
        self.fchild = [0]
        self.tok = [()]  # the limit tokens on each card (amounts)
        self.passed = []
        self.fxf = [0]  # colours (bits) of which one more victim below would meet the condition
        self.fxh = [0]  # colours (bits) of which one more victim below counts towards it
        self.n_victims = 0
        self.by_color = [0] * ncol
        self.by_number: dict[int, int] = {}
        self.by_both: dict[tuple[int, int], int] = {}
        self.f_color = [0] * ncol
        self.f_number: dict[int, int] = {}
        self.f_police = 0
        self.founder_flipped = False
        self.limits = 0
        self.max_depth = 1
        self.max_fchild = 0
        self.flips = 0  # smart-asses: flipped victims, founder and police

    @classmethod
    def empty(cls, ncol: int) -> "Pyramid":
        """The pyramid of a player who is out: no cards at all."""
        p = cls(ncol)
        for name in ("card", "parent", "cap", "mask", "flipped", "depth", "nvict", "ccol", "nchild", "fchild", "tok",
                     "fxf", "fxh"):
            setattr(p, name, [])
        return p

    def copy(self) -> "Pyramid":
        p = Pyramid.__new__(Pyramid)
        p.ncol = self.ncol
        p.card = self.card[:]
        p.parent = self.parent[:]
        p.cap = self.cap[:]
        p.mask = self.mask[:]
        p.flipped = self.flipped[:]
        p.depth = self.depth[:]
        p.nvict = self.nvict[:]
        p.ccol = self.ccol[:]
        p.nchild = self.nchild[:]
        p.fchild = self.fchild[:]
        p.tok = self.tok[:]
        p.passed = self.passed[:]
        p.fxf = self.fxf[:]
        p.fxh = self.fxh[:]
        p.n_victims = self.n_victims
        p.by_color = self.by_color[:]
        p.by_number = dict(self.by_number)
        p.by_both = dict(self.by_both)
        p.f_color = self.f_color[:]
        p.f_number = dict(self.f_number)
        p.f_police = self.f_police
        p.founder_flipped = self.founder_flipped
        p.limits = self.limits
        p.max_depth = self.max_depth
        p.max_fchild = self.max_fchild
        p.flips = self.flips
        return p

    def __len__(self) -> int:
        return len(self.card)

    def nodes(self):
        """Indices of the cards in the pyramid (trashed slots left out)."""
        return [v for v, c in enumerate(self.card) if c >= 0]

    def add(self, g, c: int, v: int, with_pass: bool = False) -> int:
        """Put card ``c`` directly below node ``v``; return the new node."""
        i = len(self.card)
        n = g.NUM[c]
        self.card.append(c)
        self.parent.append(v)
        self.cap[v] -= n
        self.flipped.append(False)
        self.nvict.append(0)
        self.ccol.extend([0] * self.ncol)
        self.nchild.append(0)
        self.fchild.append(0)
        self.tok.append(())
        self.fxf.append(0)
        self.fxh.append(0)
        self.nchild[v] += 1
        if g.KIND[c] == VICTIM:
            col = g.COL[c]
            self.cap.append(n)
            self.mask.append(self.mask[v] | g.CBIT[c])
            d = self.depth[v] + 1
            self.depth.append(d)
            if d > self.max_depth:
                self.max_depth = d
            self.nvict[v] += 1
            self.ccol[v * self.ncol + col] += 1
            self.n_victims += 1
            self.by_color[col] += 1
            self.by_number[n] = self.by_number.get(n, 0) + 1
            key = (col, n)
            self.by_both[key] = self.by_both.get(key, 0) + 1
            if with_pass:
                self.passed.append(i)
            self.refx(g, v)
            if g.NEED_TOTAL[c]:
                self.refx(g, i)
        else:  # a police: nothing below it until flipped; not a level of a branch
            self.cap.append(-1)
            self.mask.append(self.mask[v])
            self.depth.append(self.depth[v])
        return i

    def refx(self, g, v: int) -> None:
        """Refresh what one more victim below ``v`` would do to v's condition:
        ``fxf[v]``, the colours (bits) of which one would meet it, ``fxh[v]``,
        those of which one would count towards it.  Public facts observers
        read (the rules decide with :meth:`condition_met`)."""
        c = self.card[v]
        need = g.NEED[c]
        if not g.NEED_TOTAL[c] or self.flipped[v] or g.KIND[c] == POLICE:
            self.fxf[v] = self.fxh[v] = 0
            return
        total = g.NEED_TOTAL[c]
        nv = self.nvict[v]
        base = v * self.ncol
        bits = short = 0
        for k, n in need:
            d = n - self.ccol[base + k]
            if d > 0:
                bits |= 1 << k
                short += d
        every = (1 << self.ncol) - 1
        self.fxh[v] = every if nv + short < total else bits
        flip = 0
        if nv + 1 >= total and (not g.exact or nv + 1 == total):
            flip = every if short == 0 else bits if short == 1 else 0
        self.fxf[v] = flip

    def flip(self, g, u: int) -> None:
        c = self.card[u]
        self.flipped[u] = True
        self.fxf[u] = self.fxh[u] = 0
        self.flips += 1
        k = g.KIND[c]
        if k == VICTIM:
            self.f_color[g.COL[c]] += 1
            n = g.NUM[c]
            self.f_number[n] = self.f_number.get(n, 0) + 1
            self._remask(g, u)
        elif k == POLICE:
            self.cap[u] = g.NUM[c] + sum(self.tok[u])
            n = g.NUM[c]
            self.f_number[n] = self.f_number.get(n, 0) + 1
            self.f_police += 1
        else:
            self.founder_flipped = True
        p = self.parent[u]
        if p >= 0:
            self.fchild[p] += 1
            if self.fchild[p] > self.max_fchild:
                self.max_fchild = self.fchild[p]

    def _remask(self, g, u: int) -> None:
        """Colours on branches below ``u`` after it flipped (parents precede children)."""
        card, parent, mask, flipped, cbit = self.card, self.parent, self.mask, self.flipped, g.CBIT
        for w in range(u, len(card)):
            c = card[w]
            if c < 0:
                continue
            p = parent[w]
            base = mask[p] if p >= 0 else 0
            mask[w] = base if flipped[w] else base | cbit[c]

    def add_limit(self, v: int, amount: int) -> None:
        """Put a +``amount`` limit token on node ``v``."""
        self.tok[v] += (amount,)
        self.limits += 1
        if self.cap[v] >= 0:  # an unflipped police gets its room when it flips
            self.cap[v] += amount

    def remove_leaf(self, g, u: int) -> int:
        """Take a childless card out (trash a police) with its limit tokens; return the card."""
        self.limits -= len(self.tok[u])
        self.tok[u] = ()
        c = self.card[u]
        p = self.parent[u]
        self.cap[p] += g.NUM[c]
        self.nchild[p] -= 1
        if self.flipped[u]:
            self.flips -= 1
            n = g.NUM[c]
            self.f_number[n] -= 1
            self.f_police -= 1
            self.fchild[p] -= 1
            self.max_fchild = max(self.fchild)
        self.card[u] = -1
        self.cap[u] = -1
        self.flipped[u] = False
        return c

    def condition_met(self, g, v: int) -> bool:
        c = self.card[v]
        need = g.NEED[c]
        if not g.NEED_TOTAL[c]:
            return False
        nv = self.nvict[v]
        total = g.NEED_TOTAL[self.card[v]]
        if nv < total or (g.exact and nv != total):
            return False
        base = v * self.ncol
        ccol = self.ccol
        for k, n in need:
            if ccol[base + k] < n:
                return False
        return True

    def victims(self, col: int = -1, num=None) -> int:
        if col < 0:
            return self.n_victims if num is None else self.by_number.get(num, 0)
        if num is None:
            return self.by_color[col]
        return self.by_both.get((col, num), 0)


