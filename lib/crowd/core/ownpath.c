/* ownpath.c - the own-path fallback: an agent whose field is stale, or
 * that waited too long for a cell, walks its own A* path on the current
 * map; see crowd.h and man 1 ffsim. */
#include "crowdint.h"
#include "direction.h"

void ff_ownpath_drop(ff_agent_plan *pl)
{
    free(pl->path);
    pl->path = NULL;
    pl->len = pl->pos = 0;
}

/* What a grid move's own path must keep to: its footprint's cells free
 * of the marked ones, its disk's sweep clear of the walls. */
typedef struct {
    const ff_crowd *c;
    const ff_footprint *fp;
    const uint8_t *avoid;
} step_rule;

/* ff_astar_filter's test of the step from to to for a step_rule. */
static int step_kept(void *ctx, uint32_t from, uint32_t to)
{
    const step_rule *r = ctx;
    const ff_grid *g = r->c->grid;
    int32_t h = r->fp->half, x = (int32_t)(to % (uint32_t)g->w), y = (int32_t)(to / (uint32_t)g->w), dx, dy;

    if (r->avoid && h > 0)
        for (dy = -h; dy <= h; dy++)
            for (dx = -h; dx <= h; dx++)
                if (x + dx >= 0 && y + dy >= 0 && x + dx < g->w && y + dy < g->h &&
                    r->avoid[(size_t)(y + dy) * (size_t)g->w + (size_t)(x + dx)])
                    return 0;
    return r->fp->in_cell || ff_footprint_sweep_clear(&r->c->walls, from, to, r->fp->radius);
}

/* Plan agent index's own path from cell on its profile's grid of the
 * current map, to its own goal (or its profile's goals), avoiding the
 * cells marked in avoid (or none) and, for a grid move's footprint fp
 * (NULL for none), every step that would bring its footprint on a marked
 * cell or its disk's sweep on a wall.  1 when it has one (possibly
 * empty: it stands on a goal); 0 when no goal can be reached, -1 when
 * out of memory. */
int ff_ownpath_plan(ff_crowd *c, size_t index, uint32_t cell, const uint8_t *avoid, const ff_footprint *fp)
{
    ff_agent_plan *pl = &c->plan[index];
    ff_profile *f = ff_profiles_of(c->profiles, c->agent[index].cls);
    uint32_t target = own_goal(c, index) ? c->goals.field[c->agent_goal[index]].goal : FF_ASTAR_GOALS;
    step_rule rule;
    ff_astar_filter filter, *keep = NULL;
    int found;

    if (fp && ((avoid && fp->half > 0) || !fp->in_cell)) {
        rule.c = c;
        rule.fp = fp;
        rule.avoid = avoid;
        filter.step_ok = step_kept;
        filter.ctx = &rule;
        keep = &filter;
    }
    ff_ownpath_drop(pl);
    pl->map_tick = c->profiles->map_tick;
    found = ff_astar_path_to(&f->astar, cell, target, avoid, keep, &pl->path, &pl->len);
    if (found == 0 && !ff_grid_open(&f->grid, cell)) {
        /* A cell closed only by the clearance: step first to the first
         * neighbour (direction order) open for the profile, then on. */
        const ff_grid *g = c->grid;
        int x = (int)(cell % (uint32_t)g->w), y = (int)(cell / (uint32_t)g->w), d;
        for (d = 0; d < 8 && found == 0; d++) {
            uint32_t next, *rest, len, k;
            if (!ff_grid_step_ok(g, x, y, d))
                continue;
            next = (uint32_t)((y + ff_dir_dy[d]) * g->w + x + ff_dir_dx[d]);
            if (!ff_grid_open(&f->grid, next) || (avoid && avoid[next]) || (keep && !step_kept(&rule, cell, next)))
                continue;
            found = ff_astar_path_to(&f->astar, next, target, avoid, keep, &rest, &len);
            if (found != 1)
                continue;
            if (!(pl->path = malloc(((size_t)len + 1) * sizeof *pl->path))) {
                free(rest);
                return -1;
            }
            pl->path[0] = next;
            for (k = 0; k < len; k++)
                pl->path[k + 1] = rest[k];
            pl->len = len + 1;
            free(rest);
        }
    }
    c->agent[index].own_path = pl->path != NULL;
    pl->from = cell;
    pl->no_way = found != 1;
    if (found == 1)
        c->stats.fallbacks++;
    return found;
}

/* The next cell of index's own path as seen from cell (planning it when
 * there is none yet, when the map changed since, or when the agent was
 * pushed off it; for a grid move's footprint fp, or NULL): 1 and *next,
 * or 0 when no goal can be reached or the agent stands at the path's
 * end. */
int ff_ownpath_next(ff_crowd *c, size_t index, uint32_t cell, const ff_footprint *fp, uint32_t *next)
{
    ff_agent_plan *pl = &c->plan[index];

    if (pl->path && pl->pos < pl->len && cell == pl->path[pl->pos]) {
        pl->from = cell;
        pl->pos++;
    }
    if (!pl->path && pl->no_way && pl->map_tick == c->profiles->map_tick && cell == pl->from)
        return 0;  /* searched from here on this map already: no way */
    if (!pl->path || pl->map_tick != c->profiles->map_tick || cell != pl->from) {
        if (ff_ownpath_plan(c, index, cell, NULL, fp) != 1)
            return 0;
    }
    if (pl->pos >= pl->len)
        return 0;
    *next = pl->path[pl->pos];
    return 1;
}
