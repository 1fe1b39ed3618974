/* los.c - exact line of sight on a grid; see los.h.
 *
 * The traversal is Amanatides and Woo's ("A Fast Voxel Traversal Algorithm
 * for Ray Tracing", 1987), with the comparison of the next vertical and
 * horizontal crossing done by an exact orientation test instead of floating
 * t values, so that a crossing exactly through a grid corner is recognised
 * and handled by the corner rule.  A segment lying on a grid line touches
 * two rows (or columns) of cells along its length and is handled apart.
 */
#include "los.h"

#include <math.h>
#include <stddef.h>

/* Error-free transformations (Knuth's TwoSum, Dekker's TwoProduct with
 * Veltkamp's split).  They assume IEEE doubles rounded to nearest without
 * extended precision (FLT_EVAL_METHOD 0: x86-64, aarch64). */
static void two_sum(double a, double b, double *s, double *e)
{
    double x = a + b, bv = x - a, av = x - bv;
    *s = x;
    *e = (a - av) + (b - bv);
}

static void two_diff(double a, double b, double *s, double *e)
{
    double x = a - b, bv = a - x, av = x + bv;
    *s = x;
    *e = (a - av) + (bv - b);
}

static void split(double a, double *hi, double *lo)
{
    double c = 134217729.0 * a, big = c - a;
    *hi = c - big;
    *lo = a - *hi;
}

static void two_product(double a, double b, double *p, double *e)
{
    double x = a * b, ahi, alo, bhi, blo, err;
    split(a, &ahi, &alo);
    split(b, &bhi, &blo);
    err = x - ahi * bhi;
    err -= alo * bhi;
    err -= ahi * blo;
    *p = x;
    *e = alo * blo - err;
}

/* Sign of the exact sum of n doubles (n <= 16): grow a nonoverlapping
 * expansion term by term (Shewchuk's GROW-EXPANSION with zero elimination);
 * its sign is the sign of its largest, last component. */
static int sum_sign(const double *term, int n)
{
    double h[17];
    int m = 0, k, i;

    for (k = 0; k < n; k++) {
        double q = term[k];
        int mm = 0;
        if (q == 0)
            continue;
        for (i = 0; i < m; i++) {
            double e;
            two_sum(q, h[i], &q, &e);
            if (e != 0)
                h[mm++] = e;
        }
        if (q != 0)
            h[mm++] = q;
        m = mm;
    }
    return m == 0 ? 0 : (h[m - 1] > 0 ? 1 : -1);
}

/* (x1 + x0) * (y1 + y0) as 8 terms, negated when neg. */
static void product_terms(double x1, double x0, double y1, double y0, int neg, double *t)
{
    double xs[2] = { x1, x0 }, ys[2] = { y1, y0 };
    int i, j, k = 0;

    for (i = 0; i < 2; i++)
        for (j = 0; j < 2; j++) {
            two_product(xs[i], ys[j], &t[k], &t[k + 1]);
            if (neg) {
                t[k] = -t[k];
                t[k + 1] = -t[k + 1];
            }
            k += 2;
        }
}

int ff_orient(double ax, double ay, double bx, double by, double cx, double cy)
{
    /* (3 + 16 eps) eps, eps = 2^-53: Shewchuk's ccwerrboundA. */
    static const double err_bound_a = 3.3306690738754716e-16;
    double left = (bx - ax) * (cy - ay), right = (by - ay) * (cx - ax);
    double det = left - right, sum;
    double b1, b0, c1, c0, d1, d0, e1, e0, term[16];

    if (left > 0) {
        if (right <= 0)
            return det > 0 ? 1 : (det < 0 ? -1 : 0);
        sum = left + right;
    } else if (left < 0) {
        if (right >= 0)
            return det > 0 ? 1 : (det < 0 ? -1 : 0);
        sum = -left - right;
    } else
        return det > 0 ? 1 : (det < 0 ? -1 : 0);
    if (det >= err_bound_a * sum || -det >= err_bound_a * sum)
        return det > 0 ? 1 : (det < 0 ? -1 : 0);
    two_diff(bx, ax, &b1, &b0);
    two_diff(cy, ay, &c1, &c0);
    two_diff(by, ay, &d1, &d0);
    two_diff(cx, ax, &e1, &e0);
    product_terms(b1, b0, c1, c0, 0, term);
    product_terms(d1, d0, e1, e0, 1, term + 8);
    return sum_sign(term, 16);
}

/* What a sight line from one start may cross. */
typedef struct {
    const ff_grid *g;
    ff_corners rule;  /* the corner rule in force */
    uint8_t cls;      /* the start cell's terrain class */
    float cost;       /* the start cell's cost */
} sight;

/* Inside the map, open, and of the start's class and cost. */
static int passable(const sight *s, long long x, long long y)
{
    size_t i;

    if (x < 0 || y < 0 || x >= s->g->w || y >= s->g->h)
        return 0;
    i = (size_t)y * (size_t)s->g->w + (size_t)x;
    return ff_grid_open(s->g, i) && s->g->cost[i] == s->cost &&
           (!s->g->terrain || s->g->terrain[i] == s->cls);
}

static int dir_code(int dx, int dy)
{
    int d;

    for (d = 0; d < 8; d++)
        if (ff_dir_dx[d] == dx && ff_dir_dy[d] == dy)
            return d;
    return FF_DIR_NONE;
}

/* The one-way mask of passable cell (x, y) lets it be left toward d. */
static int may_leave(const sight *s, long long x, long long y, int d)
{
    return !s->g->oneway ||
           (s->g->oneway[(size_t)y * (size_t)s->g->w + (size_t)x] >> d) & 1u;
}

/* Move the chain from cell (x, y) to its neighbour (x+dx, y+dy): the step
 * must be one the chain may take, and the new cell passable. */
static int step(const sight *s, long long *x, long long *y, int dx, int dy)
{
    if (dx && dy) {
        int side_x = passable(s, *x + dx, *y), side_y = passable(s, *x, *y + dy);
        if (s->rule == FF_CORNERS_STRICT && !(side_x && side_y))
            return 0;
        if (s->rule == FF_CORNERS_CUT && !(side_x || side_y))
            return 0;
    }
    if (!may_leave(s, *x, *y, dir_code(dx, dy)))
        return 0;
    *x += dx;
    *y += dy;
    return passable(s, *x, *y);
}

/* The cell a segment arrives from at coordinate u, moving with sign sd:
 * arriving at a grid line from below, the cell below it. */
static long long cell_arriving(double u, int sd)
{
    double f = floor(u);
    return (long long)(sd > 0 && f == u ? f - 1 : f);
}

/* Strict rule at an end point: every cell whose closed square holds it. */
static int corners_open(const sight *s, double ux, double uy)
{
    long long x = (long long)floor(ux), y = (long long)floor(uy);
    int ox = floor(ux) == ux, oy = floor(uy) == uy, i, j;

    for (j = oy ? -1 : 0; j <= 0; j++)
        for (i = ox ? -1 : 0; i <= 0; i++)
            if (!passable(s, x + i, y + j))
                return 0;
    return 1;
}

/* The general case: S crosses grid lines transversally.  Walk the cells
 * whose interior S meets, from the start cell to the end cell.  When a lies
 * on a grid line, the crossing at t = 0 is an ordinary step of the walk
 * (the orientation test sees a corner at a itself as a corner). */
static int traverse(const sight *s, double ax, double ay, double bx, double by, int sx, int sy)
{
    long long x = (long long)floor(ax), y = (long long)floor(ay);
    long long lx = cell_arriving(bx, sx), ly = cell_arriving(by, sy);
    long long ex = (long long)floor(bx), ey = (long long)floor(by);

    while (x != lx || y != ly) {
        int mx = x != lx, my = y != ly;
        if (mx && my) {
            /* Which grid line does S cross first: the vertical one at vx
             * or the horizontal one at vy?  Both: it passes the corner. */
            double vx = (double)(sx > 0 ? x + 1 : x), vy = (double)(sy > 0 ? y + 1 : y);
            int o = ff_orient(ax, ay, bx, by, vx, vy) * sx * sy;
            if (o > 0)
                my = 0;
            else if (o < 0)
                mx = 0;
        }
        if (!step(s, &x, &y, mx ? sx : 0, my ? sy : 0))
            return 0;
    }
    /* b on the boundary of the cell S arrives from. */
    if ((ex != x || ey != y) && !step(s, &x, &y, (int)(ex - x), (int)(ey - y)))
        return 0;
    return 1;
}

/* S lies on grid line `line` (a row boundary y = line when vertical is 0,
 * a column boundary x = line when 1) and runs from coordinate u0 to u1
 * along it, direction sign sd.  The cells touched are the pairs beside
 * each stretch, from the start's to the end's. */
static int run_along(const sight *s, double u0, double u1, long long line, int sd, int vertical)
{
    long long c = (long long)floor(u0), end = (long long)floor(u1);
    int d = vertical ? (sd > 0 ? FF_DIR_S : FF_DIR_N) : (sd > 0 ? FF_DIR_E : FF_DIR_W);
    int before_open = 0, after_open = 0, first = 1;

    for (;;) {
        /* "before" is the north (or west) cell, "after" the south (east). */
        long long bx = vertical ? line - 1 : c, by = vertical ? c : line - 1;
        long long ax = vertical ? line : c, ay = vertical ? c : line;
        int b_open = passable(s, bx, by), a_open = passable(s, ax, ay);
        if (!b_open && !a_open)
            return 0;
        if (s->rule == FF_CORNERS_STRICT && !(b_open && a_open))
            return 0;
        /* Cut: a 4-connected chain from one pair to the next needs an
         * open cell on the same side in both. */
        if (!first && s->rule == FF_CORNERS_CUT &&
            !((before_open && b_open) || (after_open && a_open)))
            return 0;
        if (c == end)
            return 1;
        if ((b_open && !may_leave(s, bx, by, d)) || (a_open && !may_leave(s, ax, ay, d)))
            return 0;
        before_open = b_open;
        after_open = a_open;
        first = 0;
        c += sd;
    }
}

int ff_los(const ff_grid *g, double ax, double ay, double bx, double by)
{
    double ux = (ax - g->origin_x) / g->cell_size, uy = (ay - g->origin_y) / g->cell_size;
    double vx = (bx - g->origin_x) / g->cell_size, vy = (by - g->origin_y) / g->cell_size;
    sight s;
    size_t i;
    int sx, sy;

    if (!(ux >= 0 && uy >= 0 && ux < g->w && uy < g->h) ||
        !(vx >= 0 && vy >= 0 && vx < g->w && vy < g->h))
        return 0;
    i = (size_t)floor(uy) * (size_t)g->w + (size_t)floor(ux);
    if (!ff_grid_open(g, i))
        return 0;
    s.g = g;
    s.rule = g->corners;
    if (g->moves == 4 && s.rule == FF_CORNERS_FREE)
        s.rule = FF_CORNERS_CUT;  /* 4 moves never slip between corners */
    s.cls = g->terrain ? g->terrain[i] : 0;
    s.cost = g->cost[i];
    if (!passable(&s, (long long)floor(vx), (long long)floor(vy)))
        return 0;
    sx = (vx > ux) - (vx < ux);
    sy = (vy > uy) - (vy < uy);
    if (!sx && !sy)
        return 1;
    if (s.rule == FF_CORNERS_STRICT && !(corners_open(&s, ux, uy) && corners_open(&s, vx, vy)))
        return 0;
    if (!sy && floor(uy) == uy)
        return run_along(&s, ux, vx, (long long)uy, sx, 0);
    if (!sx && floor(ux) == ux)
        return run_along(&s, uy, vy, (long long)ux, sy, 1);
    return traverse(&s, ux, uy, vx, vy, sx, sy);
}
