/* reserve.c - cell and edge reservations; see reserve.h. */
#include "reserve.h"

#include <stdlib.h>
#include <string.h>

ff_status ff_reserver_init(ff_reserver *r, int32_t w, int32_t h, ff_error *err)
{
    size_t n = (size_t)w * (size_t)h, nc = ((size_t)w + 1) * ((size_t)h + 1);

    memset(r, 0, sizeof *r);
    r->w = w;
    r->h = h;
    r->occ = malloc(n * sizeof *r->occ);
    r->occ_stamp = calloc(n, sizeof *r->occ_stamp);
    r->res = malloc(n * sizeof *r->res);
    r->res_stamp = calloc(n, sizeof *r->res_stamp);
    r->corner = malloc(nc * sizeof *r->corner);
    r->corner_stamp = calloc(nc, sizeof *r->corner_stamp);
    if (!r->occ || !r->occ_stamp || !r->res || !r->res_stamp || !r->corner || !r->corner_stamp) {
        ff_reserver_free(r);
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for reservations");
    }
    return FF_OK;
}

void ff_reserver_free(ff_reserver *r)
{
    free(r->occ);
    free(r->occ_stamp);
    free(r->res);
    free(r->res_stamp);
    free(r->corner);
    free(r->corner_stamp);
    free(r->order);
    free(r->decided);
    free(r->dep_head);
    free(r->dep_next);
    free(r->stack);
    memset(r, 0, sizeof *r);
}

static const ff_reserve_request *sort_req;

/* The grant order: priority, then longer wait, then id, then index (ids
 * are unique, so the last never decides). */
static int cmp_order(const void *pa, const void *pb)
{
    const ff_reserve_request *a = &sort_req[*(const uint32_t *)pa], *b = &sort_req[*(const uint32_t *)pb];
    if (a->priority != b->priority)
        return a->priority < b->priority ? -1 : 1;
    if (a->waited != b->waited)
        return a->waited > b->waited ? -1 : 1;
    if (a->id != b->id)
        return a->id < b->id ? -1 : 1;
    return *(const uint32_t *)pa < *(const uint32_t *)pb ? -1 : 1;
}

/* The footprint of center cell c with half-width k, clipped to the map:
 * cells [x0, x1] x [y0, y1]. */
static void footprint(const ff_reserver *r, uint32_t c, int32_t k, int32_t *x0, int32_t *y0,
                      int32_t *x1, int32_t *y1)
{
    int32_t x = (int32_t)(c % (uint32_t)r->w), y = (int32_t)(c / (uint32_t)r->w);
    *x0 = x - k < 0 ? 0 : x - k;
    *y0 = y - k < 0 ? 0 : y - k;
    *x1 = x + k >= r->w ? r->w - 1 : x + k;
    *y1 = y + k >= r->h ? r->h - 1 : y + k;
}

static void reserve_cells(ff_reserver *r, uint32_t c, int32_t k, uint32_t who)
{
    int32_t x0, y0, x1, y1, x, y;
    footprint(r, c, k, &x0, &y0, &x1, &y1);
    for (y = y0; y <= y1; y++)
        for (x = x0; x <= x1; x++) {
            size_t i = (size_t)y * (size_t)r->w + (size_t)x;
            r->res[i] = who;
            r->res_stamp[i] = r->stamp;
        }
}

/* 1 when the footprints (a, ka) and (b, kb) share a cell. */
static int overlap(const ff_reserver *r, uint32_t a, int32_t ka, uint32_t b, int32_t kb)
{
    int32_t ax = (int32_t)(a % (uint32_t)r->w), ay = (int32_t)(a / (uint32_t)r->w);
    int32_t bx = (int32_t)(b % (uint32_t)r->w), by = (int32_t)(b / (uint32_t)r->w);
    int32_t dx = ax > bx ? ax - bx : bx - ax, dy = ay > by ? ay - by : by - ay;
    return dx <= ka + kb && dy <= ka + kb;
}

/* Whether request i may move its center to cell next: 0 yes; 1 refused
 * by *blocker; 2 waiting on the undecided *blocker. */
static int check(const ff_reserver *r, const ff_reserve_request *req, uint32_t i, uint32_t next,
                 uint32_t *blocker)
{
    const ff_reserve_request *q = &req[i];
    int32_t cx = (int32_t)(q->cell % (uint32_t)r->w), cy = (int32_t)(q->cell / (uint32_t)r->w);
    int32_t nx = (int32_t)(next % (uint32_t)r->w), ny = (int32_t)(next / (uint32_t)r->w);
    int diagonal = nx != cx && ny != cy, s, undecided = 0;
    uint32_t centers[3];
    int ncenters = 1;

    centers[0] = next;
    if (diagonal && q->half > 0) {
        /* A wide agent sweeps the footprints of both side cells too. */
        centers[ncenters++] = (uint32_t)cy * (uint32_t)r->w + (uint32_t)nx;
        centers[ncenters++] = (uint32_t)ny * (uint32_t)r->w + (uint32_t)cx;
    }
    for (s = 0; s < ncenters; s++) {
        int32_t x0, y0, x1, y1, x, y;
        footprint(r, centers[s], q->half, &x0, &y0, &x1, &y1);
        for (y = y0; y <= y1; y++)
            for (x = x0; x <= x1; x++) {
                size_t c = (size_t)y * (size_t)r->w + (size_t)x;
                uint32_t o;
                if (r->res_stamp[c] == r->stamp && r->res[c] != i) {
                    *blocker = r->res[c];
                    return 1;
                }
                if (r->occ_stamp[c] != r->stamp || (o = r->occ[c]) == i)
                    continue;
                if (r->decided[o] == 0) {
                    if (!undecided)
                        *blocker = o;
                    undecided = 1;
                    continue;
                }
                /* o moves away (one that stays holds its cells in res):
                 * refused when it moves into ours, an edge swap. */
                if (overlap(r, req[o].cand[req[o].granted], req[o].half, q->cell, q->half)) {
                    *blocker = o;
                    return 1;
                }
            }
    }
    if (undecided)
        return 2;
    if (diagonal && q->half == 0) {
        size_t k = (size_t)(nx > cx ? nx : cx) + (size_t)(ny > cy ? ny : cy) * ((size_t)r->w + 1);
        if (r->corner_stamp[k] == r->stamp) {
            *blocker = r->corner[k];
            return 1;
        }
    }
    return 0;
}

static void grant(ff_reserver *r, ff_reserve_request *req, uint32_t i, int c)
{
    ff_reserve_request *q = &req[i];
    uint32_t next = q->cand[c];
    int32_t cx = (int32_t)(q->cell % (uint32_t)r->w), cy = (int32_t)(q->cell / (uint32_t)r->w);
    int32_t nx = (int32_t)(next % (uint32_t)r->w), ny = (int32_t)(next / (uint32_t)r->w);

    q->granted = c;
    q->blocker = FF_RESERVE_NONE;
    r->decided[i] = 1;
    reserve_cells(r, next, q->half, i);
    if (nx != cx && ny != cy) {
        if (q->half == 0) {
            size_t k = (size_t)(nx > cx ? nx : cx) + (size_t)(ny > cy ? ny : cy) * ((size_t)r->w + 1);
            r->corner[k] = i;
            r->corner_stamp[k] = r->stamp;
        } else {
            reserve_cells(r, (uint32_t)cy * (uint32_t)r->w + (uint32_t)nx, q->half, i);
            reserve_cells(r, (uint32_t)ny * (uint32_t)r->w + (uint32_t)cx, q->half, i);
        }
    }
}

static void stay(ff_reserver *r, ff_reserve_request *req, uint32_t i)
{
    req[i].granted = -1;
    r->decided[i] = 2;
    reserve_cells(r, req[i].cell, req[i].half, i);
}

ff_status ff_reserve_grant(ff_reserver *r, ff_reserve_request *req, size_t n, ff_error *err)
{
    size_t k, left = 0;
    int final;

    if (n > r->cap) {
        uint32_t *o = realloc(r->order, n * sizeof *o), *h, *x, *st;
        uint8_t *d;
        if (o)
            r->order = o;
        d = realloc(r->decided, n);
        if (d)
            r->decided = d;
        h = realloc(r->dep_head, n * sizeof *h);
        if (h)
            r->dep_head = h;
        x = realloc(r->dep_next, n * sizeof *x);
        if (x)
            r->dep_next = x;
        st = realloc(r->stack, n * sizeof *st);
        if (st)
            r->stack = st;
        if (!o || !d || !h || !x || !st)
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for reservations");
        r->cap = n;
    }
    if (++r->stamp == 0) {
        size_t cells = (size_t)r->w * (size_t)r->h;
        memset(r->occ_stamp, 0, cells * sizeof *r->occ_stamp);
        memset(r->res_stamp, 0, cells * sizeof *r->res_stamp);
        memset(r->corner_stamp, 0, ((size_t)r->w + 1) * ((size_t)r->h + 1) * sizeof *r->corner_stamp);
        r->stamp = 1;
    }
    for (k = 0; k < n; k++) {
        int32_t x0, y0, x1, y1, x, y;
        footprint(r, req[k].cell, req[k].half, &x0, &y0, &x1, &y1);
        for (y = y0; y <= y1; y++)
            for (x = x0; x <= x1; x++) {
                size_t c = (size_t)y * (size_t)r->w + (size_t)x;
                r->occ[c] = (uint32_t)k;
                r->occ_stamp[c] = r->stamp;
            }
        req[k].granted = -1;
        req[k].blocker = FF_RESERVE_NONE;
        r->decided[k] = 0;
    }
    for (k = 0; k < n; k++)
        if (req[k].ncand == 0)
            stay(r, req, (uint32_t)k);
        else
            r->order[left++] = (uint32_t)k;
    if (left > 1) {
        sort_req = req;
        qsort(r->order, left, sizeof *r->order, cmp_order);
        sort_req = NULL;
    }
    for (k = 0; k < n; k++)
        r->dep_head[k] = FF_RESERVE_NONE;
    /* In grant order; a request waiting on an undecided one is chained to
     * it and looked at again (with everyone waiting on it, and so on) the
     * moment it is decided.  What still waits after that waits in a
     * cycle: a second pass in grant order takes "undecided" as "no". */
    for (final = 0; final < 2; final++)
        for (k = 0; k < left; k++) {
            size_t top = 0;
            if (r->decided[r->order[k]])
                continue;
            r->stack[top++] = r->order[k];
            while (top > 0) {
                uint32_t i = r->stack[--top], b, w;
                int c, waiting = 0;
                for (c = 0; c < req[i].ncand; c++) {
                    int why = check(r, req, i, req[i].cand[c], &b);
                    if (why == 0)
                        break;
                    if (c == 0)
                        req[i].blocker = b;
                    if (why == 2 && !final) {
                        waiting = 1;
                        break;
                    }
                }
                if (waiting) {
                    r->dep_next[i] = r->dep_head[b];
                    r->dep_head[b] = i;
                    continue;
                }
                if (c < req[i].ncand)
                    grant(r, req, i, c);
                else
                    stay(r, req, i);
                /* Those waiting on i, the earliest chained looked at first. */
                for (w = r->dep_head[i]; w != FF_RESERVE_NONE; w = r->dep_next[w])
                    if (!r->decided[w])
                        r->stack[top++] = w;
                r->dep_head[i] = FF_RESERVE_NONE;
            }
        }
    return FF_OK;
}

uint32_t ff_reserve_holder(const ff_reserver *r, uint32_t cell)
{
    return r->res_stamp[cell] == r->stamp ? r->res[cell] : FF_RESERVE_NONE;
}

int ff_reserve_claim(ff_reserver *r, uint32_t center, int32_t half, uint32_t who)
{
    int32_t x0, y0, x1, y1, x, y;
    footprint(r, center, half, &x0, &y0, &x1, &y1);
    for (y = y0; y <= y1; y++)
        for (x = x0; x <= x1; x++)
            if (r->res_stamp[(size_t)y * (size_t)r->w + (size_t)x] == r->stamp)
                return 0;
    reserve_cells(r, center, half, who);
    return 1;
}

size_t ff_reserve_cycles(const uint32_t *waits_on, size_t n, int32_t *cycle, uint8_t *scratch)
{
    size_t k, ncycles = 0;

    /* scratch: 0 unseen, 1 on the walk being followed, 2 done. */
    memset(scratch, 0, n);
    for (k = 0; k < n; k++)
        cycle[k] = -1;
    for (k = 0; k < n; k++) {
        size_t v = k;
        if (scratch[k])
            continue;
        while (v < n && scratch[v] == 0) {
            scratch[v] = 1;
            v = waits_on[v] == FF_RESERVE_NONE ? n : waits_on[v];
        }
        if (v < n && scratch[v] == 1) {
            size_t u = v;
            do {
                cycle[u] = (int32_t)ncycles;
                u = waits_on[u];
            } while (u != v);
            ncycles++;
        }
        for (v = k; v < n && scratch[v] == 1; v = waits_on[v] == FF_RESERVE_NONE ? n : waits_on[v])
            scratch[v] = 2;
    }
    return ncycles;
}
