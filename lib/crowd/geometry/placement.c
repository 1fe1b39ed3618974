/* placement.c - the disks of a scenario's spawn rules; see placement.h. */
#include "grow.h"
#include "placement.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void ff_placement_init(ff_placement *p)
{
    memset(p, 0, sizeof *p);
}

void ff_placement_free(ff_placement *p)
{
    free(p->head);
    free(p->next);
    free(p->disk);
    ff_placement_init(p);
}

/* The bucket of a world coordinate, clamped to +-2^30. */
static long long coord(const ff_placement *p, double v, double origin)
{
    double f = floor((v - origin) / p->bucket);
    return f < -1073741824.0 ? -1073741824LL : f > 1073741824.0 ? 1073741824LL : (long long)f;
}

static uint32_t slot_of(const ff_placement *p, long long bx, long long by)
{
    uint64_t h = (uint64_t)bx * 0x9e3779b97f4a7c15ULL ^ (uint64_t)by * 0xc2b2ae3d27d4eb4fULL;
    return (uint32_t)(h ^ (h >> 32)) & p->mask;
}

static uint32_t disk_slot(const ff_placement *p, size_t k)
{
    return slot_of(p, coord(p, p->disk[k].x, p->origin_x), coord(p, p->disk[k].y, p->origin_y));
}

/* A table of nslots slots (a power of two), every disk chained in it. */
static ff_status make_table(ff_placement *p, size_t nslots)
{
    int32_t *head = malloc(nslots * sizeof *head);
    size_t k;

    if (!head)
        return FF_ENOMEM;
    free(p->head);
    p->head = head;
    p->mask = (uint32_t)(nslots - 1);
    for (k = 0; k < nslots; k++)
        head[k] = -1;
    for (k = 0; k < p->n; k++) {
        uint32_t s = disk_slot(p, k);
        p->next[k] = head[s];
        head[s] = (int32_t)k;
    }
    return FF_OK;
}

ff_status ff_placement_start(ff_placement *p, double bucket, double origin_x, double origin_y)
{
    ff_placement_free(p);
    p->bucket = bucket > 0 ? bucket : 1;
    p->origin_x = origin_x;
    p->origin_y = origin_y;
    return make_table(p, 1024);
}

ff_status ff_placement_add(ff_placement *p, double x, double y, double radius, long long tick)
{
    uint32_t s;

    if (p->n == p->cap) {
        size_t cap = p->cap, next_cap = cap;
        ff_placed *d = ff_grow(p->disk, &cap, p->n + 1, sizeof *d, 1024);
        int32_t *nx;
        if (!d)
            return FF_ENOMEM;
        p->disk = d;
        if (!(nx = ff_grow(p->next, &next_cap, p->n + 1, sizeof *nx, 1024)))
            return FF_ENOMEM;
        p->next = nx;
        p->cap = cap;
    }
    p->disk[p->n].x = x;
    p->disk[p->n].y = y;
    p->disk[p->n].radius = radius;
    p->disk[p->n].tick = tick;
    p->n++;
    /* Two slots a disk at least: a slot's chain stays short. */
    if (2 * p->n > (size_t)p->mask + 1)
        return make_table(p, 2 * ((size_t)p->mask + 1));
    s = disk_slot(p, p->n - 1);
    p->next[p->n - 1] = p->head[s];
    p->head[s] = (int32_t)(p->n - 1);
    return FF_OK;
}

static int clash(const ff_placed *o, double x, double y, double radius, long long tick)
{
    double dx = o->x - x, dy = o->y - y, sum = radius + o->radius;
    return o->tick == tick && dx * dx + dy * dy < sum * sum;
}

int ff_placement_overlaps(const ff_placement *p, double x, double y, double radius,
                          long long tick, double max_radius)
{
    double reach_f = ceil((radius + max_radius) / p->bucket), span = 2 * reach_f + 1;
    long long bx = coord(p, x, p->origin_x), by = coord(p, y, p->origin_y);
    long long i, j, reach = (long long)(reach_f < 1e6 ? reach_f : 1e6);
    size_t k;

    /* Buckets within reach that would outnumber the disks (a disk far
     * larger than the others): the disks instead. */
    if (span * span > (double)p->n + 9) {
        for (k = 0; k < p->n; k++)
            if (clash(&p->disk[k], x, y, radius, tick))
                return 1;
        return 0;
    }
    for (j = by - reach; j <= by + reach; j++)
        for (i = bx - reach; i <= bx + reach; i++) {
            int32_t a;
            for (a = p->head[slot_of(p, i, j)]; a >= 0; a = p->next[a])
                if (clash(&p->disk[a], x, y, radius, tick))
                    return 1;
        }
    return 0;
}

/* A cell coordinate clamped into 0..n-1 before any cast. */
static long long cell_in(double v, int32_t n)
{
    return (long long)fmin(fmax(v, 0), (double)n - 1);
}

double ff_placement_area(const ff_grid *g, const double *rect)
{
    double cs = g->cell_size, area = 0;
    long long i, j, i0, i1, j0, j1;

    if (!rect)
        return (double)g->nspawns * cs * cs;
    i0 = cell_in(floor((rect[0] - g->origin_x) / cs), g->w);
    i1 = cell_in(floor((rect[2] - g->origin_x) / cs), g->w);
    j0 = cell_in(floor((rect[1] - g->origin_y) / cs), g->h);
    j1 = cell_in(floor((rect[3] - g->origin_y) / cs), g->h);
    for (j = j0; j <= j1; j++)
        for (i = i0; i <= i1; i++) {
            double x0 = g->origin_x + (double)i * cs, y0 = g->origin_y + (double)j * cs;
            double wx = fmin(x0 + cs, rect[2]) - fmax(x0, rect[0]);
            double wy = fmin(y0 + cs, rect[3]) - fmax(y0, rect[1]);
            if (wx > 0 && wy > 0 && ff_grid_open(g, (size_t)j * (size_t)g->w + (size_t)i))
                area += wx * wy;
        }
    return area;
}

uint64_t ff_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
/* A uniform draw in [0, 1) from the top 53 bits. */
static double unit_draw(uint64_t *state)
{
    return (double)(ff_splitmix64(state) >> 11) * (1.0 / 9007199254740992.0);
}

/* 0 when (x, y) is a clear place for a disk of radius rad, else why not:
 * 1 outside the map, 2 on a wall, 3 too near a wall. */
int ff_placement_problem(const ff_walls *w, double x, double y, double rad)
{
    const ff_grid *g = w->grid;
    long long cx, cy;
    double ox = g->origin_x, oy = g->origin_y, c = g->cell_size;

    /* Range first, in doubles: a far position must not overflow the
     * conversion to an integer cell. */
    if (!(x >= ox && y >= oy && (x - ox) / c < g->w && (y - oy) / c < g->h))
        return 1;
    cx = (long long)floor((x - ox) / c);
    cy = (long long)floor((y - oy) / c);
    if (cx >= g->w || cy >= g->h)
        return 1;
    if (!ff_grid_open(g, (size_t)cy * (size_t)g->w + (size_t)cx))
        return 2;
    if (ff_walls_nearest(w, x, y, rad, NULL, NULL) < rad)
        return 3;
    return 0;
}

int ff_placement_draw(const ff_placement *p, const ff_walls *w, const double *rect, uint64_t *seed,
                      int tries, double rad, long long tick, double max_radius, double *fx, double *fy)
{
    const ff_grid *g = w->grid;
    int k, found = 0;

    for (k = 0; k < tries; k++) {
        double x, y;
        if (rect) {
            x = rect[0] + unit_draw(seed) * (rect[2] - rect[0]);
            y = rect[1] + unit_draw(seed) * (rect[3] - rect[1]);
        } else {
            uint32_t cell = g->spawns[ff_splitmix64(seed) % g->nspawns];
            double u = unit_draw(seed), v = unit_draw(seed);
            x = g->origin_x + ((double)(cell % (uint32_t)g->w) + u) * g->cell_size;
            y = g->origin_y + ((double)(cell / (uint32_t)g->w) + v) * g->cell_size;
        }
        if (ff_placement_problem(w, x, y, rad))
            continue;
        if (!found) {
            found = 1;
            *fx = x;
            *fy = y;
        }
        if (!ff_placement_overlaps(p, x, y, rad, tick, max_radius)) {
            *fx = x;
            *fy = y;
            return 2;
        }
    }
    return found;
}
