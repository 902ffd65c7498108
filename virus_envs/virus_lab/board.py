"""The Lab map on a bounded table grid: cells, sides, edges, corners; placement, connection, distances.

The table is `rows x cols` spaces; row 0 is the table edge where the Starting Room lies ("the game
map may not extend behind the Starting Room"), rows grow into the table. Sides: N=0 (towards the
edge), E=1, S=2, W=3; a doorway mask has bit d for side d. Rotating a card clockwise by r quarter
turns moves side d to side (d + r) % 4 and corner k (between sides k and k+1) to corner (k + r) % 4.

    cell = r * cols + c             NB[cell][d]   neighbour cell or -1 (table end)
    edge = EDGE[cell][d]            shared by the two cells of a border (-1 at the table end)
    vertex = r * (cols + 1) + c     VERTEX[cell][k] the grid point at corner k (Research Labs)

Pure functions over the state's plain lists; nothing here imports the state class.
"""
from __future__ import annotations

DR = (-1, 0, 1, 0)
DC = (0, 1, 0, -1)
OPP = (2, 3, 0, 1)
CAPACITY = 7          # "Rooms have a maximum capacity of 7"
ALERT = 4             # "Alerted Area of X. The area of 4 rooms from X."

DOOR_NONE, DOOR_OPEN, DOOR_CLOSED = 0, 1, 2


def rotate(mask: int, r: int) -> int:
    """Doorway mask turned clockwise by r quarter turns."""
    r %= 4
    return ((mask << r) | (mask >> (4 - r))) & 15


class Geometry:
    """Precomputed tables of one table size."""

    def __init__(self, rows: int, cols: int):
        self.rows, self.cols = rows, cols
        self.ncells = rows * cols
        self.start_cell = cols // 2          # row 0, the middle of the edge
        self.NB = []
        for cell in range(self.ncells):
            r, c = divmod(cell, cols)
            nb = []
            for d in range(4):
                rr, cc = r + DR[d], c + DC[d]
                nb.append(rr * cols + cc if 0 <= rr < rows and 0 <= cc < cols else -1)
            self.NB.append(tuple(nb))
        # edges: horizontal borders (between r and r+1) then vertical ones (between c and c+1)
        self.EDGE = []
        for cell in range(self.ncells):
            r, c = divmod(cell, cols)
            e = [-1, -1, -1, -1]
            if r > 0:
                e[0] = (r - 1) * cols + c
            if r < rows - 1:
                e[2] = r * cols + c
            off = (rows - 1) * cols
            if c < cols - 1:
                e[1] = off + r * (cols - 1) + c
            if c > 0:
                e[3] = off + r * (cols - 1) + c - 1
            self.EDGE.append(tuple(e))
        self.nedges = (rows - 1) * cols + rows * (cols - 1)
        self.VERTEX = []
        for cell in range(self.ncells):
            r, c = divmod(cell, cols)
            w = cols + 1
            self.VERTEX.append((r * w + c + 1, (r + 1) * w + c + 1, (r + 1) * w + c, r * w + c))
        self.nvertices = (rows + 1) * (cols + 1)

    def rc(self, cell):
        return divmod(cell, self.cols)

    def cell(self, r, c):
        if 0 <= r < self.rows and 0 <= c < self.cols:
            return r * self.cols + c
        return -1


def fits(geo: Geometry, card, doors, breach, cell: int, mask: int) -> bool:
    """A card with doorway mask `mask` may lie on empty `cell`: "Walls must be placed next to walls and
    doorways must be placed next to doorways" (a Breach on the border frees that side)."""
    NB, EDGE = geo.NB[cell], geo.EDGE[cell]
    for d in range(4):
        y = NB[d]
        if y < 0 or card[y] < 0:
            continue
        if breach[EDGE[d]]:
            continue
        if ((mask >> d) & 1) != ((doors[y] >> OPP[d]) & 1):
            return False
    return True


def mismatches(geo, card, doors, breach, cell: int, mask: int) -> list:
    """Sides where a card with `mask` on `cell` would put a doorway against a wall or a wall against a doorway."""
    out = []
    NB, EDGE = geo.NB[cell], geo.EDGE[cell]
    for d in range(4):
        y = NB[d]
        if y < 0 or card[y] < 0 or breach[EDGE[d]]:
            continue
        if ((mask >> d) & 1) != ((doors[y] >> OPP[d]) & 1):
            out.append(d)
    return out


def connected(geo, doors, breach, a: int, d: int) -> int:
    """Neighbour of room a on side d when "2 adjacent doorways on both cards (or a Breach between them)", else -1."""
    y = geo.NB[a][d]
    if y < 0:
        return -1
    if breach[geo.EDGE[a][d]]:
        return y
    if (doors[a] >> d) & 1 and (doors[y] >> OPP[d]) & 1:
        return y
    return -1


def bfs(geo, card, doors, breach, door, src: int, limit: int, through_closed: bool):
    """Room distances from src over connected rooms (up to `limit` steps) and each room's first step
    side from src. Closed Doors are crossed only when `through_closed` (smell stops at them)."""
    dist = {src: 0}
    first = {src: -1}
    frontier = [src]
    k = 0
    NB, EDGE = geo.NB, geo.EDGE
    while frontier and k < limit:
        k += 1
        nxt = []
        for a in frontier:
            fa = first[a]
            for d in range(4):
                y = NB[a][d]
                if y < 0 or y in dist or card[y] < 0:
                    continue
                e = EDGE[a][d]
                if not breach[e] and not ((doors[a] >> d) & 1 and (doors[y] >> OPP[d]) & 1):
                    continue
                if not through_closed and door[e] == DOOR_CLOSED:
                    continue
                dist[y] = k
                first[y] = d if fa < 0 else fa
                nxt.append(y)
        frontier = nxt
    return dist, first


def colour_group(geo, card, doors, breach, colour_of, cell: int, col: int | None = None) -> list:
    """The room group of `cell`: "connected rooms of the same color" (of colour `col`, default the room's own). A
    Multicolored room (colour_of 4) joins a group of any colour; one taken alone takes the colour of its largest
    group (ties: the first colour), the players' best choice (assumption 51)."""
    if col is None:
        col = colour_of(card[cell])
    if col == 4:
        return max((colour_group(geo, card, doors, breach, colour_of, cell, k) for k in range(4)),
                   key=len)
    seen = {cell}
    stack = [cell]
    while stack:
        a = stack.pop()
        for d in range(4):
            y = connected(geo, doors, breach, a, d)
            if y >= 0 and y not in seen and card[y] >= 0 and colour_of(card[y]) in (col, 4):
                seen.add(y)
                stack.append(y)
    return sorted(seen)


def draw_fitting_room(s, y: int, back: int = -1):
    """Exploring from the Room deck (Creatures moved by a Boss player, the Child): "Draw the first card in the Room
    deck and place it ... If the card is not compatible, draw another card until you find one that fits.
    Incompatible cards must be reshuffled with the Room deck." Returns (card, rotation) of the first card that fits
    space y in its first fitting rotation (opening towards side `back` when given), or None when no card of the deck
    fits; the misfits go back and the deck is shuffled (its known bottom cards become unknown). Placing the card is
    the caller's."""
    g = s.g
    misfits, found = [], None
    while s.room_deck:
        c = s._pop_room()
        rots = [r for r in range(4) if fits(g.geo, s.card, s.doors, s.breach, y, g.rot_doors[c][r])
                and (back < 0 or (g.rot_doors[c][r] >> back) & 1)]
        if rots:
            found = (c, rots[0])
            break
        misfits.append(c)
    if misfits:
        s.room_deck.extend(misfits)
        s.rng.shuffle(s.room_deck)
        s.room_known = 0
    return found
