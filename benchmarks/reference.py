"""Tic-tac-toe and Connect Four written by hand in plain Python, with rulewright's State API: the
limit a Python engine can reach, so the benchmarks report our speed as a ratio of it.

Each class has what the benchmarks call: ``new_state(seed)`` on the game, and on the state
``is_over()``, ``legal_moves()`` (texts), ``apply(move)``, ``legal_actions()`` (numbers from 1),
``apply_action(n)`` and ``clone()``. Same rules as games/classic/*.rules; no events, no texts kept.
"""
from __future__ import annotations

# the eight lines of three on a 3x3 board, squares numbered 0-8
_TTT_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
_TTT_LINES_AT = tuple(tuple(line for line in _TTT_LINES if s in line) for s in range(9))


class TicTacToeState:
    __slots__ = ("board", "player", "over", "winner")

    def __init__(self):
        self.board = [0] * 9
        self.player = 1
        self.over = False
        self.winner = 0

    def is_over(self) -> bool:
        return self.over

    def legal_actions(self) -> list:
        return [s + 1 for s, v in enumerate(self.board) if v == 0] if not self.over else []

    def legal_moves(self) -> list:
        return [str(a) for a in self.legal_actions()]

    def apply(self, move) -> None:
        self.apply_action(int(move))

    def apply_action(self, action: int) -> None:
        s = action - 1
        board, me = self.board, self.player
        if self.over or not 0 <= s < 9 or board[s]:
            raise ValueError(f"illegal move {action}")
        board[s] = me
        if any(board[a] == me and board[b] == me and board[c] == me for a, b, c in _TTT_LINES_AT[s]):
            self.over, self.winner = True, me
        elif 0 not in board:
            self.over = True
        self.player = 3 - me

    def clone(self) -> "TicTacToeState":
        c = TicTacToeState.__new__(TicTacToeState)
        c.board, c.player, c.over, c.winner = self.board[:], self.player, self.over, self.winner
        return c


class ConnectFourState:
    """7 columns of 6; a disc falls to the lowest free space; four in a line win; a full frame draws."""
    __slots__ = ("cells", "height", "player", "over", "winner", "count")
    COLS, ROWS = 7, 6

    def __init__(self):
        self.cells = [0] * (self.COLS * self.ROWS)  # column-major: cell = col * ROWS + row
        self.height = [0] * self.COLS
        self.player = 1
        self.over = False
        self.winner = 0
        self.count = 0

    def is_over(self) -> bool:
        return self.over

    def legal_actions(self) -> list:
        return [c + 1 for c in range(self.COLS) if self.height[c] < self.ROWS] if not self.over else []

    def legal_moves(self) -> list:
        return [str(a) for a in self.legal_actions()]

    def apply(self, move) -> None:
        self.apply_action(int(move))

    def apply_action(self, action: int) -> None:
        c = action - 1
        if self.over or not 0 <= c < self.COLS or self.height[c] >= self.ROWS:
            raise ValueError(f"illegal move {action}")
        r = self.height[c]
        self.height[c] = r + 1
        cells, me, rows = self.cells, self.player, self.ROWS
        cells[c * rows + r] = me
        self.count += 1
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            n = 1
            for sign in (1, -1):
                x, y = c + sign * dc, r + sign * dr
                while 0 <= x < self.COLS and 0 <= y < rows and cells[x * rows + y] == me:
                    n += 1
                    x += sign * dc
                    y += sign * dr
            if n >= 4:
                self.over, self.winner = True, me
                break
        else:
            if self.count == self.COLS * rows:
                self.over = True
        self.player = 3 - me

    def clone(self) -> "ConnectFourState":
        c = ConnectFourState.__new__(ConnectFourState)
        c.cells, c.height, c.player, c.over, c.winner, c.count = (
            self.cells[:], self.height[:], self.player, self.over, self.winner, self.count)
        return c


class _Game:
    def __init__(self, state_class):
        self.state_class = state_class

    def new_state(self, seed=None):
        return self.state_class()


TIC_TAC_TOE = _Game(TicTacToeState)
CONNECT_FOUR = _Game(ConnectFourState)
