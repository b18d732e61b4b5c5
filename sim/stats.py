"""Summary statistics of a batch run: win rates with Wilson intervals, mean points.

The simulator (:mod:`sim.batch`) feeds every chunk of result rows to a
:class:`RunningStats`, so a summary of any number of deals needs memory for
a few counters only. :meth:`RunningStats.summary` turns the counters into a
:class:`Summary`, printed as a table (:meth:`Summary.format_table`) or as one
JSON object (:meth:`Summary.to_dict`).

Definitions (RULES R8)
----------------------
deals
    Rows played: with ``duplicate`` every distinct deal is played once per
    rotation (``rotations`` = number of sides), so ``deals = distinct_deals *
    rotations``. ``deals_per_s = deals / sim_seconds``.
side ``k``
    The seats ``s`` with ``s % sides == k`` (R3) and the policies they hold in
    rotation 0. Without ``duplicate`` a side's policies never move. With
    ``duplicate`` they move one seat per rotation, and a side's wins are
    counted wherever its policies sit: ``sides[k]`` then measures the policies,
    not the seats (``positions`` keeps the per-seat view).
wins, draws, losses
    A side wins a deal when the engine names it the winner (R8). A draw
    (winner -1) counts as a draw for every side whose points equal the highest
    total (both sides at 60-60; with three players the seats tied on top) and
    as a loss for the others.
win_rate, win_rate_ci95
    ``wins / deals`` and its 95% Wilson score interval.
score, score_ci95
    ``(wins + draws / 2) / deals`` (draws count half) and its Wilson interval
    (taking the games as independent trials; with ``duplicate`` the games of
    a pair, one per rotation, are correlated, so this interval can be too
    narrow or too wide: 2-player heuristic against random pairs are wider
    than it, 6-player ones narrower; ``pair_score_ci95`` is the one for the
    paired design).
pair_score_ci95
    ``duplicate`` only: normal 95% interval of the mean over pairs of the
    pair's mean score, the interval that matches the paired design.
mean_points, mean_points_se
    Mean card points of the side (0-120 a deal) and its standard error
    (taking the games as independent, as ``score_ci95``).
pair_win_rate_ci95
    ``duplicate`` only: the same for the win rate (normal 95% interval of
    the mean over pairs of the pair's win rate; ``win_rate_ci95`` stays the
    games' Wilson interval).
pair_mean_points_se
    ``duplicate`` only: the standard error of the mean points over pairs of
    the pair's mean points (the paired design; NaN with one pair), the one
    the text summary prints with ``duplicate``.
positions
    Per side of the table, whatever policy sits there: the same figures
    (``wins``, ``draws``, rates, their Wilson intervals over games, mean
    points); with ``duplicate`` also ``pair_win_rate_ci95``,
    ``pair_score_ci95`` and ``pair_mean_points_se`` over the pairs (a pair's
    rotations play one deal's cards at that position: no independent games),
    which the text summary's "by seat position" lines print (break-it pass 43).
mean_points_diff, mean_points_diff_se, mean_points_diff_ci95
    Two sides only (2, 4 and 6 players; None with three): side 0's mean
    points less side 1's, its standard error and its normal 95% interval.
    The two sides' points add up to 120 every deal (R8 counts points per
    side; R2, R3: the cards in play hold 120), so the difference is
    ``2 * mean_points - 120`` of side 0 and its error twice that side's
    (``pair_mean_points_se`` with ``duplicate``, else ``mean_points_se``):
    not ``sqrt(se0**2 + se1**2)``, which takes two perfectly anti-correlated
    figures as independent. The interval excludes 0 when the difference is
    significant at 5%.
mean_margin, mean_margin_se, mean_margin_ci95
    Two sides only (None with three): the mean over deals of the margin
    ``|side 0 - side 1|`` in card points (the winner's points less the
    loser's; a 60-60 draw counts 0), its standard error (over the deal
    pairs with ``duplicate``, a pair's rotations not being independent)
    and its normal 95% interval: the text summary's ``margin`` line.
"""
from __future__ import annotations

import json
import math
import numbers
import os
from dataclasses import dataclass, field

import numpy as np

from .cards import printable, show_repr
from .checks import check_int

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (E. B. Wilson, "Probable inference, the law of
    succession, and statistical inference", JASA 22, 1927).

    With ``p = successes / n`` the interval is ``(c - h, c + h)``, ``c = (p + z**2 / (2n)) / (1 + z**2 / n)``,
    ``h = z * sqrt(p (1 - p) / n + z**2 / (4 n**2)) / (1 + z**2 / n)``, clamped to ``[0, 1]`` and so that it
    holds ``p``.

    Parameters
    ----------
    successes : float
        Successes (may be fractional, e.g. wins plus half the draws).
    n : int
        Trials.
    z : float
        Normal quantile; the default gives a 95% interval.

    Returns
    -------
    (float, float)
        Lower and upper bound in ``[0, 1]``; ``(0.0, 1.0)`` when ``n == 0``.

    Raises
    ------
    ValueError
        If ``n`` is not an integer 0 or more, ``successes`` not a number in ``[0, n]`` (NaN is not), or ``z``
        not a positive finite number (break-it pass 38: ``n=inf`` gave ``(0.0, 0.0)``, ``n=0.5`` an interval,
        ``z=-1.96`` or NaN the zero-width ``(p, p)``).

    Examples
    --------
    >>> [round(x, 4) for x in wilson_interval(81, 263)]
    [0.2553, 0.3662]
    """
    n = check_int(n, "n", hi=math.inf, expected="an integer 0 or more (trials)")
    if not _is_real(successes) or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n, got successes={show_repr(successes)}, n={n}")
    if not _is_real(z) or not 0 < z < math.inf:
        raise ValueError(f"z: expected a positive finite normal quantile, got {show_repr(z)}")
    if n == 0:
        return (0.0, 1.0)
    successes, z = float(successes), float(z)  # (Python numbers: numpy ones gave np.float64 bounds)
    p = successes / n
    z2 = z * z
    den = 1.0 + z2 / n
    centre = (p + z2 / (2.0 * n)) / den  # (2.0: 2 * n overflowed for numpy int64 n >= 2**62, mutation pass 22)
    half = z * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / den
    # the interval holds p; rounding must not push a bound past it (p = 0 or 1)
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def _is_real(value) -> bool:
    """Whether ``value`` is a real number (Python or numpy; a bool is not, nor a string or None)."""
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def mean_se(total: float, total_sq: float, n: int) -> tuple[float, float]:
    """Mean and standard error of the mean from a sum and a sum of squares.

    Uses the sample standard deviation (``n - 1``); one value has no spread to estimate, so its error is NaN
    (a one-deal run printed ``± se 0.00``, a certainty it does not have, where its pair interval says
    ``[0, 1]``: review of 2026-12-07).

    Parameters
    ----------
    total, total_sq : float
        Sum and sum of squares of the ``n`` values (here card points).
    n : int
        Number of values.

    Returns
    -------
    (float, float)
        Mean and its standard error, in the values' units; ``(nan, nan)`` when ``n == 0``, ``(mean, nan)``
        when ``n == 1``.

    Raises
    ------
    ValueError
        If ``n`` is not an integer 0 or more, ``total`` or ``total_sq`` is not a finite number, or
        ``total_sq`` is negative (break-it pass 38: a NaN sum gave a standard error of 0.0, as certain as
        equal values, and ``n=-1`` a mean of -0.0).
    """
    n = check_int(n, "n", hi=math.inf, expected="an integer 0 or more (values)")
    for name, v in (("total", total), ("total_sq", total_sq)):
        if not _is_real(v) or not math.isfinite(v):
            raise ValueError(f"{name}: expected a finite number, got {show_repr(v)}")
    if total_sq < 0:
        raise ValueError(f"total_sq: a sum of squares is 0 or more, got {show_repr(total_sq)}")
    if n == 0:
        return (float("nan"), float("nan"))
    # (a Python float: the counters are numpy integers, and np.float64(...) read badly in a summary's repr)
    mean = float(total) / float(n)
    if n < 2:
        return (mean, float("nan"))
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1))
    return (mean, math.sqrt(var / n))


class RunningStats:
    """Counters of a run, updated chunk by chunk (memory independent of the deal count).

    Parameters
    ----------
    players, sides : int
        Table shape (RULES R3).
    rotations : int
        Rows per distinct deal (1, or ``sides`` with ``duplicate``).
    """

    def __init__(self, players: int, sides: int, rotations: int):
        self.players = players
        self.sides = sides
        self.rotations = rotations
        self.rows = 0
        self.draws = 0
        self.capotes = 0
        S = sides
        # per side of the table (positions) and per side's policies (entrants)
        self.pos_wins = np.zeros(S, np.int64)
        self.pos_draws = np.zeros(S, np.int64)
        self.pos_pts = np.zeros(S, np.float64)
        self.pos_pts2 = np.zeros(S, np.float64)
        self.ent_wins = np.zeros(S, np.int64)
        self.ent_draws = np.zeros(S, np.int64)
        self.ent_pts = np.zeros(S, np.float64)
        self.ent_pts2 = np.zeros(S, np.float64)
        self.pairs = 0
        # per pair, q = sum over its rotations of 2*win + draw (an integer; pair score = q / (2R)): exact
        # integer sums, so the summary does not depend on how rows are split into chunks
        self.pair_q = [0] * S
        self.pair_q2 = [0] * S
        # per pair, p = sum over its rotations of the side's card points (pair mean points = p / R)
        self.pair_p = [0] * S
        self.pair_p2 = [0] * S
        # per pair, w = the side's wins over its rotations (pair win rate = w / R)
        self.pair_w = [0] * S
        self.pair_w2 = [0] * S
        # two sides: per pair, g = sum over its rotations of the margin |side 0 - side 1| (user study 65c)
        self.margin_p = 0
        self.margin_p2 = 0
        # per pair, the same three sums for each side of the table (position): a pair's rotations play one
        # deal's cards at that position, so they are no independent games either (break-it pass 43)
        self.pos_pair_q = [0] * S
        self.pos_pair_q2 = [0] * S
        self.pos_pair_p = [0] * S
        self.pos_pair_p2 = [0] * S
        self.pos_pair_w = [0] * S
        self.pos_pair_w2 = [0] * S

    def copy(self) -> "RunningStats":
        """An independent copy (:func:`sim.batch.simulate` counts each chunk on a copy, so that an
        interruption while counting leaves the counts of the chunks before it whole).

        Returns
        -------
        RunningStats
            A new object whose arrays and lists are copies: updating one leaves the other as it was.
        """
        c = RunningStats.__new__(RunningStats)
        for k, v in vars(self).items():
            setattr(c, k, v.copy() if isinstance(v, (np.ndarray, list)) else v)
        return c

    def update(self, side_points: np.ndarray, winner: np.ndarray, capote: np.ndarray, row0: int) -> None:
        """Add rows ``row0 .. row0 + m - 1`` of the run.

        Parameters
        ----------
        side_points : ndarray(int, shape=(m, sides))
            Card points per side of the table (0-120).
        winner : ndarray(int, shape=(m,))
            Winning side, -1 for a draw (R8).
        capote : ndarray(bool or int, shape=(m,))
            One side took all 120 points.
        row0 : int
            Row number of the first row; ``row0`` and ``m`` are multiples of
            ``rotations`` (chunks hold whole pairs).

        Raises
        ------
        ValueError
            ``"chunks must hold whole pairs of rows"`` when ``m > 0`` and ``row0`` or ``m`` is not a
            multiple of ``rotations``.
        """
        m = winner.shape[0]
        S, R = self.sides, self.rotations
        if m == 0:
            return
        if row0 % R or m % R:
            raise ValueError("chunks must hold whole pairs of rows")
        sp = np.asarray(side_points, dtype=np.int64)
        win = np.asarray(winner, dtype=np.int64)
        top = sp.max(axis=1)
        drawn = win < 0
        self.rows += m
        self.draws += int(drawn.sum())
        self.capotes += int(np.count_nonzero(capote))
        rot = (row0 + np.arange(m)) % R
        idx = np.arange(m)
        npairs = m // R
        for j in range(S):
            pts = sp[:, j]
            self._tally("pos_", "pos_pair_", j, win == j, drawn & (pts == top), pts)
        self.pairs += npairs
        for k in range(S):
            j = (k - rot) % S  # side of the table holding side k's policies in this rotation
            pts = sp[idx, j]
            self._tally("ent_", "pair_", k, win == j, drawn & (pts == top), pts)
        if S == 2:
            g = np.abs(sp[:, 0] - sp[:, 1]).reshape(npairs, R).sum(axis=1)
            self.margin_p += int(g.sum())
            self.margin_p2 += int((g * g).sum())

    def _tally(self, prefix: str, pair_prefix: str, i: int, w, d, pts) -> None:
        """Add a chunk's rows to side ``i`` of one kind of counters: ``prefix`` ``"pos_"`` (the side of the
        table) or ``"ent_"`` (the side of the policies), ``pair_prefix`` ``"pos_pair_"`` or ``"pair_"``; ``w``
        and ``d`` (bool, shape (m,)) its wins and its share of the draws, ``pts`` (int64, shape (m,)) its card
        points. The wins, draws, points and squared points, and per deal pair the sums ``q``, ``p``, ``w`` and
        their squares (:func:`_pair_sums`)."""
        for name, x in (("wins", int(np.count_nonzero(w))), ("draws", int(np.count_nonzero(d))),
                        ("pts", float(pts.sum())), ("pts2", float((pts * pts).sum()))):
            getattr(self, prefix + name)[i] += x
        for key, (total, total2) in zip("qpw", _pair_sums(w, d, pts, self.rotations)):
            getattr(self, pair_prefix + key)[i] += total
            getattr(self, pair_prefix + key + "2")[i] += total2

    def _pair_rate_ci95(self, total: int, total2: int, u: int) -> list:
        """Normal 95% interval, clipped to [0, 1], of the mean over the pairs of a rate ``x / u`` whose
        per-pair counts ``x`` sum to ``total`` (their squares to ``total2``); ``[0.0, 1.0]`` with one pair
        or none, which have no spread to estimate (rather than a zero-width interval)."""
        if self.pairs <= 1:
            return [0.0, 1.0]
        m, se = mean_se(total / u, total2 / (u * u), self.pairs)
        return [max(0.0, m - Z95 * se), min(1.0, m + Z95 * se)]

    def _pair_figures(self, q: int, q2: int, w: int, w2: int, p: int, p2: int) -> dict:
        """``pair_score_ci95``, ``pair_win_rate_ci95`` and ``pair_mean_points_se`` of a side or a position
        (``duplicate`` only) from its per-pair sums over the rotations and their squares: ``q`` of
        ``2 * win + draw``, ``w`` of wins, ``p`` of card points."""
        R = self.rotations
        return {"pair_score_ci95": self._pair_rate_ci95(q, q2, 2 * R),
                # (the win rate's interval over pairs too: user study 65)
                "pair_win_rate_ci95": self._pair_rate_ci95(w, w2, R),
                # (the points' error over pairs too: over games, a one-deal run drawn 60-60 in both rotations
                # printed "± se 0.00" beside its [0, 1] pair interval: break-it pass 38)
                "pair_mean_points_se": mean_se(p / R, p2 / R ** 2, self.pairs)[1]}

    def summary(self, side_policies: list[str], *, distinct_deals: int, seconds: float, sim_seconds: float,
                **extra) -> "Summary":
        """The :class:`Summary` of the rows added so far.

        Parameters
        ----------
        side_policies : list of str
            Policy label of each side in rotation 0.
        distinct_deals : int
            Deals shuffled (rows / rotations).
        seconds, sim_seconds : float
            Whole run and simulation only (s).
        **extra
            Stored in :attr:`Summary.extra` and merged into the JSON object.

        Returns
        -------
        Summary
            Rates are NaN (and intervals ``[0.0, 1.0]``) when no row was added.
        """
        n = self.rows
        S = self.sides
        sides = []
        for k in range(S):
            wins, draws = int(self.ent_wins[k]), int(self.ent_draws[k])
            d = {
                "side": k,
                "seats": self._seats(k),
                "policy": side_policies[k],
                "games": n,
                "wins": wins,
                "draws": draws,
                "losses": n - wins - draws,
                **_rates(wins, draws, n, self.ent_pts[k], self.ent_pts2[k]),
            }
            if self.rotations > 1:
                d.update(self._pair_figures(self.pair_q[k], self.pair_q2[k], self.pair_w[k], self.pair_w2[k],
                                            self.pair_p[k], self.pair_p2[k]))
            sides.append(d)
        positions = []
        for j in range(S):
            wins, draws = int(self.pos_wins[j]), int(self.pos_draws[j])
            positions.append({
                "side": j,
                "seats": self._seats(j),
                "wins": wins,
                "draws": draws,
                # (score too, the seat-fair first-lead score: new-user pass of 2026-12-06, sixth part)
                **_rates(wins, draws, n, self.pos_pts[j], self.pos_pts2[j]),
            })
            if self.rotations > 1:  # (over pairs, as the sides' and the draw rate's: break-it pass 43)
                positions[-1].update(self._pair_figures(self.pos_pair_q[j], self.pos_pair_q2[j], self.pos_pair_w[j],
                                                        self.pos_pair_w2[j], self.pos_pair_p[j], self.pos_pair_p2[j]))
        margin = None
        if S == 2:  # (user study 65c: the margin of victory had to be computed from the parquet)
            mean, se = mean_se(self.margin_p / self.rotations, self.margin_p2 / self.rotations ** 2,
                               self.pairs)
            margin = {"mean_margin": mean, "mean_margin_se": se,
                      "mean_margin_ci95": [mean - Z95 * se, mean + Z95 * se]}
        return Summary(deals=n, distinct_deals=distinct_deals, rotations=self.rotations, seconds=seconds,
                       sim_seconds=sim_seconds, sides=sides, positions=positions, draws=self.draws,
                       capotes=self.capotes, extra=dict(extra), margin=margin)

    def _seats(self, k: int) -> list[int]:
        """The seats of side ``k`` of the table (R3: ``s % sides == k``)."""
        return [s for s in range(self.players) if s % self.sides == k]


def _rates(wins: int, draws: int, n: int, pts: float, pts2: float) -> dict:
    """The figures a side's and a position's dicts share, in their order: ``win_rate``, ``win_rate_ci95``,
    ``score``, ``score_ci95`` (Wilson, draws count half), ``mean_points``, ``mean_points_se`` (card points,
    from their sum ``pts`` and sum of squares ``pts2``); rates NaN and intervals ``[0.0, 1.0]`` when ``n == 0``."""
    mean, se = mean_se(pts, pts2, n)
    return {
        "win_rate": wins / n if n else float("nan"),
        "win_rate_ci95": list(wilson_interval(wins, n)),
        "score": (wins + 0.5 * draws) / n if n else float("nan"),
        "score_ci95": list(wilson_interval(wins + 0.5 * draws, n)),
        "mean_points": mean,
        "mean_points_se": se,
    }


@dataclass
class Summary:
    """Summary of a run (module docstring defines every figure).

    Attributes
    ----------
    deals : int
        Rows played (distinct deals x rotations).
    distinct_deals : int
        Deals shuffled.
    rotations : int
        1, or the number of sides with ``duplicate``.
    seconds : float
        Whole run, s (validation, compile, simulation, writing).
    sim_seconds : float
        Simulation only, s (numba compile excluded).
    sides : list of dict
        Per side: ``side``, ``seats``, ``policy``, ``games``, ``wins``,
        ``draws``, ``losses``, ``win_rate``, ``win_rate_ci95``, ``score``,
        ``score_ci95``, ``mean_points``, ``mean_points_se`` (and
        ``pair_score_ci95``, ``pair_win_rate_ci95`` and ``pair_mean_points_se`` with ``duplicate``).
    positions : list of dict
        Per side of the table whatever policy sits there: ``side``, ``seats``,
        ``wins``, ``draws``, ``win_rate``, ``win_rate_ci95``, ``score``, ``score_ci95``
        (Wilson, draws count half), ``mean_points``, ``mean_points_se`` (and, over the pairs,
        ``pair_score_ci95``, ``pair_win_rate_ci95`` and ``pair_mean_points_se`` with ``duplicate``).
        ``positions[0]`` is the side of seat 0, which leads the first trick of every deal (R3; the deal
        table's ``first_lead``): its figures are the first leader's (user study 67: only the text
        summary's last line said who leads).
    draws, capotes : int
        Deals drawn (winner -1) and deals where one side took all 120 points (R8).
    extra : dict
        Run description, the last keys of :meth:`to_dict` (and of ``--json``); :func:`sim.batch.simulate`
        gives ``rules`` (the :class:`sim.rules.Rules` fields), ``policies`` (policy per seat in rotation 0),
        ``seed``, ``duplicate`` (bool), ``threads`` (numba threads; 1 with the ``solver`` policy),
        ``complete`` (false: the summary of an interrupted or failed run, which covers the deals played) and
        ``out``, ``tricks_out`` (the files written, as given; None when not asked for or not written, in the
        summary of a run whose write failed too, the ``OSError``'s ``partial_summary``).
    margin : dict or None
        Two sides only: ``mean_margin``, the mean margin of a deal in card points, ``|side 0 - side 1|``
        (the winner's points less the loser's; a 60-60 draw 0), ``mean_margin_se`` its standard error (over
        the deal pairs with ``duplicate``) and ``mean_margin_ci95`` its normal 95% interval; None with
        three sides (and in a summary made without it).
    """

    deals: int
    distinct_deals: int
    rotations: int
    seconds: float
    sim_seconds: float
    sides: list
    positions: list
    draws: int
    capotes: int
    extra: dict = field(default_factory=dict)
    margin: dict | None = None

    @property
    def deals_per_s(self) -> float:
        """Rows played per second of simulation (deals/s, compile excluded); NaN when ``sim_seconds <= 0``.

        Returns
        -------
        float
            ``deals / sim_seconds`` (deals/s), or NaN.
        """
        return self.deals / self.sim_seconds if self.sim_seconds > 0 else float("nan")

    @property
    def draw_rate(self) -> float:
        """``draws / deals`` (R8: winner -1); NaN when ``deals == 0``.

        Returns
        -------
        float
            The share of drawn rows, 0-1, or NaN.
        """
        return self.draws / self.deals if self.deals else float("nan")

    @property
    def capote_rate(self) -> float:
        """``capotes / deals`` (R8: one side took all 120 card points); NaN when ``deals == 0``.

        Returns
        -------
        float
            The share of capote rows, 0-1, or NaN.
        """
        return self.capotes / self.deals if self.deals else float("nan")

    @property
    def points_diff(self) -> dict | None:
        """Side 0's mean points less side 1's with its uncertainty (user study 65: the summary gave each
        side's mean and error, not the difference's, and the two errors are not independent).

        Returns
        -------
        dict or None
            ``mean_points_diff`` (card points), ``mean_points_diff_se`` (over pairs with ``duplicate``, as
            the text summary's ``± se``) and ``mean_points_diff_ci95`` (normal 95%, ``[lo, hi]``; NaN bounds
            when the error is NaN); None unless there are exactly two sides (three players: None).
        """
        if len(self.sides) != 2:
            return None
        a, b = self.sides
        se = _points_se(a, self.rotations > 1)
        diff = _num(a["mean_points"]) - _num(b["mean_points"])
        se = 2.0 * _num(se)  # (the sides' points sum to 120 every deal: R8, and R2, R3 for the 120)
        return {"mean_points_diff": diff, "mean_points_diff_se": se,
                "mean_points_diff_ci95": [diff - Z95 * se, diff + Z95 * se]}

    def _rate_ci95(self, count: int) -> list:
        """Wilson 95% interval of ``count / deals``, over the deal pairs with ``duplicate``: a pair's rotations
        are no independent trials (with one policy on every seat they replay one game, so every capote and
        draw came ``rotations`` times and an interval over the rows was too narrow by sqrt(rotations), its
        upper end with no capote seen too low by a factor ``rotations``: review 64); the pairs' mean rate
        over ``deals / rotations`` trials (the pairs played, whole: an interrupted run keeps whole pairs) is
        exact then and conservative otherwise. Used for ``draw_rate_ci95`` and ``capote_rate_ci95``."""
        R = self.rotations
        if R > 1 and self.deals % R == 0:
            return list(wilson_interval(count / R, self.deals // R))
        return list(wilson_interval(count, self.deals))

    def to_dict(self) -> dict:
        """The summary as one JSON-able dict (keys of the ``--json`` output): the attributes, ``deals_per_s``,
        ``draw_rate``, ``draw_rate_ci95``, ``capote_rate``, ``capote_rate_ci95``, then :attr:`extra`'s keys;
        NaN and inf are written as None, numpy scalars as Python ones, numpy arrays as lists and paths
        (``os.PathLike``) as text (strict JSON).

        Returns
        -------
        dict
            In the order ``deals, distinct_deals, rotations, seconds, sim_seconds`` (s), ``deals_per_s``
            (deals/s), ``sides, draws, draw_rate, draw_rate_ci95`` (Wilson 95%, ``[lo, hi]``, with ``duplicate``
            over the deal pairs, a pair's rotations not being independent), ``capotes, capote_rate,
            capote_rate_ci95`` (the same; with no capote seen, its upper end bounds the rate),
            ``positions``, ``mean_points_diff, mean_points_diff_se, mean_points_diff_ci95``
            (:attr:`points_diff`; None with three sides), ``mean_margin, mean_margin_se,
            mean_margin_ci95`` (:attr:`margin`, the mean of ``|side 0 - side 1|``; None with three sides),
            then :attr:`extra`'s keys (a key of :attr:`extra` with one of those names replaces its value).
        """
        d = {
            "deals": self.deals,
            "distinct_deals": self.distinct_deals,
            "rotations": self.rotations,
            "seconds": self.seconds,
            "sim_seconds": self.sim_seconds,
            "deals_per_s": self.deals_per_s,
            "sides": self.sides,
            "draws": self.draws,
            "draw_rate": self.draw_rate,
            "draw_rate_ci95": self._rate_ci95(self.draws),
            "capotes": self.capotes,
            "capote_rate": self.capote_rate,
            "capote_rate_ci95": self._rate_ci95(self.capotes),
            "positions": self.positions,
        }
        d.update(self.points_diff or dict.fromkeys(("mean_points_diff", "mean_points_diff_se",
                                                     "mean_points_diff_ci95")))
        d.update(self.margin or dict.fromkeys(("mean_margin", "mean_margin_se", "mean_margin_ci95")))
        d.update(self.extra)
        return _finite(d)

    def to_row(self) -> dict:
        """The summary as one flat row for a DataFrame of many runs (``pd.DataFrame([s.to_row() for s in
        summaries])``): :meth:`to_dict` with its nested parts spread into columns. User study 67: a sweep
        of rule variants picked each figure out of the nested dict by hand.

        Returns
        -------
        dict
            :meth:`to_dict`'s scalar keys as they are; each ``[lo, hi]`` interval ``k`` as ``k_lo`` and ``k_hi`` (both
            None where the interval is None); each side's keys as ``side{k}_{key}`` and each position's (side of the
            table, whose seat 0 leads first, R3) as ``position{j}_{key}``, ``seats`` as text (``"0,2"``); the rules'
            fields (``players``, ``deck``, ``exchange``, ``exchange_condition``, ``endgame``, ``remove``, ``tie``) as
            columns; ``policies`` as text (``"heuristic,random"``, one name per seat); a dict in :attr:`extra` spread
            as ``{key}_{field}`` columns and any other list as JSON text. Values are Python scalars, None where
            :meth:`to_dict` has None (NaN, three-player points difference).

        Raises
        ------
        ValueError
            If two parts of the summary give one column (a key of :attr:`extra` named ``side0_wins`` or
            ``players``, or a rules dict with a key ``deals``: one value replaced the other, break-it pass
            45), or a key ending in ``ci95`` holds something other than None or a ``[lo, hi]`` pair (it was
            written as two Nones).

        Examples
        --------
        >>> s = Summary(deals=4, distinct_deals=4, rotations=1, seconds=1.0, sim_seconds=0.5, draws=0, capotes=0,
        ...             sides=[{"side": 0, "seats": [0], "wins": 3, "win_rate_ci95": [0.3, 0.95]}], positions=[])
        >>> r = s.to_row()
        >>> r["side0_wins"], r["side0_win_rate_ci95_lo"], r["side0_seats"]
        (3, 0.3, '0')
        """
        row = {}
        origin = {}

        def put1(name, v, where):
            # (break-it pass 45: a key of extra named like a spread column, side0_wins, or a rules dict's
            # field named like a top-level key, deals, silently replaced the figure or was replaced by it)
            if name in row:
                raise ValueError(f"to_row: the column {name!r} comes from both {origin[name]} and {where}: "
                                 "rename the key of extra that makes it")
            row[name], origin[name] = v, where

        def put(prefix, d, where):
            for k, v in d.items():
                k = str(k)
                if k in ("seats", "policies") and isinstance(v, list):
                    put1(prefix + k, ",".join(map(str, v)), where)
                elif k.endswith("ci95"):  # (None with three sides: both ends None, the same columns)
                    if v is None:
                        v = (None, None)
                    elif not (isinstance(v, (list, tuple)) and len(v) == 2):
                        # (break-it pass 45: a value of any other shape was written as two Nones, lost)
                        raise ValueError(f"to_row: {where}'s {k!r} is no [lo, hi] interval: {show_repr(v)}")
                    put1(prefix + k + "_lo", v[0], where)
                    put1(prefix + k + "_hi", v[1], where)
                elif isinstance(v, dict):
                    put(prefix + k + "_", v, where)
                elif isinstance(v, list):  # (break-it pass 45: a list was left in the "flat" row; JSON text)
                    put1(prefix + k, json.dumps(v), where)
                else:
                    put1(prefix + k, v, where)

        d = self.to_dict()
        spread = {k: d.pop(k) for k in ("rules", "sides", "positions")
                  if isinstance(d.get(k), dict if k == "rules" else list)}
        put("", d, "the summary")
        put("", spread.get("rules", {}), "the rules")  # (break-it pass 45: rules not a dict were dropped)
        for name in ("side", "position"):
            for i, part in enumerate(spread.get(name + "s", [])):
                put(f"{name}{i}_", part, f"{name}s[{i}]")
        return row

    def to_json(self) -> str:
        """:meth:`to_dict` as one line of JSON.

        Returns
        -------
        str
            ``json.dumps(self.to_dict())``: no newline, no NaN (strict JSON).
        """
        return json.dumps(self.to_dict())

    def __str__(self) -> str:
        """:meth:`format_table`: ``print(result.summary)`` prints what ``brisca simulate`` prints."""
        return self.format_table()

    def format_table(self) -> str:
        """A human-readable table of the summary (what ``brisca simulate`` prints).

        Returns
        -------
        str
            Lines joined by ``\\n``, no trailing newline: the rules (when :attr:`extra` has them), the run
            (deals, seed, threads), the times (s) and the rate (deals/s, compile excluded), a table of
            the sides (wins, win rate and score with 95% intervals, mean card points and its standard
            error), draws and capotes (R8) with their rates' Wilson 95% intervals (over the deal pairs with
            ``duplicate``, as ``draw_rate_ci95`` and ``capote_rate_ci95``), with two sides the difference of
            their mean points (its standard error and 95% interval: :attr:`points_diff`) and the mean margin
            (:attr:`margin`), and the files written.
        """
        ex = self.extra
        lines = []
        rules = ex.get("rules")
        if rules:
            lines.append(_rules_line(rules))
        run = f"{self.deals:,} deal{'' if self.deals == 1 else 's'}"
        if self.rotations > 1:
            run += (f" ({self.distinct_deals:,} distinct deal{'' if self.distinct_deals == 1 else 's'}"
                    f" x {self.rotations} rotations, duplicate)")
        if "seed" in ex:
            run += f", seed {ex['seed']}"
        if "threads" in ex:
            run += f", {ex['threads']} thread{'s' if ex['threads'] != 1 else ''}"
        lines.append(run)
        lines.append(f"time: {self.seconds:.2f} s in all, {self.sim_seconds:.2f} s simulating"
                     f" ({_rate(self.deals_per_s)} deals/s, compile excluded)")
        lines.append("")
        dup = self.rotations > 1
        head = ["side", "seats (rotation 0)" if dup else "seats", "policy", "wins", "win rate", "95% CI", "score",
                "95% CI", "mean points", "± se"]
        rows = []
        for s in self.sides:
            ci = s["pair_score_ci95"] if dup else s["score_ci95"]
            # (the win rate's over pairs too; a side dict made before 2026-12-07, eighth part: the games')
            wci = s.get("pair_win_rate_ci95", s["win_rate_ci95"]) if dup else s["win_rate_ci95"]
            se = _points_se(s, dup)
            rows.append([str(s["side"]), ",".join(map(str, s["seats"])), s["policy"], f"{s['wins']:,}",
                         _fixed(s['win_rate'], 4), _ci(wci), _fixed(s['score'], 4), _ci(ci),
                         _fixed(s['mean_points'], 2), _fixed(se, 2)])
        lines.extend(_grid(head, rows))
        lines.append("")
        # (user study 65c: the capote and draw rates' intervals were in --json only, so "capotes: 0" over
        # 200,000 deals printed no bound on how rare a capote is; over pairs with duplicate, as in --json)
        lines.append(f"draws: {self.draws:,} ({_fixed(self.draw_rate, 4)})"
                     + _rate_ci_text(self._rate_ci95(self.draws), self.draw_rate, lambda x: _fixed(x, 4))
                     + f"   capotes: {self.capotes:,} ({_small_rate(self.capote_rate)})"
                     + _rate_ci_text(self._rate_ci95(self.capotes), self.capote_rate, _small_rate))
        diff = self.points_diff
        if diff is not None:  # (user study 65: the difference's error is not the two errors combined)
            lo, hi = diff["mean_points_diff_ci95"]
            lines.append(f"points difference, side 0 - side 1: {_fixed(diff['mean_points_diff'], 2)} ± se "
                         f"{_fixed(diff['mean_points_diff_se'], 2)}, 95% CI "
                         + (f"[{lo:.2f}, {hi:.2f}]" if math.isfinite(lo) and math.isfinite(hi) else "n/a")
                         + (" (over pairs)" if dup else ""))
        mg = self.margin
        if mg is not None:  # (user study 65c: the margin of victory, a teacher's first question about decks)
            lo, hi = mg["mean_margin_ci95"]
            lo, hi = _num(lo), _num(hi)
            lines.append(f"margin, winner - loser (a draw 0): {_fixed(_num(mg['mean_margin']), 2)} ± se "
                         f"{_fixed(_num(mg['mean_margin_se']), 2)}, 95% CI "
                         + (f"[{lo:.2f}, {hi:.2f}]" if math.isfinite(lo) and math.isfinite(hi) else "n/a")
                         + (" (over pairs)" if dup else ""))
        if len(self.sides) > 2:  # (a draw is shared by the seats tied on top: each side counts its own)
            lines.append("draws by side: " + ", ".join(f"{s['side']}: {s['draws']:,}" for s in self.sides))
        lines.append("score = (wins + draws/2) / games" + (" (a side's own draws)" if len(self.sides) > 2 else "")
                     + "; " + (
            "win rate and score CIs and points se over pairs (paired design); sides are the policies of "
            "rotation 0, counted wherever they sit"
            if dup else "score CI: Wilson 95%; seat 0 leads every deal (--duplicate rotates the seats)"))
        if dup:
            lines.append("by seat position, whatever policy sits there (CIs over pairs):")
            for p in self.positions:
                # (over pairs, as the sides': the games' intervals took a pair's rotations, one deal's cards
                # at the position, as independent, too narrow by sqrt(2) with one policy on every seat, break-it
                # pass 43; a position dict made before it has the games' only)
                wci = p.get("pair_win_rate_ci95", p["win_rate_ci95"])
                sci = p.get("pair_score_ci95", p["score_ci95"])
                lines.append(f"  position {p['side']} (seats {','.join(map(str, p['seats']))}): win rate "
                             f"{_fixed(p['win_rate'], 4)} {_ci(wci)}, score {_fixed(p['score'], 4)} "
                             f"{_ci(sci)}, mean points {_fixed(p['mean_points'], 2)} ± se "
                             f"{_fixed(_points_se(p, True), 2)}")
        for key, label in (("out", "deals"), ("tricks_out", "tricks")):
            if ex.get(key):
                # (a name's control characters and line breaks escaped, as in error lines: break-it pass of
                # 2026-12-06, a newline in --out forged a "wrote tricks:" line)
                lines.append(f"wrote {label}: {printable(str(ex[key]))}")
        return "\n".join(lines)


def _rules_line(rules: dict) -> str:
    """The summary's ``rules:`` line: what R3 takes out of the deck and an exchange the deck cannot
    make are said (new-user pass of 2026-12-06, sixth part: 6 players with ``spanish40`` did not say
    that the four 2s are out, ``rapida20`` named an exchange that never happens; break-it pass 43: ``seven-two``
    with the 2 of trumps out makes the 7-exchange only)."""
    from .cards import card_id
    from .rules import Rules
    players, deck = rules["players"], rules["deck"]
    try:  # (the game the summary's dict describes: what R1/R3 leave in the deck is its to say)
        r = Rules(**rules)
    except (TypeError, ValueError):  # (a dict not of Rules.to_dict: no note)
        r = None
    line = f"rules: {players} players, deck {deck}"
    if players == 6 and deck == "spanish40":
        line += " (the four 2s removed, R3)"
    line += f", exchange {rules['exchange']} (condition {rules['exchange_condition']})"
    if r is not None and r.exchange != "none" and not r.exchange_possible:
        no_seven_or_two = not {card_id(k, s) for k in (2, 7) for s in range(4)} & set(r.deck_cards)
        line += (f" (never made: {deck} has no 7 or 2)" if no_seven_or_two else
                 " (never made: the 2 of trumps is out, R3)")
    elif r is not None and r.exchange == "seven-two" and (
            r.remove == "trump2" or not {card_id(2, s) for s in range(4)} & set(r.deck_cards)):
        line += " (the 7 only: the 2 of trumps is out, R3)"  # (break-it pass 43: the 2-exchange never happens)
    line += f", endgame {rules['endgame']}"
    if players == 3 and deck == "spanish40":
        line += f", remove {rules['remove']}"
    if (rules.get("tie") or "draw") != "draw":  # (break-it pass 20: tie=replay was in the dict only; None,
        # as a hand-made dict may hold, is the default)
        line += (f", tie {rules['tie']} (R8: a replay and a double deal are match play, R10; each 60-60 deal is "
                 "counted here as a draw)")
    return line


def _rate_ci_text(ci, rate: float, fmt) -> str:
    """`` 95% CI [lo, hi]`` after a draw or capote rate (bounds written by ``fmt``), or nothing when the rate
    is ``n/a`` (no deals)."""
    lo, hi = ci
    if not (math.isfinite(rate) and math.isfinite(lo) and math.isfinite(hi)):
        return ""
    return f" 95% CI [{fmt(lo)}, {fmt(hi)}]"


def _small_rate(x: float) -> str:
    """A rate that may be tiny (capotes): five decimals, or two significant digits below 0.0001 (4 of
    100,000 read 0.00000)."""
    if not math.isfinite(x):
        return "n/a"
    return f"{x:.5f}" if x == 0 or x >= 1e-4 else f"{x:.2g}"


def _rate(x: float) -> str:
    """Deals per second: no decimals from 100 up, else three significant digits; ``n/a`` for NaN or inf."""
    if not math.isfinite(x):
        return "n/a"
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def _pair_sums(win, draw, pts, rotations: int) -> tuple:
    """Per deal pair (``rotations`` consecutive rows), the sums over its rotations of ``2 * win + draw``, of the
    card points and of the wins, each as ``(sum over pairs, sum of squares over pairs)`` (plain ints), for the
    pairs' intervals of a side or of a position of the table (:meth:`RunningStats.update`)."""
    out = []
    for x in (2 * win.astype(np.int64) + draw, pts.astype(np.int64), win.astype(np.int64)):
        g = x.reshape(-1, rotations).sum(axis=1)
        out.append((int(g.sum()), int((g * g).sum())))
    return tuple(out)


def _points_se(side: dict, dup: bool) -> float:
    """The standard error of a side's mean points the summary prints (card points): over the deal pairs
    with ``duplicate`` (``pair_mean_points_se``), else over games; a side dict made before 2026-12-07,
    seventh part, has no pairs' error: the games' then."""
    return side.get("pair_mean_points_se", side["mean_points_se"]) if dup else side["mean_points_se"]


def _num(x) -> float:
    """``x`` as a float, NaN for None (a NaN that went through :meth:`Summary.to_dict`)."""
    return float("nan") if x is None else float(x)


def _fixed(x: float, digits: int) -> str:
    """``x`` with ``digits`` decimals; ``n/a`` for NaN or inf (a summary of 0 deals printed ``nan`` where its
    deals/s and capotes said ``n/a``: mutation pass 19)."""
    return f"{x:.{digits}f}" if math.isfinite(x) else "n/a"


def _ci(ci) -> str:
    """An interval ``[lo, hi]`` with four decimals; ``n/a`` when a bound is NaN or inf."""
    if not all(math.isfinite(x) for x in ci):
        return "n/a"
    return f"[{ci[0]:.4f}, {ci[1]:.4f}]"


def _grid(head, rows):
    """The lines of a table: columns two spaces apart, the first three (side, seats, policy) left-aligned,
    the others right-aligned, trailing blanks cut."""
    widths = [max(len(str(r[i])) for r in [head] + rows) for i in range(len(head))]
    left = {0, 1, 2}
    out = []
    for r in [head] + rows:
        out.append("  ".join(str(c).ljust(w) if i in left else str(c).rjust(w)
                             for i, (c, w) in enumerate(zip(r, widths))).rstrip())
    return out


def _finite(obj):
    """Replace NaN/inf by None so the JSON is strict, numpy scalars by Python ones (``np.float64``
    is a ``float`` subclass, so it is converted first), numpy arrays by lists and paths by their text."""
    if isinstance(obj, np.generic):
        return _finite(obj.item())
    if isinstance(obj, np.ndarray):
        return _finite(obj.tolist())
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    if isinstance(obj, os.PathLike):  # (a hand-made summary's out=Path(...): to_json failed, break-it pass 45)
        return os.fspath(obj)
    return obj
