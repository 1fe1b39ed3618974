/* grid.c - the graph a map makes; see grid.h. */
#include "grid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

const int ff_dir_dx[8] = { 0, 1, 0, -1, 1, 1, -1, -1 };
const int ff_dir_dy[8] = { -1, 0, 1, 0, -1, 1, 1, -1 };
const char *const ff_dir_name[8] = { "N", "E", "S", "W", "NE", "SE", "SW", "NW" };

void ff_grid_init(ff_grid *g)
{
    memset(g, 0, sizeof *g);
    g->cell_size = 1.0;
    g->moves = 8;
    g->corners = FF_CORNERS_STRICT;
}

void ff_grid_free(ff_grid *g)
{
    free(g->cost);
    free(g->oneway);
    free(g->terrain);
    free(g->goals);
    free(g->spawns);
    ff_grid_init(g);
}

ff_status ff_check_size(int64_t w, int64_t h, uint64_t max_cells,
                        const char *file, long line, ff_error *err)
{
    if (max_cells == 0)
        max_cells = FF_MAX_CELLS_DEFAULT;
    if (w <= 0 || h <= 0)
        return ff_error_set(err, FF_EINPUT, file, line, 0,
                            "size %lld x %lld: width and height must be positive",
                            (long long)w, (long long)h);
    if (w > INT32_MAX || h > INT32_MAX || (uint64_t)w > max_cells / (uint64_t)h)
        return ff_error_set(err, FF_EINPUT, file, line, 0,
                            "size %lld x %lld is more than %llu cells",
                            (long long)w, (long long)h,
                            (unsigned long long)max_cells);
    return FF_OK;
}

ff_status ff_grid_alloc(ff_grid *g, int64_t w, int64_t h, uint64_t max_cells,
                        const char *file, ff_error *err)
{
    ff_status st = ff_check_size(w, h, max_cells, file, 0, err);
    size_t n, i;

    if (st != FF_OK)
        return st;
    n = (size_t)w * (size_t)h;
    g->cost = malloc(n * sizeof *g->cost);
    if (!g->cost)
        return ff_error_set(err, FF_ENOMEM, file, 0, 0,
                            "out of memory for %zu cells", n);
    for (i = 0; i < n; i++)
        g->cost[i] = INFINITY;
    g->w = (int32_t)w;
    g->h = (int32_t)h;
    return FF_OK;
}

static void *dup_array(const void *src, size_t bytes, int *fail)
{
    void *p;

    if (!src || bytes == 0)
        return NULL;
    p = malloc(bytes);
    if (!p)
        *fail = 1;
    else
        memcpy(p, src, bytes);
    return p;
}

ff_status ff_grid_copy(ff_grid *dst, const ff_grid *src, ff_error *err)
{
    size_t n = (size_t)src->w * (size_t)src->h;
    int fail = 0;

    *dst = *src;
    dst->cost = dup_array(src->cost, n * sizeof *src->cost, &fail);
    dst->oneway = dup_array(src->oneway, n, &fail);
    dst->terrain = dup_array(src->terrain, n, &fail);
    dst->goals = dup_array(src->goals, src->ngoals * sizeof *src->goals, &fail);
    dst->spawns = dup_array(src->spawns, src->nspawns * sizeof *src->spawns, &fail);
    if (fail) {
        ff_grid_free(dst);
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory copying a grid");
    }
    return FF_OK;
}

double ff_step_length(int d)
{
    return d < 4 ? 1.0 : FF_SQRT2;
}

/* Open and of terrain class cls. */
static int open_in_class(const ff_grid *g, size_t i, uint8_t cls)
{
    return ff_grid_open(g, i) && (!g->terrain || g->terrain[i] == cls);
}

int ff_grid_step_ok(const ff_grid *g, int x, int y, int d)
{
    int nx, ny;
    size_t i, j;
    uint8_t cls;

    if (d < 0 || d >= g->moves)
        return 0;
    nx = x + ff_dir_dx[d];
    ny = y + ff_dir_dy[d];
    if (x < 0 || y < 0 || x >= g->w || y >= g->h ||
        nx < 0 || ny < 0 || nx >= g->w || ny >= g->h)
        return 0;
    i = (size_t)y * (size_t)g->w + (size_t)x;
    j = (size_t)ny * (size_t)g->w + (size_t)nx;
    if (!ff_grid_open(g, i))
        return 0;
    cls = g->terrain ? g->terrain[i] : 0;
    if (!open_in_class(g, j, cls))
        return 0;
    if (g->oneway && !(g->oneway[i] & (1u << d)))
        return 0;
    if (d >= 4 && g->corners != FF_CORNERS_FREE) {
        int a = open_in_class(g, (size_t)y * (size_t)g->w + (size_t)nx, cls);
        int b = open_in_class(g, (size_t)ny * (size_t)g->w + (size_t)x, cls);
        if (g->corners == FF_CORNERS_STRICT ? !(a && b) : !(a || b))
            return 0;
    }
    return 1;
}

/* The directions d < moves (bit d) toward neighbours of cell i = (x,y)
 * that lie in the map and are open in terrain class cls; off[d] is the
 * index step of direction d. */
static unsigned open_neighbours(const ff_grid *g, size_t i, int x, int y, int moves, uint8_t cls,
                                const ptrdiff_t *off)
{
    unsigned bits = 0;
    int d;

    if (x > 0 && y > 0 && x + 1 < g->w && y + 1 < g->h) {
        /* Inside the border: every neighbour is in the map. */
        for (d = 0; d < moves; d++)
            if (open_in_class(g, (size_t)((ptrdiff_t)i + off[d]), cls))
                bits |= 1u << d;
        return bits;
    }
    for (d = 0; d < moves; d++) {
        int nx = x + ff_dir_dx[d], ny = y + ff_dir_dy[d];
        if (nx >= 0 && ny >= 0 && nx < g->w && ny < g->h &&
            open_in_class(g, (size_t)((ptrdiff_t)i + off[d]), cls))
            bits |= 1u << d;
    }
    return bits;
}

void ff_grid_step_masks(const ff_grid *g, uint8_t *out)
{
    /* ff_grid_step_ok for every step, with each neighbour looked at once:
     * a diagonal's side cells are the orthogonal neighbours (the one
     * across its x step, the one across its y step). */
    static const uint8_t side_x[4] = { FF_DIR_E, FF_DIR_E, FF_DIR_W, FF_DIR_W };
    static const uint8_t side_y[4] = { FF_DIR_N, FF_DIR_S, FF_DIR_S, FF_DIR_N };
    int moves = g->moves < 8 ? g->moves : 8, x, y, d;
    ptrdiff_t off[8];

    for (d = 0; d < 8; d++)
        off[d] = (ptrdiff_t)ff_dir_dy[d] * g->w + ff_dir_dx[d];
    for (y = 0; y < g->h; y++)
        for (x = 0; x < g->w; x++) {
            size_t i = (size_t)y * (size_t)g->w + (size_t)x;
            unsigned open, m;
            if (!ff_grid_open(g, i)) {
                out[i] = 0;
                continue;
            }
            open = open_neighbours(g, i, x, y, moves, g->terrain ? g->terrain[i] : 0, off);
            m = open & 0xFu;
            for (d = 4; d < moves; d++) {
                unsigned a = (open >> side_x[d - 4]) & 1u, b = (open >> side_y[d - 4]) & 1u;
                if (!((open >> d) & 1u))
                    continue;
                if (g->corners == FF_CORNERS_FREE || (g->corners == FF_CORNERS_STRICT ? a && b : a || b))
                    m |= 1u << d;
            }
            if (g->oneway)
                m &= g->oneway[i];
            out[i] = (uint8_t)m;
        }
}

double ff_grid_step_cost(const ff_grid *g, size_t i, int d)
{
    size_t j = (size_t)((ptrdiff_t)i + ff_dir_dy[d] * (ptrdiff_t)g->w + ff_dir_dx[d]);
    /* The same operations, in the same order, as the search's relaxation,
     * so that both round alike. */
    double half_len = ff_step_length(d) * g->cell_size * 0.5;
    return half_len * ((double)g->cost[i] + (double)g->cost[j]);
}

ff_status ff_grid_check_goal(const ff_grid *g, int64_t x, int64_t y, const char *file,
                             long line, long col, ff_error *err)
{
    if (x < 0 || y < 0 || x >= g->w || y >= g->h)
        return ff_error_set(err, FF_EINPUT, file, line, col,
                            "goal %lld,%lld is outside the %dx%d map",
                            (long long)x, (long long)y, g->w, g->h);
    if (!ff_grid_open(g, (size_t)y * (size_t)g->w + (size_t)x))
        return ff_error_set(err, FF_EINPUT, file, line, col,
                            "goal %lld,%lld is on a blocked cell%s",
                            (long long)x, (long long)y,
                            g->radius > 0 ? " (closed by the clearance radius)" : "");
    return FF_OK;
}

static int cmp_cell(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

size_t ff_cells_sort(uint32_t *cells, size_t n)
{
    size_t k, m = 0;

    if (n > 1)  /* qsort(NULL, 0, ...) is undefined */
        qsort(cells, n, sizeof *cells, cmp_cell);
    for (k = 0; k < n; k++)
        if (m == 0 || cells[m - 1] != cells[k])
            cells[m++] = cells[k];
    return m;
}

void ff_grid_sort_goals(ff_grid *g)
{
    g->ngoals = ff_cells_sort(g->goals, g->ngoals);
}

void ff_grid_drop_one_class(ff_grid *g)
{
    size_t n = (size_t)g->w * (size_t)g->h, i;

    if (!g->terrain)
        return;
    for (i = 0; i < n; i++)
        if (ff_grid_open(g, i) && g->terrain[i] != 0)
            return;
    free(g->terrain);
    g->terrain = NULL;
}

int ff_dirs_parse(const char *list, uint8_t *mask)
{
    const char *p = list;

    *mask = 0;
    for (;;) {
        size_t n = strcspn(p, ",");
        int d;
        for (d = 0; d < 8; d++)
            if (strlen(ff_dir_name[d]) == n && memcmp(p, ff_dir_name[d], n) == 0)
                break;
        if (d == 8)
            return -1;
        *mask |= (uint8_t)(1u << d);
        if (!p[n])
            return 0;
        p += n + 1;
    }
}

size_t ff_grid_goal_lower_bound(const ff_grid *g, size_t lo, size_t i)
{
    size_t hi = g->ngoals;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (g->goals[mid] < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int ff_grid_is_goal(const ff_grid *g, size_t i)
{
    size_t lo = ff_grid_goal_lower_bound(g, 0, i);
    return lo < g->ngoals && g->goals[lo] == i;
}

ff_status ff_grid_add_goal(ff_grid *g, int64_t x, int64_t y, const char *file,
                           long line, long col, ff_error *err)
{
    size_t i, lo, hi = g->ngoals;
    uint32_t *grown;
    ff_status st = ff_grid_check_goal(g, x, y, file, line, col, err);

    if (st != FF_OK)
        return st;
    i = (size_t)y * (size_t)g->w + (size_t)x;
    /* Ascending order (a map's goal tiles, most files): append. */
    lo = ff_grid_goal_lower_bound(g, hi > 0 && g->goals[hi - 1] < i ? hi : 0, i);
    if (lo < g->ngoals && g->goals[lo] == i)
        return FF_OK;
    grown = realloc(g->goals, (g->ngoals + 1) * sizeof *grown);
    if (!grown)
        return ff_error_set(err, FF_ENOMEM, file, line, col, "out of memory for goals");
    g->goals = grown;
    memmove(grown + lo + 1, grown + lo, (g->ngoals - lo) * sizeof *grown);
    grown[lo] = (uint32_t)i;
    g->ngoals++;
    return FF_OK;
}

ff_status ff_grid_append_goal(ff_grid *g, size_t *cap, int64_t x, int64_t y, const char *file,
                              long line, long col, ff_error *err)
{
    ff_status st = ff_grid_check_goal(g, x, y, file, line, col, err);
    uint32_t *grown;

    if (st != FF_OK)
        return st;
    if (!(grown = ff_grow(g->goals, cap, g->ngoals + 1, sizeof *grown, 64)))
        return ff_error_set(err, FF_ENOMEM, file, line, col, "out of memory for goals");
    g->goals = grown;
    g->goals[g->ngoals++] = (uint32_t)((size_t)y * (size_t)g->w + (size_t)x);
    return FF_OK;
}

/* Clearance.  The point of a blocked cell's square nearest to a cell center
 * always lies on the lattice of half cells (a center coordinate or a cell
 * edge), so the exact distance from each center to the blocked region is a
 * Euclidean distance transform on that lattice: (2w+1) x (2h+1) points, a
 * point being blocked when it lies on the map edge, touches a blocked cell,
 * or touches cells of two terrain classes.  The column pass keeps only the
 * odd (center) rows; the row pass is Felzenszwalb and Huttenlocher's lower
 * envelope of parabolas ("Distance Transforms of Sampled Functions", 2012). */

/* Close when (half-unit distance)^2 < (2 r / cell)^2: the limit. */
static double clearance_limit(const ff_grid *g, double radius)
{
    double limit = 2.0 * radius / g->cell_size;
    return limit * limit;
}

static int lattice_blocked(const ff_grid *g, int64_t X, int64_t Y)
{
    int64_t cx[2], cy[2];
    int nx = 0, ny = 0, a, b, have = 0;
    uint8_t cls = 0;

    if (X <= 0 || Y <= 0 || X >= 2 * (int64_t)g->w || Y >= 2 * (int64_t)g->h)
        return 1;
    if (X % 2 == 0) {
        cx[nx++] = X / 2 - 1;
        cx[nx++] = X / 2;
    } else
        cx[nx++] = (X - 1) / 2;
    if (Y % 2 == 0) {
        cy[ny++] = Y / 2 - 1;
        cy[ny++] = Y / 2;
    } else
        cy[ny++] = (Y - 1) / 2;
    for (b = 0; b < ny; b++)
        for (a = 0; a < nx; a++) {
            size_t i = (size_t)cy[b] * (size_t)g->w + (size_t)cx[a];
            uint8_t c = g->terrain ? g->terrain[i] : 0;
            if (!ff_grid_open(g, i))
                return 1;
            if (have && c != cls)
                return 1;
            cls = c;
            have = 1;
        }
    return 0;
}

ff_status ff_grid_apply_clearance(ff_grid *g, double radius, ff_error *err)
{
    int64_t W = 2 * (int64_t)g->w + 1, H = 2 * (int64_t)g->h + 1, X, Y;
    int64_t *vert = NULL;   /* h rows x W: vertical lattice distance */
    int64_t *v = NULL;      /* envelope parabola positions */
    double *z = NULL;       /* envelope boundaries */
    double limit;
    int64_t far = W + H + 2;
    ff_status st = FF_OK;

    if (!(radius >= 0) || !isfinite(radius))
        return ff_error_set(err, FF_EUSAGE, NULL, 0, 0,
                            "radius %g must be finite and >= 0", radius);
    g->radius = radius;
    if (radius == 0)
        return FF_OK;
    limit = clearance_limit(g, radius);
    if (limit <= 1) {
        /* A center's distance to the blocked lattice is a whole number of
         * half cells, under a limit of 1 only when it is 0: the center's
         * own cell is blocked.  So the transform closes no open cell. */
        size_t i, n = (size_t)g->w * (size_t)g->h;
        for (i = 0; i < n; i++)
            if (!ff_grid_open(g, i))
                g->cost[i] = INFINITY;
        return FF_OK;
    }
    vert = malloc((size_t)g->h * (size_t)W * sizeof *vert);
    v = malloc((size_t)W * sizeof *v);
    z = malloc(((size_t)W + 1) * sizeof *z);
    if (!vert || !v || !z) {
        st = ff_error_set(err, FF_ENOMEM, NULL, 0, 0,
                          "out of memory for the clearance transform");
        goto done;
    }
    for (X = 0; X < W; X++) {
        int64_t last = -far;
        for (Y = 0; Y < H; Y++) {
            if (lattice_blocked(g, X, Y))
                last = Y;
            if (Y % 2 == 1)
                vert[(size_t)(Y / 2) * (size_t)W + (size_t)X] = Y - last;
        }
        last = H + far;
        for (Y = H - 1; Y >= 0; Y--) {
            if (lattice_blocked(g, X, Y))
                last = Y;
            if (Y % 2 == 1) {
                int64_t *p = &vert[(size_t)(Y / 2) * (size_t)W + (size_t)X];
                if (last - Y < *p)
                    *p = last - Y;
            }
        }
    }
    for (Y = 0; Y < g->h; Y++) {
        const int64_t *row = vert + (size_t)Y * (size_t)W;
        int64_t k = 0, q, x;
        v[0] = 0;
        z[0] = -INFINITY;
        z[1] = INFINITY;
        for (q = 1; q < W; q++) {
            double fq = (double)row[q] * (double)row[q] + (double)q * (double)q;
            double s;
            for (;;) {
                double fv = (double)row[v[k]] * (double)row[v[k]] +
                            (double)v[k] * (double)v[k];
                s = (fq - fv) / (2.0 * (double)(q - v[k]));
                if (s > z[k])
                    break;
                k--; /* z[0] is -inf, so k never goes below 0 */
            }
            k++;
            v[k] = q;
            z[k] = s;
            z[k + 1] = INFINITY;
        }
        k = 0;
        for (x = 0; x < g->w; x++) {
            int64_t Xc = 2 * x + 1;
            double dx, d2;
            while (z[k + 1] < (double)Xc)
                k++;
            dx = (double)(Xc - v[k]);
            d2 = dx * dx + (double)row[v[k]] * (double)row[v[k]];
            if (d2 < limit)
                g->cost[(size_t)Y * (size_t)g->w + (size_t)x] = INFINITY;
        }
    }
done:
    free(vert);
    free(v);
    free(z);
    return st;
}

int ff_grid_cleared_at(const ff_grid *map, double radius, int x, int y)
{
    double limit = clearance_limit(map, radius);
    int64_t R = (int64_t)sqrt(limit) + 1, Xc = 2 * (int64_t)x + 1, Yc = 2 * (int64_t)y + 1;
    int64_t dx, dy;

    if (!ff_grid_open(map, (size_t)y * (size_t)map->w + (size_t)x))
        return 1;
    /* The distances are whole half cells, so the test is the transform's
     * own, exactly. */
    for (dy = -R; dy <= R; dy++)
        for (dx = -R; dx <= R; dx++)
            if ((double)(dx * dx + dy * dy) < limit && lattice_blocked(map, Xc + dx, Yc + dy))
                return 1;
    return 0;
}

/* The distance in half cells from coordinate c to the span lo..hi. */
static int64_t span_gap(int64_t c, int64_t lo, int64_t hi)
{
    return c < lo ? lo - c : c > hi ? c - hi : 0;
}

int ff_grid_near_cells(const ff_grid *g, double radius, int x, int y, int x0, int y0, int x1,
                       int y1)
{
    /* The lattice points the cells touch span 2 x0 .. 2 x1 + 2. */
    int64_t dx = span_gap(2 * (int64_t)x + 1, 2 * (int64_t)x0, 2 * (int64_t)x1 + 2);
    int64_t dy = span_gap(2 * (int64_t)y + 1, 2 * (int64_t)y0, 2 * (int64_t)y1 + 2);

    return (double)(dx * dx + dy * dy) < clearance_limit(g, radius);
}

double ff_clearance_key(const ff_grid *g, double radius)
{
    double limit = clearance_limit(g, radius), side = g->w < g->h ? g->w : g->h, best = 0, a;

    if (!(radius > 0))
        return -1;
    /* Every cell's center is at most side half cells (on one axis) from
     * the map's edge, a blocked lattice point. */
    if (!(limit <= side * side))
        return INFINITY;
    /* limit <= 2^32 here (w h <= 2^32): the squares are exact. */
    for (a = 0; a * a < limit; a++) {
        double rem = limit - a * a, b = floor(sqrt(rem));
        while (b > 0 && b * b >= rem)
            b--;
        while ((b + 1) * (b + 1) < rem)
            b++;
        if (a * a + b * b > best)
            best = a * a + b * b;
    }
    return best;
}

int ff_clearance_reach(const ff_grid *g, double radius)
{
    double r = ceil(radius / g->cell_size);
    return r < 1e9 ? (int)r : 1000000000;
}

static int clip(int64_t v, int64_t lo, int64_t hi)
{
    return (int)(v < lo ? lo : v > hi ? hi : v);
}

void ff_grid_clip_box(const ff_grid *g, int64_t x0, int64_t y0, int64_t x1, int64_t y1,
                      int64_t reach, int *bx0, int *by0, int *bx1, int *by1)
{
    /* Within +-2^33 here: no sum overflows. */
    *bx0 = clip(x0 - reach, 0, g->w);
    *by0 = clip(y0 - reach, 0, g->h);
    *bx1 = clip(x1 + reach, -1, (int64_t)g->w - 1);
    *by1 = clip(y1 + reach, -1, (int64_t)g->h - 1);
}

const char *ff_corners_name(ff_corners c)
{
    return c == FF_CORNERS_CUT ? "cut" : c == FF_CORNERS_FREE ? "free" : "strict";
}

int ff_corners_parse(const char *s)
{
    if (strcmp(s, "strict") == 0)
        return FF_CORNERS_STRICT;
    if (strcmp(s, "cut") == 0)
        return FF_CORNERS_CUT;
    if (strcmp(s, "free") == 0)
        return FF_CORNERS_FREE;
    return -1;
}

int ff_grid_geometry_ok(double cell_size, double origin_x, double origin_y)
{
    return ff_range_ok(FF_RANGE_CELL, cell_size) && ff_range_ok(FF_RANGE_ORIGIN, origin_x) &&
           ff_range_ok(FF_RANGE_ORIGIN, origin_y);
}
