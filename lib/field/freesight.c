/* freesight.c - sight lines of the any-angle field; see freesight.h.
 *
 * A segment that is not along a grid line is cut by the grid lines into
 * pieces, each inside one cell; it is free when each such cell is open and,
 * under strict, no crossing through a grid vertex passes between two walls.
 * The crossings are ordered exactly (Amanatides and Woo's traversal, "A fast
 * voxel traversal algorithm for ray tracing", Eurographics 1987, with the
 * parameters compared as integer products instead of floats).  A segment
 * along a grid line needs an open cell on one side of each unit edge and,
 * under strict, no pinch point inside it.
 *
 * With a clearance map the walk leaps: from a cell of clearance c >= 2
 * the square of cells within c - 1 of it is open, so the segment is free
 * until it leaves that square, and the walk goes on from the square's
 * last cell it is in (found by the same integer products).  The leaps
 * change the time, never the answer.
 */
#include "freesight.h"

int ff_free_pinch(const ff_grid *g, int64_t vx, int64_t vy)
{
    int nw = ff_free_cell(g, vx - 1, vy - 1), ne = ff_free_cell(g, vx, vy - 1);
    int sw = ff_free_cell(g, vx - 1, vy), se = ff_free_cell(g, vx, vy);

    return (nw && se && !ne && !sw) || (ne && sw && !nw && !se);
}

/* Cell (u, v) along the walk, with the axes swapped when transposed. */
static int free_uv(const ff_grid *g, int transposed, int64_t u, int64_t v)
{
    return transposed ? ff_free_cell(g, v, u) : ff_free_cell(g, u, v);
}

/* The first cell index along one axis of the piece that starts at a (in
 * half cells) and heads the way of sign s. */
static int64_t first_cell(int64_t a, int s)
{
    return (a & 1) ? (a - 1) / 2 : s > 0 ? a / 2 : a / 2 - 1;
}

/* A segment along one axis u, from au to bu at v (half cells); transposed
 * when u is y. */
static int along_axis(const ff_grid *g, int transposed, int64_t au, int64_t bu, int64_t v)
{
    int s = bu > au ? 1 : -1;
    int64_t k;

    if (v & 1) {
        int64_t first = first_cell(au, s);
        int64_t last = (bu & 1) ? (bu - 1) / 2 : s > 0 ? bu / 2 - 1 : bu / 2;
        for (k = first; k != last + s; k += s)
            if (!free_uv(g, transposed, k, (v - 1) / 2))
                return 0;
        return 1;
    }
    /* Along the grid line v/2: each unit edge needs a cell beside it. */
    for (k = au / 2; k != bu / 2; k += s) {
        int64_t e = s > 0 ? k : k - 1;
        if (!free_uv(g, transposed, e, v / 2 - 1) && !free_uv(g, transposed, e, v / 2))
            return 0;
        if (k != au / 2 && g->corners == FF_CORNERS_STRICT &&
            (transposed ? ff_free_pinch(g, v / 2, k) : ff_free_pinch(g, k, v / 2)))
            return 0;
    }
    return 1;
}

void ff_free_clearance(const ff_grid *g, uint8_t *clear)
{
    int64_t w = g->w, h = g->h, x, y;

    /* The chessboard distance transform in two passes (Rosenfeld and
     * Pfaltz 1966), cells outside the map walls, capped at 255. */
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            size_t i = (size_t)y * (size_t)w + (size_t)x;
            unsigned c = 0;
            if (ff_grid_open(g, i) && x > 0 && y > 0 && x < w - 1) {
                c = clear[i - 1];
                c = clear[i - (size_t)w - 1] < c ? clear[i - (size_t)w - 1] : c;
                c = clear[i - (size_t)w] < c ? clear[i - (size_t)w] : c;
                c = clear[i - (size_t)w + 1] < c ? clear[i - (size_t)w + 1] : c;
            }
            clear[i] = (uint8_t)(ff_grid_open(g, i) ? (c < 255 ? c + 1 : 255) : 0);
        }
    for (y = h - 1; y >= 0; y--)
        for (x = w - 1; x >= 0; x--) {
            size_t i = (size_t)y * (size_t)w + (size_t)x;
            unsigned c = 0;
            if (!clear[i])
                continue;
            if (x > 0 && y < h - 1 && x < w - 1) {
                c = clear[i + 1];
                c = clear[i + (size_t)w - 1] < c ? clear[i + (size_t)w - 1] : c;
                c = clear[i + (size_t)w] < c ? clear[i + (size_t)w] : c;
                c = clear[i + (size_t)w + 1] < c ? clear[i + (size_t)w + 1] : c;
            }
            if (c + 1 < clear[i])
                clear[i] = (uint8_t)(c + 1);
        }
}

/* The row (or column) of the cell a segment is in just before it reaches
 * coordinate a + s * num / den (half cells; num > 0), heading the way of
 * sign s. */
static int64_t cell_before(int64_t a, int s, int64_t num, int64_t den)
{
    return s > 0 ? (a * den + num - 1) / (2 * den) : (a * den - num) / (2 * den);
}

int ff_free_segment(const ff_grid *g, int64_t ax, int64_t ay, int64_t bx, int64_t by)
{
    return ff_free_segment_leaping(g, NULL, ax, ay, bx, by);
}

int ff_free_segment_leaping(const ff_grid *g, const uint8_t *clear, int64_t ax, int64_t ay,
                            int64_t bx, int64_t by)
{
    int64_t dx = bx - ax, dy = by - ay, adx, ady, cx, cy, next_x, next_y, whole;
    int sx, sy;

    if (dx == 0 && dy == 0) {
        if (ax & 1)
            return ff_free_cell(g, (ax - 1) / 2, (ay - 1) / 2);
        return (ff_free_cell(g, ax / 2 - 1, ay / 2 - 1) || ff_free_cell(g, ax / 2, ay / 2 - 1) ||
                ff_free_cell(g, ax / 2 - 1, ay / 2) || ff_free_cell(g, ax / 2, ay / 2)) &&
               !(g->corners == FF_CORNERS_STRICT && ff_free_pinch(g, ax / 2, ay / 2));
    }
    if (dy == 0)
        return along_axis(g, 0, ax, bx, ay);
    if (dx == 0)
        return along_axis(g, 1, ay, by, ax);
    sx = dx > 0 ? 1 : -1;
    sy = dy > 0 ? 1 : -1;
    adx = dx * sx;
    ady = dy * sy;
    whole = adx * ady;
    cx = first_cell(ax, sx);
    cy = first_cell(ay, sy);
    next_x = sx > 0 ? 2 * (cx + 1) : 2 * cx;
    next_y = sy > 0 ? 2 * (cy + 1) : 2 * cy;
    for (;;) {
        /* The crossings' parameters along the segment, times adx * ady. */
        int64_t tx, ty, c;
        if (!ff_free_cell(g, cx, cy))
            return 0;
        while (clear && (c = clear[cy * g->w + cx]) >= 2) {
            /* The open square's far sides, and where the segment leaves it. */
            int64_t ex = sx > 0 ? 2 * (cx + c) : 2 * (cx - c + 1);
            int64_t ey = sy > 0 ? 2 * (cy + c) : 2 * (cy - c + 1);
            int64_t lx = (ex - ax) * sx * ady, ly = (ey - ay) * sy * adx;
            if (lx >= whole && ly >= whole)
                return 1;
            if (lx <= ly) {
                cy = cell_before(ay, sy, lx, adx);
                cx = sx > 0 ? cx + c - 1 : cx - c + 1;
            } else {
                cx = cell_before(ax, sx, ly, ady);
                cy = sy > 0 ? cy + c - 1 : cy - c + 1;
            }
            next_x = sx > 0 ? 2 * (cx + 1) : 2 * cx;
            next_y = sy > 0 ? 2 * (cy + 1) : 2 * cy;
        }
        tx = (next_x - ax) * sx * ady;
        ty = (next_y - ay) * sy * adx;
        if (tx >= whole && ty >= whole)
            return 1;
        if (tx < ty) {
            cx += sx;
            next_x += 2 * sx;
        } else if (ty < tx) {
            cy += sy;
            next_y += 2 * sy;
        } else {
            if (g->corners == FF_CORNERS_STRICT && !ff_free_cell(g, cx + sx, cy) &&
                !ff_free_cell(g, cx, cy + sy))
                return 0;
            cx += sx;
            cy += sy;
            next_x += 2 * sx;
            next_y += 2 * sy;
        }
    }
}
