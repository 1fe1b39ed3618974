/* batch.c - the fields of many goal sets on one map; see batch.h.
 *
 * Threads: workers take the next set from a shared counter and search it
 * into a slot of a ring of `window` distance buffers; the calling thread
 * waits for the sets in order and hands each to emit, which frees its slot.
 * A worker may run at most window - 1 sets ahead of the oldest set not yet
 * emitted, so memory stays bounded however many sets there are, and the
 * order of the output never depends on which worker finished first.
 */
#define _POSIX_C_SOURCE 200809L
#include "batch.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "anyangle.h"
#include "grow.h"
#include "options.h"
#include "records.h"
#include "search.h"

/* ---- names ---- */

int ff_set_name_ok(const char *s)
{
    size_t n = strlen(s), k;

    if (n == 0 || n > FF_SET_NAME_MAX || s[0] == '.' || s[0] == '-')
        return 0;
    for (k = 0; k < n; k++) {
        char c = s[k];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-'))
            return 0;
    }
    return 1;
}

/* Names seen so far: open addressing over indices into the set array, so
 * that a repeat is found on the line where it happens. */
typedef struct {
    size_t *slot;  /* set index + 1, or 0 for empty */
    size_t cap;    /* a power of two */
} name_table;

static uint64_t name_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325u;

    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3u;
    return h;
}

/* Find name among sets; returns its index, or (size_t)-1 after recording
 * index as its place.  -2 when out of memory. */
static size_t name_find_or_add(name_table *t, const ff_goal_set *sets, const char *name,
                               size_t index)
{
    size_t k, i;

    if (2 * (index + 1) > t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        size_t *grown = calloc(cap, sizeof *grown);
        if (!grown)
            return (size_t)-2;
        for (k = 0; k < t->cap; k++)
            if (t->slot[k]) {
                i = name_hash(sets[t->slot[k] - 1].name) & (cap - 1);
                while (grown[i])
                    i = (i + 1) & (cap - 1);
                grown[i] = t->slot[k];
            }
        free(t->slot);
        t->slot = grown;
        t->cap = cap;
    }
    for (i = name_hash(name) & (t->cap - 1); t->slot[i]; i = (i + 1) & (t->cap - 1))
        if (strcmp(sets[t->slot[i] - 1].name, name) == 0)
            return t->slot[i] - 1;
    t->slot[i] = index + 1;
    return (size_t)-1;
}

/* ---- reading a goal-sets file ---- */

void ff_goal_sets_free(ff_goal_sets *s)
{
    size_t k;

    for (k = 0; k < s->nsets; k++)
        free(s->set[k].goals);
    free(s->set);
    s->set = NULL;
    s->nsets = 0;
}

/* Parse one line (comment already cut off) into sets->set[sets->nsets],
 * which the caller has room for.  Returns FF_ENOTFOUND for a blank line. */
static ff_status parse_line(char *line, const char *name, long lineno, const ff_grid *g,
                            ff_goal_sets *sets, name_table *names, ff_error *err)
{
    ff_goal_set *set = &sets->set[sets->nsets];
    ff_grid scratch = *g;  /* shares g's cells; only its goals are its own */
    char *tok, *p = line;
    size_t first, cap = 0;
    long long x, y;
    ff_status st;

    tok = strtok_r(line, " \t", &p);
    if (!tok)
        return FF_ENOTFOUND;
    if (!ff_set_name_ok(tok))
        return ff_error_set(err, FF_EINPUT, name, lineno, (long)(tok - line) + 1,
                            "bad set name '%.80s' (1 to %d of A-Z a-z 0-9 . _ -, "
                            "not starting with . or -)",
                            tok, FF_SET_NAME_MAX);
    memset(set, 0, sizeof *set);
    strcpy(set->name, tok);
    set->line = lineno;
    first = name_find_or_add(names, sets->set, set->name, sets->nsets);
    if (first == (size_t)-2)
        return ff_error_set(err, FF_ENOMEM, name, lineno, 0, "out of memory");
    if (first != (size_t)-1)
        return ff_error_set(err, FF_EINPUT, name, lineno, (long)(tok - line) + 1,
                            "set '%s' repeated (first on line %ld)", set->name,
                            sets->set[first].line);
    scratch.goals = NULL;
    scratch.ngoals = 0;
    while ((tok = strtok_r(NULL, " \t", &p)) != NULL) {
        long col = (long)(tok - line) + 1;
        /* A goal is one word X,Y or two words X Y. */
        if (ff_parse_cell(tok, &x, &y)) {
            char *second = NULL;
            if (ff_parse_int(tok, LLONG_MIN, LLONG_MAX, &x) ||
                !(second = strtok_r(NULL, " \t", &p)) ||
                ff_parse_int(second, LLONG_MIN, LLONG_MAX, &y)) {
                st = ff_error_set(err, FF_EINPUT, name, lineno, col,
                                  "bad goal '%.80s%s%.80s' in set '%s' (want X,Y or X Y)", tok,
                                  second ? " " : "", second ? second : "", set->name);
                goto fail;
            }
        }
        /* Appended, sorted once below: n goals in any order cost n log n. */
        if ((st = ff_grid_append_goal(&scratch, &cap, x, y, name, lineno, col, err)) != FF_OK)
            goto fail;
    }
    ff_grid_sort_goals(&scratch);
    if (scratch.ngoals == 0) {
        st = ff_error_set(err, FF_EINPUT, name, lineno, 0,
                          "set '%s' has no goals (want NAME X,Y [X,Y ...])", set->name);
        goto fail;
    }
    set->goals = scratch.goals;
    set->ngoals = scratch.ngoals;
    sets->nsets++;
    return FF_OK;
fail:
    free(scratch.goals);
    return st;
}

ff_status ff_goal_sets_read(FILE *f, const char *name, const ff_grid *g, ff_goal_sets *out,
                            ff_error *err)
{
    ff_goal_sets sets = { NULL, 0, 0 };
    name_table names = { NULL, 0 };
    size_t cap = 0, len;
    char line[FF_RECORD_LINE_MAX], *hash, *nul;
    ff_records rec;
    int got;
    ff_status st = FF_OK;

    out->set = NULL;
    out->nsets = 0;
    out->any_angle = 0;
    /* Lines capped as every reader's: no line may grow without bound. */
    ff_records_init(&rec, f, name);
    while ((got = ff_records_line(&rec, line, err)) == 1) {
        len = strlen(line);
        if (len > 0 && line[len - 1] == '\r')
            line[--len] = '\0';
        if ((nul = memchr(line, 1, len)) != NULL) {  /* ff_records_line's NUL */
            st = ff_error_set(err, FF_EINPUT, name, rec.line, (long)(nul - line) + 1,
                              "NUL (or 0x01) byte");
            goto fail;
        }
        if ((hash = strchr(line, '#')) != NULL)
            *hash = '\0';
        if (sets.nsets == cap) {
            ff_goal_set *grown = ff_grow(sets.set, &cap, cap + 1, sizeof *grown, 16);
            if (!grown) {
                st = ff_error_set(err, FF_ENOMEM, name, rec.line, 0, "out of memory");
                goto fail;
            }
            sets.set = grown;
        }
        st = parse_line(line, name, rec.line, g, &sets, &names, err);
        if (st == FF_ENOTFOUND)
            continue;
        if (st != FF_OK)
            goto fail;
    }
    if (got < 0) {
        st = ferror(f) ? FF_EIO : FF_EINPUT;
        goto fail;
    }
    if (sets.nsets == 0) {
        st = ff_error_set(err, FF_EINPUT, name, 0, 0,
                          "no goal set (want lines NAME X,Y [X,Y ...])");
        goto fail;
    }
    free(names.slot);
    *out = sets;
    return FF_OK;
fail:
    free(names.slot);
    ff_goal_sets_free(&sets);
    return st;
}

/* ---- building ---- */

/* Search set into distance and describe the result in *f, which borrows
 * map's cells, the set's goals and distance; map_id is map's id, hashed
 * once for all the sets. */
static ff_status build_one(const ff_grid *map, uint64_t map_id, const ff_goal_set *set,
                           int any_angle, double *distance, ff_field *f, ff_error *err)
{
    ff_status st;

    ff_field_init(f);
    f->grid = *map;
    f->grid.goals = set->goals;
    f->grid.ngoals = set->ngoals;
    f->distance = distance;
    strcpy(f->name, set->name);
    f->any_angle = any_angle;
    if ((st = any_angle ? ff_anyangle_search(&f->grid, distance, NULL, err)
                        : ff_search(&f->grid, distance, err)) != FF_OK)
        return st;
    f->map_id = map_id;
    ff_field_update_distance_id(f);
    return FF_OK;
}

/* One buffer of the ring, holding set `index` once `done`. */
typedef struct {
    double *distance;
    ff_field field;
    size_t index;
    int done;
    ff_status status;
    ff_error err;
} slot;

typedef struct {
    const ff_grid *map;
    uint64_t map_id;
    const ff_goal_sets *sets;
    slot *slots;
    size_t nslots;
    size_t next;     /* the next set a worker takes */
    size_t emitted;  /* sets handed to emit so far */
    int stop;        /* the caller has given up: take no more sets */
    pthread_mutex_t lock;
    pthread_cond_t wake_workers;  /* a slot came free, or stop */
    pthread_cond_t wake_caller;   /* a set is done */
} batch;

static void *worker(void *arg)
{
    batch *b = arg;
    slot *s;
    size_t i;

    pthread_mutex_lock(&b->lock);
    for (;;) {
        while (!b->stop && b->next < b->sets->nsets && b->next >= b->emitted + b->nslots)
            pthread_cond_wait(&b->wake_workers, &b->lock);
        if (b->stop || b->next >= b->sets->nsets)
            break;
        i = b->next++;
        s = &b->slots[i % b->nslots];
        s->index = i;
        s->done = 0;
        pthread_mutex_unlock(&b->lock);
        ff_error_clear(&s->err);
        s->status = build_one(b->map, b->map_id, &b->sets->set[i], b->sets->any_angle,
                              s->distance, &s->field, &s->err);
        pthread_mutex_lock(&b->lock);
        s->done = 1;
        pthread_cond_signal(&b->wake_caller);
    }
    pthread_mutex_unlock(&b->lock);
    return NULL;
}

/* The calling thread: hand the sets to emit in order as they are done. */
static ff_status collect(batch *b, ff_batch_emit emit, void *ctx, ff_error *err)
{
    ff_status st = FF_OK;
    size_t i;

    for (i = 0; i < b->sets->nsets && st == FF_OK; i++) {
        slot *s = &b->slots[i % b->nslots];
        pthread_mutex_lock(&b->lock);
        while (!(s->done && s->index == i))
            pthread_cond_wait(&b->wake_caller, &b->lock);
        pthread_mutex_unlock(&b->lock);
        if (s->status != FF_OK) {
            if (err)
                *err = s->err;
            st = s->status;
            break;
        }
        st = emit(ctx, i, &s->field, err);
        pthread_mutex_lock(&b->lock);
        s->done = 0;
        b->emitted = i + 1;
        /* One slot came free: one worker may take one more set.  (Waking
         * every worker for it cost -j 1024 36 times -j 1 on 100,000 small
         * sets.) */
        pthread_cond_signal(&b->wake_workers);
        pthread_mutex_unlock(&b->lock);
    }
    pthread_mutex_lock(&b->lock);
    b->stop = 1;
    pthread_cond_broadcast(&b->wake_workers);
    pthread_mutex_unlock(&b->lock);
    return st;
}

/* Everything on the calling thread, one buffer. */
static ff_status build_serial(const ff_grid *map, uint64_t map_id, const ff_goal_sets *sets,
                              double *distance, ff_batch_emit emit, void *ctx, ff_error *err)
{
    ff_field f;
    ff_status st;
    size_t i;

    for (i = 0; i < sets->nsets; i++) {
        st = build_one(map, map_id, &sets->set[i], sets->any_angle, distance, &f, err);
        if (st != FF_OK)
            return st;
        if ((st = emit(ctx, i, &f, err)) != FF_OK)
            return st;
    }
    return FF_OK;
}

ff_status ff_batch_build(const ff_grid *map, const ff_goal_sets *sets, int threads,
                         size_t window, ff_batch_emit emit, void *ctx, ff_error *err)
{
    size_t n = (size_t)map->w * (size_t)map->h, k, nthreads;
    pthread_t *tid = NULL;
    size_t started = 0;
    ff_status st;
    batch b;

    if (sets->nsets == 0)
        return FF_OK;
    nthreads = threads < 1 ? 1 : (size_t)threads;
    /* A map of few cells is searched faster than a set is handed to a
     * thread and back: one thread (8 x 8 cells, 100,000 sets: 0.3 s of
     * CPU on one thread, 1.4 s on two, 2.2 s on 1,024). */
    if (n < FF_BATCH_THREAD_CELLS)
        nthreads = 1;
    if (nthreads > sets->nsets)
        nthreads = sets->nsets;
    if (window == 0)
        window = 2 * nthreads;
    if (window < nthreads)
        window = nthreads;
    if (window > sets->nsets)
        window = sets->nsets;
    memset(&b, 0, sizeof b);
    b.map = map;
    b.map_id = ff_grid_id(map);
    b.sets = sets;
    b.nslots = nthreads == 1 ? 1 : window;
    b.slots = calloc(b.nslots, sizeof *b.slots);
    if (!b.slots)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory");
    for (k = 0; k < b.nslots; k++)
        if (!(b.slots[k].distance = malloc(n * sizeof *b.slots[k].distance))) {
            st = ff_error_set(err, FF_ENOMEM, NULL, 0, 0,
                              "out of memory for %zu distance fields of %zu cells", b.nslots, n);
            goto done;
        }
    if (nthreads > 1 && (tid = malloc(nthreads * sizeof *tid)) != NULL) {
        pthread_mutex_init(&b.lock, NULL);
        pthread_cond_init(&b.wake_workers, NULL);
        pthread_cond_init(&b.wake_caller, NULL);
        for (started = 0; started < nthreads; started++)
            if (pthread_create(&tid[started], NULL, worker, &b) != 0)
                break;
        if (started == 0) {
            /* No thread to be had: the calling thread does it all. */
            pthread_mutex_destroy(&b.lock);
            pthread_cond_destroy(&b.wake_workers);
            pthread_cond_destroy(&b.wake_caller);
        }
    }
    if (started == 0) {
        st = build_serial(map, b.map_id, sets, b.slots[0].distance, emit, ctx, err);
        goto done;
    }
    st = collect(&b, emit, ctx, err);
    for (k = 0; k < started; k++)
        pthread_join(tid[k], NULL);
    pthread_mutex_destroy(&b.lock);
    pthread_cond_destroy(&b.wake_workers);
    pthread_cond_destroy(&b.wake_caller);
done:
    for (k = 0; k < b.nslots; k++)
        free(b.slots[k].distance);
    free(b.slots);
    free(tid);
    return st;
}
