/* contact.c - the pairs that may touch after a tick's moves (from the
 * steering's candidates or a fresh neighbour search), their overlap
 * resolution, and the overlap measure; see contact.h and man 1 ffsim. */
#include <stdlib.h>

#include "contact.h"

void ff_contacts_begin(ff_crowd *c, int collect)
{
    c->ncand = 0;
    c->cand_failed = 0;
    if (collect && c->cap_cand < c->hash.n) {
        uint32_t *p = realloc(c->cand, 2 * c->hash.n * sizeof *p);
        if (p) {
            c->cand = p;
            c->cap_cand = c->hash.n;
        }
    }
}

/* ---- contact candidates ----
 *
 * The overlap resolution needs every pair nearer than 1.1 times its radii
 * sum after the moves.  No agent moves farther in a tick than the fastest
 * class's speed times the tick (B), so such a pair stood nearer than
 * 1.1 (ri + max radius) + 2B at the start: the neighbour scans of the
 * steering, which read the start-of-tick hash anyway, gather those pairs
 * as candidates (entry indices, lower item first), and the contacts are
 * the candidates that are near after the moves.  The tick checks the
 * bound on the moves it made, and finds the contacts afresh when it does
 * not hold (or when agents entered). */

static ff_status add_contact(ff_crowd *c, uint32_t i, uint32_t j, ff_error *err);

/* A walk over the hash's entries in the buckets within reach of (x, y),
 * which lies in bucket (bx, by): row by row, bucket by bucket, then in
 * item order, skipping strangers that share their slots.  The neighbour
 * scans of the steering spell the same walk out, for speed. */
typedef struct {
    const ff_shash *h;
    int32_t bx0, bx1, by1, bx, by, last;
    const ff_shash_entry *e, *end;
} near_walk;

static void near_begin(near_walk *w, const ff_shash *h, double x, double y, double reach, int32_t bx,
                       int32_t by)
{
    w->h = h;
    bucket_box(h, x, y, reach, bx, by, &w->bx0, &w->bx1, &w->by, &w->by1);
    w->bx = w->bx0;
    ff_shash_row_run(h, w->bx, w->bx1, w->by, &w->last, &w->e, &w->end);
}

/* The next entry of the walk, or NULL at its end. */
static const ff_shash_entry *near_next(near_walk *w)
{
    for (;;) {
        while (w->e < w->end) {
            const ff_shash_entry *e = w->e++;
            if (e->by == w->by && (uint32_t)e->bx - (uint32_t)w->bx <= (uint32_t)w->last - (uint32_t)w->bx)
                return e;
        }
        if (w->last < w->bx1) {
            w->bx = w->last + 1;
        } else if (w->by < w->by1) {
            w->by++;
            w->bx = w->bx0;
        } else {
            return NULL;
        }
        ff_shash_row_run(w->h, w->bx, w->bx1, w->by, &w->last, &w->e, &w->end);
    }
}

/* The candidates of the agent of entry k for an agent whose steering
 * gathered none (it did not steer, or has no separate as wide). */
void ff_contacts_scan(ff_crowd *c, size_t k, double reach)
{
    const ff_shash_entry *p = &c->hash.entry[k], *e;
    near_walk w;

    near_begin(&w, &c->hash, p->x, p->y, reach, p->bx, p->by);
    while ((e = near_next(&w))) {
        double dx = p->x - e->x, dy = p->y - e->y;
        if (e->item > p->item && dx * dx + dy * dy < reach * reach)
            ff_contacts_collect(c, p, e);
    }
}

/* The contacts from the candidates, points[k] holding the position after
 * the moves of entry k's agent: the pairs ff_contacts_find would find, with
 * the same arithmetic, and in its order.  That walks a hash of the
 * positions after the moves (with as many points as this one, so the same
 * table): agent i by its slot there, then i; its partners row by row, then
 * bucket by bucket, then by index.  Each contact gets that order as a key,
 * and an insertion sort puts them in it: the candidates come in the order
 * of the start-of-tick hash, which few moves change, so they are nearly
 * sorted already. */
ff_status ff_contacts_from_candidates(ff_crowd *c, ff_error *err)
{
    const ff_scenario *s = c->scenario;
    const ff_shash *h = &c->hash;
    size_t k, m;

    c->ncontacts = 0;
    c->ninvolved = 0;
    c->contacts_valid = 1;
    for (k = 0; k < c->ncand; k++) {
        const ff_shash_entry *pe = &h->entry[c->cand[2 * k]], *ee = &h->entry[c->cand[2 * k + 1]];
        const ff_shash_entry *p = &c->points[c->cand[2 * k]], *e = &c->points[c->cand[2 * k + 1]];
        double near = 1.1 * (s->cls[pe->tag].radius + s->cls[ee->tag].radius);
        double dx = e->x - p->x, dy = e->y - p->y;
        int32_t bxi, byi, bxj, byj;
        uint64_t hi, lo;
        if (dx * dx + dy * dy >= near * near)
            continue;
        if (add_contact(c, pe->item, ee->item, err) != FF_OK)
            return FF_ENOMEM;
        c->entry_of[pe->item] = c->cand[2 * k];
        c->entry_of[ee->item] = c->cand[2 * k + 1];
        bxi = ff_shash_bucket(h, p->x);
        byi = ff_shash_bucket(h, p->y);
        bxj = ff_shash_bucket(h, e->x);
        byj = ff_shash_bucket(h, e->y);
        /* Partners are less than a bucket away (a contact is nearer than
         * the longest reach, half a bucket): offsets -1, 0 or 1. */
        hi = (uint64_t)ff_shash_slot(h, bxi, byi) << 32 | pe->item;
        lo = (uint64_t)(byj - byi + 1) << 36 | (uint64_t)(bxj - bxi + 1) << 34 | ee->item;
        m = c->ncontacts - 1;
        c->contact_key[2 * m] = hi;
        c->contact_key[2 * m + 1] = lo;
        /* Insertion, moving the pair with its key. */
        while (m > 0 && (c->contact_key[2 * (m - 1)] > hi ||
                         (c->contact_key[2 * (m - 1)] == hi && c->contact_key[2 * m - 1] > lo))) {
            c->contact_key[2 * m] = c->contact_key[2 * (m - 1)];
            c->contact_key[2 * m + 1] = c->contact_key[2 * m - 1];
            c->contact[2 * m] = c->contact[2 * (m - 1)];
            c->contact[2 * m + 1] = c->contact[2 * m - 1];
            m--;
        }
        c->contact_key[2 * m] = hi;
        c->contact_key[2 * m + 1] = lo;
        c->contact[2 * m] = pe->item;
        c->contact[2 * m + 1] = ee->item;
    }
    return FF_OK;
}

/* ---- overlaps ---- */

/* Push a and b apart by o along n (from a to b): half each, and what a
 * wall keeps one of them from taking goes to the other. */
static void separate_pair(ff_crowd *c, ff_agent *a, double ri, ff_agent *b, double rj,
                          double nx, double ny, double o)
{
    double x0 = a->x, y0 = a->y, got_a, got_b;

    if (pinned(a) || pinned(b)) {
        if (!pinned(b))
            ff_walls_slide(&c->walls, rj, &b->x, &b->y, nx * o, ny * o);
        else if (!pinned(a))
            ff_walls_slide(&c->walls, ri, &a->x, &a->y, -nx * o, -ny * o);
        return;
    }
    ff_walls_slide(&c->walls, ri, &a->x, &a->y, -nx * 0.5 * o, -ny * 0.5 * o);
    got_a = -((a->x - x0) * nx + (a->y - y0) * ny);
    if (got_a < 0)
        got_a = 0;
    x0 = b->x;
    y0 = b->y;
    ff_walls_slide(&c->walls, rj, &b->x, &b->y, nx * (o - got_a), ny * (o - got_a));
    got_b = (b->x - x0) * nx + (b->y - y0) * ny;
    if (got_b < 0)
        got_b = 0;
    if (o - got_a - got_b > 1e-12 * c->grid->cell_size && got_a < 0.5 * o)
        return;  /* a was blocked and b took what it could */
    if (o - got_a - got_b > 1e-12 * c->grid->cell_size)
        ff_walls_slide(&c->walls, ri, &a->x, &a->y, -nx * (o - got_a - got_b), -ny * (o - got_a - got_b));
}

/* Record the contact of agents i < j, and mark both involved. */
static ff_status add_contact(ff_crowd *c, uint32_t i, uint32_t j, ff_error *err)
{
    if (c->ncontacts == c->cap_contacts) {
        /* (a pair a contact, and its key of two words) */
        size_t cap = c->cap_contacts, key_cap = cap;
        uint32_t *p = ff_grow(c->contact, &cap, c->ncontacts + 1, 2 * sizeof *p, 1024);
        uint64_t *key;
        if (p)
            c->contact = p;
        key = p ? ff_grow(c->contact_key, &key_cap, c->ncontacts + 1, 2 * sizeof *key, 1024) : NULL;
        if (!key)
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for contacts");
        c->contact_key = key;
        c->cap_contacts = cap;
    }
    c->contact[2 * c->ncontacts] = i;
    c->contact[2 * c->ncontacts + 1] = j;
    c->ncontacts++;
    if (!c->involved[i]) {
        c->involved[i] = 1;
        c->involved_list[c->ninvolved++] = i;
    }
    if (!c->involved[j]) {
        c->involved[j] = 1;
        c->involved_list[c->ninvolved++] = j;
    }
    return FF_OK;
}

/* The pairs that may touch this tick: every pair of present agents, lower
 * index first, whose centers are nearer than the sum of their radii plus a
 * margin of a tenth of it, in the hash's order (fixed by the positions
 * and the indices, so deterministic, and kind to the cache).  Overlap passes walk this list, so only the first costs a
 * neighbour search. */
ff_status ff_contacts_find(ff_crowd *c, ff_error *err)
{
    const ff_shash *h = &c->hash;
    const ff_scenario *s = c->scenario;
    size_t k;

    c->ncontacts = 0;
    c->ninvolved = 0;
    c->contacts_valid = 1;
    /* Positions and classes come from the hash, just built: no agent is
     * read (at 100,000 agents each read is a cache miss). */
    for (k = 0; k < h->n; k++) {
        const ff_shash_entry *p = &h->entry[k], *e;
        double ri = s->cls[p->tag].radius, reach = 1.1 * (ri + c->max_radius);
        near_walk w;

        near_begin(&w, h, p->x, p->y, reach, p->bx, p->by);
        while ((e = near_next(&w))) {
            double dx = e->x - p->x, dy = e->y - p->y, near = 1.1 * (ri + s->cls[e->tag].radius);
            if (e->item > p->item && !(dx * dx + dy * dy >= near * near) &&
                add_contact(c, p->item, e->item, err) != FF_OK)
                return FF_ENOMEM;
        }
    }
    return FF_OK;
}

/* One Gauss-Seidel pass over the contacts: each pair nearer than the sum
 * of its radii is pushed apart along the line between the centers (not
 * scaled by the tick length), with wall sliding. */
void ff_contacts_resolve_pass(ff_crowd *c)
{
    const ff_scenario *s = c->scenario;
    size_t k;

    for (k = 0; k < c->ncontacts; k++) {
        ff_agent *a = &c->agent[c->contact[2 * k]], *b = &c->agent[c->contact[2 * k + 1]];
        double ri = s->cls[a->cls].radius, rj = s->cls[b->cls].radius, sum = ri + rj;
        double dx = b->x - a->x, dy = b->y - a->y, d2 = dx * dx + dy * dy, d, nx, ny;

        if (k + PREFETCH_AHEAD < c->ncontacts) {
            PREFETCH(&c->agent[c->contact[2 * (k + PREFETCH_AHEAD)]]);
            PREFETCH(&c->agent[c->contact[2 * (k + PREFETCH_AHEAD) + 1]]);
        }
        if (d2 >= sum * sum)
            continue;
        d = sqrt(d2);
        if (d > 0) {
            nx = dx / d;
            ny = dy / d;
        } else {
            nx = 1;  /* coincident: the higher id goes east */
            ny = 0;
        }
        separate_pair(c, a, ri, b, rj, nx, ny, sum - d);
    }
}

/* The larger of worst and the overlap of two disks whose radii sum to sum,
 * their centers (dx, dy) apart, as a fraction of sum. */
static double worse_overlap(double worst, double sum, double dx, double dy)
{
    double d2 = dx * dx + dy * dy, o;
    if (d2 >= sum * sum)
        return worst;
    o = (sum - sqrt(d2)) / sum;
    return o > worst ? o : worst;
}

/* The largest pair overlap over the sum of radii, among present agents
 * (the hash must be current). */
double ff_contacts_largest_overlap(const ff_crowd *c)
{
    const ff_shash *h = &c->hash;
    const ff_scenario *s = c->scenario;
    double worst = 0;
    size_t k;

    for (k = 0; k < h->n; k++) {
        const ff_shash_entry *p = &h->entry[k], *e;
        double ri = s->cls[p->tag].radius;
        near_walk w;

        near_begin(&w, h, p->x, p->y, ri + c->max_radius, p->bx, p->by);
        while ((e = near_next(&w)))
            if (e->item > p->item)
                worst = worse_overlap(worst, ri + s->cls[e->tag].radius, e->x - p->x, e->y - p->y);
    }
    return worst;
}

/* The same measure when this tick's contacts were found before the
 * resolution: a pair that overlaps now either is a contact pair or was at
 * least 1.1 times its radii sum apart and has moved since, and only agents
 * of contact pairs move in the resolution.  So only the pairs with an agent
 * of a contact pair need be measured, each with the same arithmetic (the
 * largest value does not depend on the order).  Clears the marks. */
double ff_contacts_largest_overlap_involved(ff_crowd *c)
{
    const ff_shash *h = &c->hash;
    const ff_scenario *s = c->scenario;
    double worst = 0;
    size_t k;

    for (k = 0; k < c->ninvolved; k++) {
        uint32_t i = c->involved_list[k];
        const ff_agent *a = &c->agent[i];
        const ff_shash_entry *e;
        double ri = s->cls[a->cls].radius;
        near_walk w;

        c->involved[i] = 0;
        if (k + PREFETCH_AHEAD < c->ninvolved)
            PREFETCH(&c->agent[c->involved_list[k + PREFETCH_AHEAD]]);
        near_begin(&w, h, a->x, a->y, ri + c->max_radius, ff_shash_bucket(h, a->x), ff_shash_bucket(h, a->y));
        while ((e = near_next(&w)))
            if (e->item != i)
                worst = worse_overlap(worst, ri + s->cls[e->tag].radius, e->x - a->x, e->y - a->y);
    }
    c->ninvolved = 0;
    c->contacts_valid = 0;
    return worst;
}
