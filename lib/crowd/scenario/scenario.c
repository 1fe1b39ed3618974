/* scenario.c - reading the crowd scenario format; see scenario.h and
 * man 5 ffsim. */
#define _POSIX_C_SOURCE 200809L
#include "grow.h"
#include "scenario.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "infile.h"
#include "mapfscen.h"
#include "nearword.h"
#include "options.h"
#include "placement.h"
#include "walls.h"
#include "words.h"

#define LINE_MAX_BYTES 4096
#define TOKENS_MAX 32

void ff_scenario_init(ff_scenario *s)
{
    memset(s, 0, sizeof *s);
    s->tick_dt = 0.1;
    s->arrive = -1;
    s->passes = 4;
    s->wait_limit = 3;
    s->stuck_after = FF_STUCK_AFTER_DEFAULT;
    s->profiles = 1;  /* a class follows the field of its own radius */
    s->congestion_weight = 2.5;
    s->congestion_ticks = 10;
    s->congestion_threshold = NAN;  /* one agent per cell (read_all) */
}

void ff_scenario_free(ff_scenario *s)
{
    free(s->cls);
    free(s->agent);
    free(s->event);
    free(s->goal_event);
    ff_scenario_init(s);
}

void ff_class_group(ff_agent_class *c)
{
    int i, j;

    /* Insertion sort: stable, so line order holds within a priority. */
    for (i = 1; i < c->nbehaviours; i++) {
        ff_behaviour b = c->behaviour[i];
        for (j = i; j > 0 && c->behaviour[j - 1].priority > b.priority; j--)
            c->behaviour[j] = c->behaviour[j - 1];
        c->behaviour[j] = b;
    }
    c->ngroups = 0;
    c->follows = 0;
    c->turns = 0;
    for (i = 0; i < c->nbehaviours; i++) {
        if (i == 0 || c->behaviour[i].priority != c->behaviour[i - 1].priority)
            c->group_start[c->ngroups++] = i;
        if (c->behaviour[i].kind == FF_BEHAVE_FOLLOW)
            c->follows = 1;
        if (c->behaviour[i].kind >= FF_BEHAVE_FACE)
            c->turns = 1;
    }
    c->group_start[c->ngroups] = c->nbehaviours;
}

/* ---- reading state ---- */

typedef ff_word token;

typedef struct {
    const char *name;
    const ff_grid *grid;
    ff_walls walls;
    ff_scenario *s;
    ff_error *err;
    long line;
    size_t cap_cls, cap_agents;
    int magic;
    long tick_line, ticks_line, arrive_line, arrived_line, passes_line;
    long profiles_line, rebuild_line, rebuild_how_line, fallback_line, move_line, reserve_line, wait_line;
    long congestion_line, cweight_line, cticks_line, cthreshold_line, stuck_line;
    long goal_change_line;
    long reserve_col;      /* of the 'on' of 'reserve on' */
    size_t cap_events, cap_goal_events;
    int in_class;          /* index of the open class, or -1 */
    double max_radius;     /* of the classes so far */
    /* ids taken: open addressing, key id + 1 (0 = empty) -> line */
    uint64_t *id_key;
    long *id_line;
    size_t id_cap, id_count;
    int64_t max_id;        /* largest id so far, -1 for none */
    /* placement: the agents placed, begun at the first spawn rule */
    ff_placement place;
    int placing;
} reader;

static ff_status fail_at(reader *r, const token *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static ff_status fail_at(reader *r, const token *t, const char *fmt, ...)
{
    char msg[400];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return ff_error_set(r->err, FF_EINPUT, r->name, r->line, t ? t->col : 0, "%s", msg);
}

/* The largest arrival distance: across the map, width plus height. */
static double arrive_max(const ff_grid *g)
{
    return ((double)g->w + (double)g->h) * g->cell_size;
}

static ff_status want_real(reader *r, const token *t, const char *what, double *v)
{
    if (!t)
        return fail_at(r, NULL, "%s needs a value", what);
    if (ff_parse_real(t->text, v) != 0)
        return fail_at(r, t, "%s '%.40s' is not a number", what, t->text);
    return FF_OK;
}

static ff_status want_positive(reader *r, const token *t, const char *what, double *v)
{
    ff_status st = want_real(r, t, what, v);
    if (st == FF_OK && !(*v > 0))
        return fail_at(r, t, "%s %.40s must be > 0", what, t->text);
    return st;
}

static ff_status want_count(reader *r, const token *t, const char *what, long long lo,
                            long long hi, long long *v)
{
    if (!t)
        return fail_at(r, NULL, "%s needs a value", what);
    if (ff_parse_int(t->text, lo, hi, v) != 0)
        return fail_at(r, t, "%s '%.40s' is not an integer in %lld..%lld", what, t->text, lo, hi);
    return FF_OK;
}

/* A number of key id (ranges.h: the table the manual states). */
static ff_status want_in(reader *r, const token *t, const char *what, ff_range_id id, double *v)
{
    ff_status st = want_real(r, t, what, v);
    if (st == FF_OK && !ff_range_ok(id, *v))
        return fail_at(r, t, "%s %.40s must be a number %s", what, t->text, ff_range_text(id));
    return st;
}

/* A whole number of key id (ranges.h). */
static ff_status want_count_in(reader *r, const token *t, const char *what, ff_range_id id,
                               long long *v)
{
    return want_count(r, t, what, (long long)ff_ranges[id].min, (long long)ff_ranges[id].max, v);
}

/* ---- ids ---- */

static ff_status id_grow(reader *r)
{
    size_t cap = r->id_cap ? r->id_cap * 2 : 1024, k;
    uint64_t *key = calloc(cap, sizeof *key);
    long *line = calloc(cap, sizeof *line);

    if (!key || !line) {
        free(key);
        free(line);
        return ff_error_set(r->err, FF_ENOMEM, r->name, r->line, 0, "out of memory for agent ids");
    }
    for (k = 0; k < r->id_cap; k++)
        if (r->id_key[k]) {
            size_t h = (size_t)(r->id_key[k] * 0x9E3779B97F4A7C15ULL >> 20) & (cap - 1);
            while (key[h])
                h = (h + 1) & (cap - 1);
            key[h] = r->id_key[k];
            line[h] = r->id_line[k];
        }
    free(r->id_key);
    free(r->id_line);
    r->id_key = key;
    r->id_line = line;
    r->id_cap = cap;
    return FF_OK;
}

/* Take id for the current line; 0 when free, else the line that has it
 * (or -1 on allocation failure). */
static long id_take(reader *r, uint32_t id)
{
    uint64_t want = (uint64_t)id + 1;
    size_t h;

    if (2 * (r->id_count + 1) > r->id_cap && id_grow(r) != FF_OK)
        return -1;
    h = (size_t)(want * 0x9E3779B97F4A7C15ULL >> 20) & (r->id_cap - 1);
    while (r->id_key[h]) {
        if (r->id_key[h] == want)
            return r->id_line[h];
        h = (h + 1) & (r->id_cap - 1);
    }
    r->id_key[h] = want;
    r->id_line[h] = r->line;
    r->id_count++;
    if ((int64_t)id > r->max_id)
        r->max_id = id;
    return 0;
}

/* ---- agents ---- */

static ff_status chain_agent(reader *r, size_t k)
{
    const ff_agent_spec *a = &r->s->agent[k];

    if (r->placing &&
        ff_placement_add(&r->place, a->x, a->y, r->s->cls[a->cls].radius, a->spawn_tick) != FF_OK)
        return ff_error_set(r->err, FF_ENOMEM, r->name, r->line, 0, "out of memory placing agents");
    return FF_OK;
}

static ff_status push_agent(reader *r, const ff_agent_spec *a)
{
    ff_scenario *s = r->s;
    if (s->nagents == r->cap_agents) {
        ff_agent_spec *p = ff_grow(s->agent, &r->cap_agents, s->nagents + 1, sizeof *p, 64);
        if (!p)
            return ff_error_set(r->err, FF_ENOMEM, r->name, r->line, 0, "out of memory for agents");
        s->agent = p;
    }
    s->agent[s->nagents] = *a;
    s->nagents++;
    return chain_agent(r, s->nagents - 1);
}

static int find_class(const reader *r, const char *name)
{
    size_t k;
    for (k = 0; k < r->s->nclasses; k++)
        if (strcmp(r->s->cls[k].name, name) == 0)
            return (int)k;
    return -1;
}

static ff_status check_id(reader *r, const token *t, uint32_t id)
{
    long other = id_take(r, id);
    if (other < 0)
        return r->err ? r->err->status : FF_ENOMEM;
    if (other > 0)
        return fail_at(r, t, "duplicate agent id %u (first given at line %ld)", id, other);
    return FF_OK;
}

/* A goal cell at word k of the line, X,Y or X Y in whole cell numbers,
 * inside the map and open: its index, the words it took (*used) and its
 * text (where, size bytes). */
static ff_status want_goal_cell(reader *r, token *t, int n, int k, uint32_t *cell, int *used,
                                char *where, size_t size)
{
    double xy[2];

    if (!(*used = ff_take_point(t, n, k, xy, where, size)) || xy[0] != floor(xy[0]) || xy[1] != floor(xy[1]))
        return fail_at(r, k < n ? &t[k] : &t[k - 1], "goal needs one cell X,Y or X Y (whole numbers)");
    if (xy[0] < 0 || xy[1] < 0 || xy[0] >= r->grid->w || xy[1] >= r->grid->h)
        return fail_at(r, &t[k], "goal %.40s is outside the map (%dx%d cells)", where,
                       (int)r->grid->w, (int)r->grid->h);
    *cell = (uint32_t)xy[1] * (uint32_t)r->grid->w + (uint32_t)xy[0];
    if (!ff_grid_open(r->grid, *cell))
        return fail_at(r, &t[k], "goal %.40s is on a wall", where);
    return FF_OK;
}

/* agent ID CLASS X,Y [tick T] [heading DEG] [goal GX,GY] */
static ff_status read_agent(reader *r, token *t, int n)
{
    ff_agent_spec a;
    long long v;
    double xy[2];
    char where[90];
    int k, why, used;
    ff_status st;

    if (n < 4)
        return fail_at(r, &t[0], "agent needs ID CLASS X,Y");
    if ((st = want_count(r, &t[1], "agent id", 0, UINT32_MAX, &v)) != FF_OK)
        return st;
    memset(&a, 0, sizeof a);
    a.id = (uint32_t)v;
    a.heading = NAN;
    a.goal = -1;
    a.line = r->line;
    if ((a.cls = find_class(r, t[2].text)) < 0)
        return fail_at(r, &t[2], "unknown class '%.40s'", t[2].text);
    if (!(used = ff_take_point(t, n, 3, xy, where, sizeof where)))
        return fail_at(r, &t[3], "position '%.40s' is not X,Y (or X Y)", t[3].text);
    a.x = xy[0];
    a.y = xy[1];
    for (k = 3 + used; k < n; k += 2) {
        if (k + 1 >= n)
            return fail_at(r, &t[k], "'%.40s' needs a value", t[k].text);
        if (strcmp(t[k].text, "goal") == 0) {
            uint32_t cell;
            char gwhere[90];
            int gused;
            if ((st = want_goal_cell(r, t, n, k + 1, &cell, &gused, gwhere, sizeof gwhere)) != FF_OK)
                return st;
            a.goal = cell;
            k += gused - 1;
            continue;
        }
        if (strcmp(t[k].text, "tick") == 0) {
            if ((st = want_count(r, &t[k + 1], "spawn tick", 0, FF_SCENARIO_TICKS_MAX, &a.spawn_tick)) != FF_OK)
                return st;
        } else if (strcmp(t[k].text, "heading") == 0) {
            if ((st = want_real(r, &t[k + 1], "heading", &a.heading)) != FF_OK)
                return st;
        } else {
            return fail_at(r, &t[k], "unknown agent setting '%.40s' (tick, heading, goal)", t[k].text);
        }
    }
    why = ff_placement_problem(&r->walls, a.x, a.y, r->s->cls[a.cls].radius);
    if (why == 1)
        return fail_at(r, &t[3], "agent %u at %.40s is outside the map", a.id, where);
    if (why == 2)
        return fail_at(r, &t[3], "agent %u at %.40s is on a wall", a.id, where);
    if (why == 3)
        return fail_at(r, &t[3], "agent %u at %.40s is nearer than its radius %g to a wall",
                       a.id, where, r->s->cls[a.cls].radius);
    if ((st = check_id(r, &t[1], a.id)) != FF_OK)
        return st;
    if (r->s->nagents >= FF_SCENARIO_AGENTS_MAX)
        return fail_at(r, &t[0], "more than %d agents", FF_SCENARIO_AGENTS_MAX);
    return push_agent(r, &a);
}

static ff_status start_placing(reader *r)
{
    const ff_grid *g = r->grid;
    size_t k;

    if (r->placing)
        return FF_OK;
    if (ff_placement_start(&r->place, r->max_radius > 0 ? 2 * r->max_radius : g->cell_size,
                           g->origin_x, g->origin_y) != FF_OK)
        return ff_error_set(r->err, FF_ENOMEM, r->name, r->line, 0, "out of memory placing agents");
    r->placing = 1;
    for (k = 0; k < r->s->nagents; k++)
        if (chain_agent(r, k) != FF_OK)
            return r->err ? r->err->status : FF_ENOMEM;
    return FF_OK;
}

/* The path of a file a scenario names: as given when absolute or when
 * the scenario has no folder, else in the scenario's folder.  NULL when
 * out of memory; the caller frees it. */
/* spawn N CLASS scen FILE [tick T] [first ID]: the first N agents of a
 * Moving AI MAPF scenario, each at its start cell's center with its own
 * goal cell. */
static ff_status read_scen(reader *r, token *t, long long count, int cls, long long tick,
                           long long first)
{
    const ff_grid *g = r->grid;
    ff_mapf_agent *ma = NULL;
    size_t got = 0, k;
    char *path;
    FILE *f;
    ff_error why;
    ff_status st = FF_OK;

    if (!(f = ff_mapf_scen_open(r->name, t[4].text, &path, &why))) {
        if (why.status != FF_EINPUT)
            st = ff_error_set(r->err, why.status, r->name, r->line, 0, "%.200s: %s",
                              path ? path : t[4].text, why.msg);
        else
            st = fail_at(r, &t[4], "%.200s: %s", path, why.msg);
        free(path);
        return st;
    }
    st = ff_mapf_scen_read(f, path, (size_t)count, &ma, &got, r->err);
    fclose(f);
    if (st == FF_OK && got < (size_t)count)
        st = fail_at(r, &t[1], "%.200s has %zu agents, not %lld", path, got, count);
    for (k = 0; st == FF_OK && k < got; k++) {
        const ff_mapf_agent *m = &ma[k];
        ff_agent_spec a;
        uint32_t start = (uint32_t)m->sy * (uint32_t)g->w + (uint32_t)m->sx;
        if (m->width != g->w || m->height != g->h) {
            st = ff_error_set(r->err, FF_EINPUT, path, m->line, 3, "the map is %dx%d, the field's %dx%d",
                              (int)m->width, (int)m->height, (int)g->w, (int)g->h);
            break;
        }
        memset(&a, 0, sizeof a);
        a.id = (uint32_t)(first + (long long)k);
        a.cls = cls;
        a.x = g->origin_x + ((double)m->sx + 0.5) * g->cell_size;
        a.y = g->origin_y + ((double)m->sy + 0.5) * g->cell_size;
        a.heading = NAN;
        a.spawn_tick = tick;
        a.goal = (int64_t)m->gy * g->w + m->gx;
        a.line = r->line;
        if (!ff_grid_open(g, start) || ff_placement_problem(&r->walls, a.x, a.y, r->s->cls[cls].radius)) {
            st = ff_error_set(r->err, FF_EINPUT, path, m->line, m->start_col,
                              "agent %zu's start %d,%d is %s", k, (int)m->sx, (int)m->sy,
                              ff_grid_open(g, start) ? "nearer than its radius to a wall" : "on a wall");
        } else if (!ff_grid_open(g, (size_t)a.goal)) {
            st = ff_error_set(r->err, FF_EINPUT, path, m->line, m->goal_col, "agent %zu's goal %d,%d is on a wall",
                              k, (int)m->gx, (int)m->gy);
        } else if ((st = check_id(r, &t[1], a.id)) == FF_OK) {
            st = push_agent(r, &a);
        }
    }
    free(ma);
    free(path);
    return st;
}

/* The count agents of class cls, ids first.., of spawn line t at
 * tick, each where ff_placement_draw puts it. */
static ff_status place_spawns(reader *r, token *t, const double *rect, uint64_t seed, long long count,
                              long long first, long long tick, int cls)
{
    double rad = r->s->cls[cls].radius;
    long long id;
    ff_status st;

    if ((st = start_placing(r)) != FF_OK)
        return st;
    for (id = first; id < first + count; id++) {
        ff_agent_spec a;
        double fx = 0, fy = 0;

        if (!ff_placement_draw(&r->place, &r->walls, rect, &seed, FF_SPAWN_TRIES, rad, tick,
                               r->max_radius, &fx, &fy))
            return fail_at(r, &t[3], "no place clear of walls for a radius %g agent in %d draws",
                           rad, FF_SPAWN_TRIES);
        memset(&a, 0, sizeof a);
        a.id = (uint32_t)id;
        a.cls = cls;
        a.x = fx;
        a.y = fy;
        a.heading = NAN;
        a.spawn_tick = tick;
        a.goal = -1;
        a.line = r->line;
        if ((st = check_id(r, &t[1], a.id)) != FF_OK)
            return st;
        if ((st = push_agent(r, &a)) != FF_OK)
            return st;
    }
    return FF_OK;
}

/* spawn N CLASS spawns|rect X0,Y0,X1,Y1 [seed S] [tick T] [first ID] */
static ff_status read_spawn(reader *r, token *t, int n)
{
    const ff_grid *g = r->grid;
    long long count, tick = 0, first;
    uint64_t seed = 1;
    double rect[4] = { 0, 0, 0, 0 }, rad;
    int cls, use_rect, k;
    ff_status st;

    if (n < 4)
        return fail_at(r, &t[0], "spawn needs N CLASS and 'spawns', 'rect X0,Y0,X1,Y1' or 'scen FILE'");
    if ((st = want_count(r, &t[1], "spawn count", 1, FF_SCENARIO_AGENTS_MAX, &count)) != FF_OK)
        return st;
    if ((cls = find_class(r, t[2].text)) < 0)
        return fail_at(r, &t[2], "unknown class '%.40s'", t[2].text);
    rad = r->s->cls[cls].radius;
    k = 4;
    if (strcmp(t[3].text, "scen") == 0) {
        use_rect = 2;
        if (n < 5)
            return fail_at(r, &t[3], "scen needs a FILE (a Moving AI MAPF .scen)");
        k = 5;
    } else if (strcmp(t[3].text, "spawns") == 0) {
        use_rect = 0;
        if (g->nspawns == 0)
            return fail_at(r, &t[3], "the map has no spawn cells (S tiles or 'spawn' lines)");
    } else if (strcmp(t[3].text, "rect") == 0) {
        use_rect = 1;
        if (n < 5 || !ff_parse_reals(t[4].text, rect, 4))
            return fail_at(r, n < 5 ? &t[3] : &t[4], "rect needs X0,Y0,X1,Y1 (world units)");
        if (!(rect[0] < rect[2] && rect[1] < rect[3]))
            return fail_at(r, &t[4], "rect %.60s is empty (want X0 < X1 and Y0 < Y1)", t[4].text);
        k = 5;
    } else {
        return fail_at(r, &t[3], "unknown placement '%.40s' (spawns, rect or scen)", t[3].text);
    }
    first = r->max_id + 1;
    for (; k < n; k += 2) {
        if (k + 1 >= n)
            return fail_at(r, &t[k], "'%.40s' needs a value", t[k].text);
        if (strcmp(t[k].text, "seed") == 0 && use_rect < 2) {
            char *end;
            if (t[k + 1].text[0] == '-' || (errno = 0, seed = strtoull(t[k + 1].text, &end, 10),
                                            end == t[k + 1].text || *end || errno))
                return fail_at(r, &t[k + 1], "seed '%.40s' is not an integer in 0..18446744073709551615",
                               t[k + 1].text);
        } else if (strcmp(t[k].text, "tick") == 0) {
            if ((st = want_count(r, &t[k + 1], "spawn tick", 0, FF_SCENARIO_TICKS_MAX, &tick)) != FF_OK)
                return st;
        } else if (strcmp(t[k].text, "first") == 0) {
            if ((st = want_count(r, &t[k + 1], "first id", 0, UINT32_MAX, &first)) != FF_OK)
                return st;
        } else {
            return fail_at(r, &t[k], "unknown spawn setting '%.40s' (%s)", t[k].text,
                           use_rect < 2 ? "seed, tick, first" : "tick, first");
        }
    }
    if (first + count - 1 > (long long)UINT32_MAX)
        return fail_at(r, &t[1], "ids %lld..%lld run past 4294967295", first, first + count - 1);
    if ((long long)r->s->nagents + count > FF_SCENARIO_AGENTS_MAX)
        return fail_at(r, &t[1], "more than %d agents", FF_SCENARIO_AGENTS_MAX);
    if (use_rect == 2)
        return read_scen(r, t, count, cls, tick, first);
    /* No more agents than FF_SPAWN_CROWDING times the densest packing of
     * their disks (hexagonal, a disk to 2 sqrt(3) r^2 of the plane) fits
     * in the area: a draw that finds no clear place overlaps (the crowd
     * pushes the agents apart), but without a bound the overlaps pile up
     * and the placement's work grows with the square of the count. */
    {
        double area = ff_placement_area(g, use_rect ? rect : NULL);
        double most = floor(FF_SPAWN_CROWDING * area / (2 * sqrt(3.0) * rad * rad));
        if (area > 0 && (double)count > most)  /* no area at all: the draws say why */
            return fail_at(r, &t[1], "%lld agents of radius %g cannot fit in the %s (%g square "
                           "units hold %.0f at most)", count, rad,
                           use_rect ? "rectangle's open cells" : "spawn cells", area, most);
    }
    return place_spawns(r, t, use_rect ? rect : NULL, seed, count, first, tick, cls);
}

/* ---- classes ---- */

static ff_status open_class(reader *r, token *t, int n)
{
    ff_scenario *s = r->s;
    ff_agent_class *c;
    const char *p;

    if (n != 2)
        return fail_at(r, &t[0], "class needs one NAME");
    for (p = t[1].text; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_' || *p == '-'))
            return fail_at(r, &t[1], "class name '%.40s' may hold only letters, digits, _ and -",
                           t[1].text);
    if (strlen(t[1].text) >= FF_CLASS_NAME_MAX)
        return fail_at(r, &t[1], "class name longer than %d bytes", FF_CLASS_NAME_MAX - 1);
    if (find_class(r, t[1].text) >= 0)
        return fail_at(r, &t[1], "class '%.40s' defined twice", t[1].text);
    if (s->nclasses == FF_SCENARIO_CLASSES_MAX)
        return fail_at(r, &t[0], "more than %d classes", FF_SCENARIO_CLASSES_MAX);
    if (s->nclasses == r->cap_cls) {
        ff_agent_class *q = ff_grow(s->cls, &r->cap_cls, s->nclasses + 1, sizeof *q, 4);
        if (!q)
            return ff_error_set(r->err, FF_ENOMEM, r->name, r->line, 0, "out of memory for classes");
        s->cls = q;
    }
    c = &s->cls[s->nclasses];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", t[1].text);
    c->radius = NAN;
    c->max_speed = NAN;
    c->max_accel = NAN;
    c->max_turn = 360;
    c->max_angular_accel = NAN;
    c->threshold = FF_THRESHOLD_DEFAULT;
    c->line = r->line;
    r->in_class = (int)s->nclasses;
    s->nclasses++;
    return FF_OK;
}

static ff_status close_class(reader *r, token *t)
{
    ff_agent_class *c = &r->s->cls[r->in_class];
    int k;

    if (isnan(c->radius))
        return fail_at(r, t, "class %s has no radius", c->name);
    if (isnan(c->max_speed))
        return fail_at(r, t, "class %s has no speed", c->name);
    if (c->nbehaviours == 0)
        return fail_at(r, t, "class %s has no behaviours", c->name);
    if (isnan(c->max_accel))
        c->max_accel = 4 * c->max_speed;
    if (isnan(c->max_angular_accel))
        c->max_angular_accel = 4 * c->max_turn;
    for (k = 0; k < c->nbehaviours; k++)
        if (isnan(c->behaviour[k].range))
            c->behaviour[k].range = c->behaviour[k].kind == FF_BEHAVE_AVOID_WALLS ? 2 * c->radius
                                                                                 : 4 * c->radius;
    ff_class_group(c);
    if (c->radius > r->max_radius)
        r->max_radius = c->radius;
    r->in_class = -1;
    return FF_OK;
}

static const char *const behaviour_word[] = { "follow", "separate", "avoid-walls", "seek",
                                               "face", "look-ahead", "align" };
#define BEHAVIOUR_WORDS (sizeof behaviour_word / sizeof *behaviour_word)

/* 1 for the behaviours with a range: separate, avoid-walls, align. */
static int has_range(int kind)
{
    return kind == FF_BEHAVE_SEPARATE || kind == FF_BEHAVE_AVOID_WALLS || kind == FF_BEHAVE_ALIGN;
}

static ff_status read_behaviour(reader *r, ff_agent_class *c, token *t, int n, int kind)
{
    ff_behaviour *b;
    int k = 1;
    ff_status st;

    if (c->nbehaviours == FF_BEHAVIOURS_MAX)
        return fail_at(r, &t[0], "class %s has more than %d behaviours", c->name, FF_BEHAVIOURS_MAX);
    b = &c->behaviour[c->nbehaviours];
    memset(b, 0, sizeof *b);
    b->kind = (ff_behaviour_kind)kind;
    b->weight = 1;
    b->range = NAN;
    if (kind == FF_BEHAVE_SEEK || kind == FF_BEHAVE_FACE) {
        const ff_grid *g = r->grid;
        double xy[2];
        char where[90];
        int used = ff_take_point(t, n, 1, xy, where, sizeof where);
        if (!used)
            return fail_at(r, n < 2 ? &t[0] : &t[1], "%s needs a point X,Y or X Y (world units)",
                           behaviour_word[kind]);
        /* A heading toward a point outside the map is a direction, not
         * a place: face is refused there (seek, older, takes it). */
        if (kind == FF_BEHAVE_FACE &&
            !(xy[0] >= g->origin_x && xy[0] <= g->origin_x + g->w * g->cell_size &&
              xy[1] >= g->origin_y && xy[1] <= g->origin_y + g->h * g->cell_size))
            return fail_at(r, &t[1], "face %.40s is outside the map (%g,%g to %g,%g)", where,
                           g->origin_x, g->origin_y, g->origin_x + g->w * g->cell_size,
                           g->origin_y + g->h * g->cell_size);
        b->target_x = xy[0];
        b->target_y = xy[1];
        k = 1 + used;
    }
    for (; k < n; k += 2) {
        if (k + 1 >= n)
            return fail_at(r, &t[k], "'%.40s' needs a value", t[k].text);
        if (strcmp(t[k].text, "priority") == 0) {
            long long p;
            if ((st = want_count_in(r, &t[k + 1], "priority", FF_RANGE_PRIORITY, &p)) != FF_OK)
                return st;
            b->priority = (long)p;
        } else if (strcmp(t[k].text, "weight") == 0) {
            if ((st = want_real(r, &t[k + 1], "weight", &b->weight)) != FF_OK)
                return st;
        } else if (strcmp(t[k].text, "range") == 0 && has_range(kind)) {
            if ((st = want_positive(r, &t[k + 1], "range", &b->range)) != FF_OK)
                return st;
        } else {
            return fail_at(r, &t[k], "unknown setting '%.40s' for %s (priority, weight%s)", t[k].text,
                           behaviour_word[kind], has_range(kind) ? ", range" : "");
        }
    }
    c->nbehaviours++;
    return FF_OK;
}

/* at TICK goal ...: goalevent.h reads it, after the class it names. */
static ff_status read_goal_event(reader *r, token *t, int n, long long tick)
{
    ff_goal_event e;
    int32_t cls = n > 3 && strcmp(t[3].text, "agent") != 0 ? find_class(r, t[3].text) : -1;
    ff_status st;

    if (n > 3 && cls < 0 && strcmp(t[3].text, "agent") != 0)
        return fail_at(r, &t[3], "unknown class '%.40s'", t[3].text);
    if ((st = ff_goal_event_read(t, n, tick, cls, r->grid, r->name, r->line, &e, r->err)) != FF_OK)
        return st;
    if (cls >= 0)
        r->s->cls[cls].goal_events++;
    return ff_goal_event_add(&r->s->goal_event, &r->s->ngoal_events, &r->cap_goal_events, &e,
                             r->name, r->err);
}

/* at TICK close|open X0,Y0,X1,Y1: cells, inclusive, inside the map; or
 * at TICK goal ... (read_goal_event). */
static ff_status read_event(reader *r, token *t, int n)
{
    ff_scenario *s = r->s;
    ff_map_event e;
    long long tick;
    double v[4];
    int k;
    ff_status st;

    if (n >= 3 && strcmp(t[2].text, "goal") == 0) {
        if ((st = want_count_in(r, &t[1], "event tick", FF_RANGE_EVENT_TICK, &tick)) != FF_OK)
            return st;
        return read_goal_event(r, t, n, tick);
    }
    if (n != 4)
        return fail_at(r, &t[0], "at needs TICK close|open X0,Y0,X1,Y1 (or TICK goal ...)");
    if ((st = want_count_in(r, &t[1], "event tick", FF_RANGE_EVENT_TICK, &tick)) != FF_OK)
        return st;
    memset(&e, 0, sizeof e);
    e.tick = tick;
    e.line = r->line;
    if (strcmp(t[2].text, "close") == 0)
        e.close = 1;
    else if (strcmp(t[2].text, "open") != 0)
        return fail_at(r, &t[2], "unknown event '%.40s' (close, open or goal)", t[2].text);
    if (!ff_parse_reals(t[3].text, v, 4))
        return fail_at(r, &t[3], "cells '%.40s' are not X0,Y0,X1,Y1", t[3].text);
    for (k = 0; k < 4; k++)
        if (v[k] != floor(v[k]))
            return fail_at(r, &t[3], "cells '%.40s' are not whole cell numbers", t[3].text);
    if (v[0] > v[2] || v[1] > v[3])
        return fail_at(r, &t[3], "cells '%.40s' need X0 <= X1 and Y0 <= Y1", t[3].text);
    if (v[0] < 0 || v[1] < 0 || v[2] >= r->grid->w || v[3] >= r->grid->h)
        return fail_at(r, &t[3], "cells %.40s are outside the map (%dx%d cells)", t[3].text,
                       (int)r->grid->w, (int)r->grid->h);
    e.x0 = (int32_t)v[0];
    e.y0 = (int32_t)v[1];
    e.x1 = (int32_t)v[2];
    e.y1 = (int32_t)v[3];
    if (s->nevents == r->cap_events) {
        ff_map_event *q = ff_grow(s->event, &r->cap_events, s->nevents + 1, sizeof *q, 8);
        if (!q)
            return ff_error_set(r->err, FF_ENOMEM, r->name, r->line, 0, "out of memory for events");
        s->event = q;
    }
    /* Insertion keeps ascending ticks and line order within a tick. */
    for (k = (int)s->nevents; k > 0 && s->event[k - 1].tick > e.tick; k--)
        s->event[k] = s->event[k - 1];
    s->event[k] = e;
    s->nevents++;
    return FF_OK;
}

/* ---- keywords ---- */

/* What a setting's value is. */
enum { COUNT, NUMBER, DISTANCE, ONE_OF_TWO };

/* A keyword, a line's first word: the reader of its line, or for a setting
 * 'WORD VALUE' (given once; read by read_setting) the members that note the
 * line of the first and take the value (a long long count, a double, or an
 * int index of one of two words; passes, fallback and move as their types
 * are), and what the value may be. */
typedef struct {
    const char *word;
    ff_status (*read)(reader *r, token *t, int n);
    size_t seen, member;   /* offsetof(reader, ...), offsetof(ff_scenario, ...) */
    int kind;
    ff_range_id range;     /* a count's or a number's (ranges.h) */
    const char *words[2];  /* ONE_OF_TWO: the words of 0 and 1 */
    const char *shown;     /* ONE_OF_TWO: the words as the message lists them */
} keyword;

#define SETS(m) offsetof(ff_scenario, m)
#define AT(seen, m) NULL, offsetof(reader, seen), SETS(m)
#define LINE_OF(w, read) { w, read, 0, 0, 0, FF_RANGE_COUNT, { 0, 0 }, 0 }
#define COUNT_OF(w, seen, m, range) { w, AT(seen, m), COUNT, range, { 0, 0 }, 0 }
#define REAL_OF(w, seen, m, range) { w, AT(seen, m), NUMBER, range, { 0, 0 }, 0 }
#define WORD_OF(w, seen, m, w0, w1, shown) { w, AT(seen, m), ONE_OF_TWO, FF_RANGE_COUNT, { w0, w1 }, shown }

/* The entry of table[0..n) for word w (matched whole), or NULL. */
static const keyword *find(const keyword *table, size_t n, const char *w)
{
    long k = ff_word_index(w, &table[0].word, n, sizeof *table);
    return k < 0 ? NULL : &table[k];
}

/* ---- class lines ---- */

static ff_status class_end(reader *r, token *t, int n)
{
    if (n != 1)
        return fail_at(r, &t[1], "nothing may follow 'end'");
    return close_class(r, &t[0]);
}

static ff_status class_behaviour(reader *r, token *t, int n)
{
    return read_behaviour(r, &r->s->cls[r->in_class], t, n,
                          (int)ff_word_index(t[0].text, behaviour_word, BEHAVIOUR_WORDS,
                                             sizeof *behaviour_word));
}

static ff_status class_goal(reader *r, token *t, int n)
{
    ff_agent_class *c = &r->s->cls[r->in_class];
    char where[90];
    uint32_t cell;
    int used;
    ff_status st;

    if (n < 2)
        return fail_at(r, &t[0], "goal needs one cell X,Y or X Y (whole numbers)");
    if ((st = want_goal_cell(r, t, n, 1, &cell, &used, where, sizeof where)) != FF_OK)
        return st;
    if (n != 1 + used)
        return fail_at(r, &t[1 + used], "goal needs one cell X,Y or X Y (whole numbers)");
    if (c->ngoals == FF_CLASS_GOALS_MAX)
        return fail_at(r, &t[0], "class %s has more than %d goals", c->name, FF_CLASS_GOALS_MAX);
    if (!ff_goal_insert(c->goal, &c->ngoals, cell))
        return fail_at(r, &t[1], "goal %.40s given twice", where);
    return FF_OK;
}

static ff_status class_priority(reader *r, token *t, int n)
{
    long long p;
    ff_status st;

    if (n != 2)
        return fail_at(r, &t[0], "priority needs one value");
    if ((st = want_count_in(r, &t[1], "priority", FF_RANGE_PRIORITY, &p)) != FF_OK)
        return st;
    r->s->cls[r->in_class].agent_priority = (long)p;
    return FF_OK;
}

/* A class's numbers, 'WORD V': the member each sets and its range (the
 * radius's: > 0 and at most the map's size). */
static const struct {
    const char *word;
    size_t member;  /* offsetof(ff_agent_class, ...), a double */
    ff_range_id range;
} class_numbers[] = {
    { "radius", offsetof(ff_agent_class, radius), FF_RANGE_COUNT },
    { "speed", offsetof(ff_agent_class, max_speed), FF_RANGE_SPEED },
    { "accel", offsetof(ff_agent_class, max_accel), FF_RANGE_ACCEL },
    { "turn", offsetof(ff_agent_class, max_turn), FF_RANGE_TURN },
    { "angular-accel", offsetof(ff_agent_class, max_angular_accel), FF_RANGE_ANGULAR_ACCEL },
    { "threshold", offsetof(ff_agent_class, threshold), FF_RANGE_THRESHOLD },
};

static ff_status class_number(reader *r, token *t, int n)
{
    const ff_grid *g = r->grid;
    double v;
    int k;
    ff_status st;

    for (k = 0; strcmp(t[0].text, class_numbers[k].word) != 0; k++)
        ;
    if (n != 2)
        return fail_at(r, &t[0], "%s needs one value", t[0].text);
    st = class_numbers[k].range == FF_RANGE_COUNT
             ? want_positive(r, &t[1], t[0].text, &v)
             : want_in(r, &t[1], t[0].text, class_numbers[k].range, &v);
    if (st != FF_OK)
        return st;
    if (class_numbers[k].member == offsetof(ff_agent_class, radius) &&
        !(v <= ((double)g->w + (double)g->h) * g->cell_size))
        return fail_at(r, &t[1], "radius %.40s is wider than the map (%d x %d cells of %g)",
                       t[1].text, g->w, g->h, g->cell_size);
    *(double *)((char *)&r->s->cls[r->in_class] + class_numbers[k].member) = v;
    return FF_OK;
}

/* The lines of a class, between 'class NAME' and 'end' (man 5 ffsim). */
static const keyword class_words[] = {
    LINE_OF("follow", class_behaviour), LINE_OF("separate", class_behaviour),
    LINE_OF("avoid-walls", class_behaviour), LINE_OF("seek", class_behaviour),
    LINE_OF("face", class_behaviour), LINE_OF("look-ahead", class_behaviour),
    LINE_OF("align", class_behaviour),
    LINE_OF("radius", class_number), LINE_OF("speed", class_number), LINE_OF("accel", class_number),
    LINE_OF("turn", class_number), LINE_OF("angular-accel", class_number),
    LINE_OF("threshold", class_number),
    LINE_OF("priority", class_priority), LINE_OF("goal", class_goal), LINE_OF("end", class_end),
};
#define CLASS_WORDS (sizeof class_words / sizeof *class_words)

/* The setting e's value: a count, a real or a word's index k. */
static void set(ff_scenario *s, const keyword *e, long long count, double real, int k)
{
    if (e->member == SETS(passes))
        s->passes = (int)count;
    else if (e->member == SETS(fallback))
        s->fallback = (ff_fallback)k;
    else if (e->member == SETS(move))
        s->move = (ff_move_model)k;
    else if (e->kind == COUNT)
        *(long long *)((char *)s + e->member) = count;
    else if (e->kind == ONE_OF_TWO)
        *(int *)((char *)s + e->member) = k;
    else
        *(double *)((char *)s + e->member) = real;
}

static ff_status read_setting(reader *r, token *t, int n, const keyword *e)
{
    long *seen = (long *)((char *)r + e->seen);
    long long count = 0;
    double real = 0;
    int k = 0;
    ff_status st = FF_OK;

    if (n != 2)
        return fail_at(r, &t[0], "%s needs one value", e->word);
    if (*seen)
        return fail_at(r, &t[0], "'%s' given twice (first at line %ld)", e->word, *seen);
    *seen = r->line;
    if (e->kind == COUNT)
        st = want_count_in(r, &t[1], e->word, e->range, &count);
    else if (e->kind == NUMBER)
        st = want_in(r, &t[1], e->word, e->range, &real);
    else if (e->kind == DISTANCE && (st = want_real(r, &t[1], e->word, &real)) == FF_OK &&
             real < 0)
        return fail_at(r, &t[1], "%s %.40s must be >= 0", e->word, t[1].text);
    for (; e->kind == ONE_OF_TWO && k < 2 && strcmp(t[1].text, e->words[k]) != 0; k++)
        ;
    if (k == 2)
        return fail_at(r, &t[1], "%s '%.40s' (%s)", e->word, t[1].text, e->shown);
    if (st != FF_OK)
        return st;
    /* Farther than across the map is at once, and overflows the cell range. */
    if (e->member == SETS(arrive) && real > arrive_max(r->grid))
        return fail_at(r, &t[1], "arrive %.40s is beyond the map's size (%g)", t[1].text,
                       arrive_max(r->grid));
    if (e->member == SETS(reserve))
        r->reserve_col = t[1].col;
    set(r->s, e, count, real, k);
    return FF_OK;
}

/* ---- lines ---- */

/* The lines outside a class (man 5 ffsim), in the order the message of an
 * unknown one lists them. */
static const keyword top_words[] = {
    REAL_OF("tick", tick_line, tick_dt, FF_RANGE_TICK),
    COUNT_OF("ticks", ticks_line, ticks, FF_RANGE_TICKS),
    { "arrive", AT(arrive_line, arrive), DISTANCE, FF_RANGE_COUNT, { 0, 0 }, 0 },
    WORD_OF("arrived", arrived_line, stay, "leave", "stay", "leave or stay"),
    COUNT_OF("passes", passes_line, passes, FF_RANGE_PASSES),
    LINE_OF("class", open_class), LINE_OF("agent", read_agent), LINE_OF("spawn", read_spawn),
    LINE_OF("at", read_event),
    WORD_OF("profiles", profiles_line, profiles, "off", "on", "on or off"),
    COUNT_OF("rebuild-ticks", rebuild_line, rebuild_ticks, FF_RANGE_REBUILD_TICKS),
    WORD_OF("rebuild", rebuild_how_line, rebuild_full, "repair", "full", "repair or full"),
    WORD_OF("fallback", fallback_line, fallback, "wait", "astar", "wait or astar"),
    WORD_OF("goal-change", goal_change_line, goal_change_stop, "keep", "stop", "keep or stop"),
    WORD_OF("move", move_line, move, "steer", "grid", "steer or grid"),
    WORD_OF("reserve", reserve_line, reserve, "off", "on", "on or off"),
    COUNT_OF("wait-limit", wait_line, wait_limit, FF_RANGE_WAIT_LIMIT),
    REAL_OF("stuck-after", stuck_line, stuck_after, FF_RANGE_STUCK_AFTER),
    WORD_OF("congestion", congestion_line, congestion, "off", "on", "on or off"),
    REAL_OF("congestion-weight", cweight_line, congestion_weight, FF_RANGE_CONGESTION_WEIGHT),
    REAL_OF("congestion-threshold", cthreshold_line, congestion_threshold,
            FF_RANGE_CONGESTION_THRESHOLD),
    COUNT_OF("congestion-ticks", cticks_line, congestion_ticks, FF_RANGE_CONGESTION_TICKS),
};
#define TOP_WORDS (sizeof top_words / sizeof *top_words)

static ff_status read_class_line(reader *r, token *t, int n)
{
    const ff_agent_class *c = &r->s->cls[r->in_class];
    const keyword *k = find(class_words, CLASS_WORDS, t[0].text);
    char near[300];

    if (k)
        return k->read(r, t, n);
    if (find(top_words, TOP_WORDS, t[0].text) || strcmp(t[0].text, "ffsim") == 0)
        return fail_at(r, &t[0], "'%s' inside class %s: missing 'end' (class begun at line %ld)?",
                       t[0].text, c->name, c->line);
    if (*ff_near_words(t[0].text, &class_words[0].word, CLASS_WORDS, sizeof *class_words, near,
                       sizeof near))
        return fail_at(r, &t[0], "unknown behaviour '%.40s' (%s)", t[0].text, near);
    return fail_at(r, &t[0],
                   "unknown behaviour '%.40s' (follow, separate, avoid-walls, seek; or radius, speed, "
                   "accel, turn, threshold, priority, goal, end)", t[0].text);
}

static ff_status read_line(reader *r, token *t, int n)
{
    const char *w = t[0].text;
    const keyword *k;
    char near[300];

    if (!r->magic) {
        if (n != 2 || strcmp(w, "ffsim") != 0 || strcmp(t[1].text, "1") != 0)
            return fail_at(r, &t[0], "expected 'ffsim 1' (the first line of a scenario)");
        r->magic = 1;
        return FF_OK;
    }
    if (r->in_class >= 0)
        return read_class_line(r, t, n);
    if ((k = find(top_words, TOP_WORDS, w)))
        return k->read ? k->read(r, t, n) : read_setting(r, t, n, k);
    if (strcmp(w, "end") == 0)
        return fail_at(r, &t[0], "'end' outside a class");
    if (*ff_near_words(w, &top_words[0].word, TOP_WORDS, sizeof *top_words, near, sizeof near))
        return fail_at(r, &t[0], "unknown keyword '%.40s' (%s)", w, near);
    return fail_at(r, &t[0], "unknown keyword '%.40s' (tick, ticks, arrive, arrived, passes, class, "
                   "agent, spawn, at, profiles, rebuild-ticks, rebuild, fallback, goal-change, move, reserve, "
                   "wait-limit, stuck-after, congestion, congestion-weight, congestion-threshold, "
                   "congestion-ticks)", w);
}

static int cmp_id(const void *a, const void *b)
{
    uint32_t x = ((const ff_agent_spec *)a)->id, y = ((const ff_agent_spec *)b)->id;
    return x < y ? -1 : x > y;
}

/* Each agent's goal change finds its agent, now all are read; each
 * class's changes get their goal versions. */
static ff_status goal_events_finish(reader *r)
{
    ff_scenario *s = r->s;
    ff_status st = FF_OK;
    size_t k;

    for (k = 0; k < s->ngoal_events; k++) {
        ff_goal_event *e = &s->goal_event[k];
        ff_agent_spec key, *a = &key;
        key.id = e->agent_id;
        if (e->cls < 0 &&
            (!s->nagents || !(a = bsearch(&key, s->agent, s->nagents, sizeof *a, cmp_id))))
            return ff_error_set(r->err, FF_EINPUT, r->name, e->line, e->col, "unknown agent %u",
                                e->agent_id);
        if (e->cls < 0)
            e->agent = a - s->agent, e->cls = a->cls;
    }
    for (k = 0; k < s->nclasses && st == FF_OK; k++)
        st = ff_goal_events_version(s->goal_event, s->ngoal_events, (int32_t)k,
                                    s->cls[k].ngoals ? s->cls[k].goal : r->grid->goals,
                                    s->cls[k].ngoals ? (size_t)s->cls[k].ngoals : r->grid->ngoals,
                                    r->err);
    return st;
}

static ff_status read_all(reader *r, FILE *f)
{
    char buf[LINE_MAX_BYTES];
    token t[TOKENS_MAX];
    ff_status st;

    for (;;) {
        size_t len = 0;
        int c = 0, n;
        while ((c = getc_unlocked(f)) != EOF && c != '\n') {
            if (len + 1 >= sizeof buf)
                return ff_error_set(r->err, FF_EINPUT, r->name, r->line + 1, 0,
                                    "line longer than %d bytes", LINE_MAX_BYTES - 1);
            buf[len++] = (char)(c == '\0' ? 1 : c);
        }
        if (c == EOF && ferror(f))
            return ff_error_set(r->err, FF_EIO, r->name, r->line + 1, 0, "read error: %s", strerror(errno));
        if (c == EOF && len == 0)
            break;
        r->line++;
        buf[len] = '\0';
        if ((n = ff_split_words(buf, t, TOKENS_MAX)) < 0)
            return fail_at(r, NULL, "more than %d words on the line", TOKENS_MAX);
        if (n > 0 && (st = read_line(r, t, n)) != FF_OK)
            return st;
        if (c == EOF)
            break;
    }
    if (!r->magic)
        return ff_error_set(r->err, FF_EINPUT, r->name, 0, 0, "empty input: no scenario (it starts with 'ffsim 1')");
    if (r->in_class >= 0)
        return ff_error_set(r->err, FF_EINPUT, r->name, r->s->cls[r->in_class].line, 0,
                            "class %s has no 'end'", r->s->cls[r->in_class].name);
    if (!r->ticks_line)
        return ff_error_set(r->err, FF_EINPUT, r->name, 0, 0, "no 'ticks' line: say how many ticks to run");
    if (r->s->arrive < 0)
        r->s->arrive = 0.5 * r->grid->cell_size;
    if (isnan(r->s->congestion_threshold))
        r->s->congestion_threshold = 1 / (r->grid->cell_size * r->grid->cell_size);
    if (r->s->reserve && r->s->move != FF_MOVE_GRID)
        return ff_error_set(r->err, FF_EINPUT, r->name, r->reserve_line, r->reserve_col,
                            "reserve on needs 'move grid' (cell-to-cell moves): agents that "
                            "steer freely cannot reserve cells");
    if (r->s->nagents > 1)
        qsort(r->s->agent, r->s->nagents, sizeof *r->s->agent, cmp_id);
    return goal_events_finish(r);
}

ff_status ff_scenario_read(FILE *f, const char *name, const ff_grid *g, ff_scenario *s,
                           ff_error *err)
{
    reader r;
    ff_status st;

    ff_scenario_init(s);
    memset(&r, 0, sizeof r);
    r.name = name;
    r.grid = g;
    r.s = s;
    r.err = err;
    r.in_class = -1;
    r.max_id = -1;
    if ((st = ff_walls_init(&r.walls, g, err)) != FF_OK)
        return st;
    st = read_all(&r, f);
    ff_walls_free(&r.walls);
    free(r.id_key);
    free(r.id_line);
    ff_placement_free(&r.place);
    if (st != FF_OK)
        ff_scenario_free(s);
    return st;
}

ff_status ff_scenario_parse(const char *text, const char *name, const ff_grid *g,
                            ff_scenario *s, ff_error *err)
{
    FILE *f = fmemopen((void *)text, strlen(text), "rb");
    ff_status st;

    if (!f) {
        ff_scenario_init(s);
        return ff_error_set(err, FF_EIO, name, 0, 0, "cannot open the scenario text");
    }
    st = ff_scenario_read(f, name, g, s, err);
    fclose(f);
    return st;
}
