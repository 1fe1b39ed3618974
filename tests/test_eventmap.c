/* test_eventmap.c - lib/picture/eventmap: the map and field an animation
 * frame shows after map events, checked against the map built with the
 * events' cells as walls from the start (its clearance applied whole by
 * ff_grid_apply_clearance, its field searched), under clearance radii. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <math.h>

#include "direction.h"
#include "eventmap.h"
#include "search.h"

/* A W x H room with a wall column at x 9 (rows 0..5 and 9..H-1: a gap of
 * rows 6..8), a goal at 14,7, the clearance radius applied to the map
 * with the cells of door (x0,y0,x1,y1; none when x0 < 0) closed first;
 * its distances and directions searched. */
#define W 18
#define H 14
static void room(ff_field *f, double radius, const int door[4])
{
    size_t n = (size_t)W * H;
    ff_error err;
    int x, y;

    ff_field_init(f);
    cr_assert_eq(ff_grid_alloc(&f->grid, W, H, 0, "t", &err), FF_OK);
    f->grid.cell_size = 0.5;
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++) {
            int wall = x == 9 && (y < 6 || y > 8);
            if (door && door[0] >= 0 && x >= door[0] && x <= door[2] && y >= door[1] &&
                y <= door[3])
                wall = 1;
            f->grid.cost[y * W + x] = wall ? INFINITY : 1.0f;
        }
    if (radius > 0)
        cr_assert_eq(ff_grid_apply_clearance(&f->grid, radius, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_grid_add_goal(&f->grid, 14, 7, "t", 0, 0, &err), FF_OK, "%s", err.msg);
    f->distance = malloc(n * sizeof *f->distance);
    f->direction = malloc(n);
    cr_assert(f->distance && f->direction);
    cr_assert_eq(ff_search(&f->grid, f->distance, &err), FF_OK);
    cr_assert_eq(ff_direction_field(&f->grid, f->distance, f->direction, &err), FF_OK);
}

static void notes_add(ff_trace_notes *n, double tick, ff_trace_event_kind kind, const int c[4],
                      double radius)
{
    ff_trace_event *e;

    n->event = realloc(n->event, (n->nevents + 1) * sizeof *n->event);
    cr_assert_not_null(n->event);
    e = &n->event[n->nevents++];
    memset(e, 0, sizeof *e);
    e->tick = tick;
    e->kind = kind;
    e->line = (long)n->nevents;
    e->radius = radius;
    if (c) {
        e->x0 = c[0];
        e->y0 = c[1];
        e->x1 = c[2];
        e->y1 = c[3];
    }
}

/* The costs, distances and directions of the map now shown equal those
 * of want. */
static void expect_same(const ff_field *now, const ff_field *want, const char *what)
{
    size_t i, n = (size_t)W * H;

    for (i = 0; i < n; i++) {
        cr_expect(now->grid.cost[i] == want->grid.cost[i] ||
                      (isinf(now->grid.cost[i]) && isinf(want->grid.cost[i])),
                  "%s: the cost of cell %zu,%zu", what, i % W, i / W);
        cr_expect(now->distance[i] == want->distance[i] ||
                      (isinf(now->distance[i]) && isinf(want->distance[i])),
                  "%s: the distance of cell %zu,%zu", what, i % W, i / W);
        cr_expect_eq(now->direction[i], want->direction[i], "%s: the direction of cell %zu,%zu",
                     what, i % W, i / W);
    }
}

/* The gap closes at tick 5 and opens at tick 9, under radii 0 to 1 (0.5
 * a cell): from tick 5 the map is the room built with the gap walled,
 * its clearance whole; from tick 9 the stream's room again. */
Test(eventmap, events_under_clearance_as_the_map_built_with_them)
{
    static const int gap[4] = { 9, 6, 9, 8 }, none[4] = { -1, 0, 0, 0 };
    static const double radii[] = { 0, 0.2, 0.3, 0.55, 0.8, 1.0 };
    size_t r;

    for (r = 0; r < sizeof radii / sizeof *radii; r++) {
        ff_field open, closed;
        ff_trace_notes notes;
        ff_eventmap m;
        ff_error err;
        char what[64];
        int changed;
        memset(&notes, 0, sizeof notes);
        room(&open, radii[r], none);
        room(&closed, radii[r], gap);
        notes_add(&notes, 5, FF_TRACE_CLOSE, gap, 0);
        notes_add(&notes, 9, FF_TRACE_OPEN, gap, 0);
        cr_assert_eq(ff_eventmap_init(&m, &open, &notes, 1, "t", &err), FF_OK, "%s", err.msg);
        cr_assert_eq(ff_eventmap_advance(&m, 4, &changed, &err), FF_OK);
        cr_expect_eq(changed, 0, "radius %g: nothing before tick 5", radii[r]);
        cr_assert_eq(ff_eventmap_advance(&m, 5, &changed, &err), FF_OK);
        cr_expect_eq(changed, 1);
        snprintf(what, sizeof what, "radius %g, tick 5", radii[r]);
        expect_same(ff_eventmap_field(&m), &closed, what);
        cr_assert_eq(ff_eventmap_advance(&m, 8, &changed, &err), FF_OK);
        cr_expect_eq(changed, 0);
        cr_assert_eq(ff_eventmap_advance(&m, 12, &changed, &err), FF_OK);
        cr_expect_eq(changed, 1);
        snprintf(what, sizeof what, "radius %g, tick 12", radii[r]);
        expect_same(ff_eventmap_field(&m), &open, what);
        ff_eventmap_free(&m);
        ff_trace_notes_free(&notes);
        ff_field_free(&open);
        ff_field_free(&closed);
    }
}

/* With a field of the stream's radius in the header, the walls change at
 * the event and the field when it is published. */
Test(eventmap, the_field_waits_for_its_publication)
{
    static const int gap[4] = { 9, 6, 9, 8 }, none[4] = { -1, 0, 0, 0 };
    ff_field open, closed;
    ff_trace_notes notes;
    ff_eventmap m;
    ff_error err;
    double radius = 0.3;
    int changed;

    memset(&notes, 0, sizeof notes);
    room(&open, radius, none);
    room(&closed, radius, gap);
    notes.field_radius = malloc(sizeof *notes.field_radius);
    notes.field_radius[0] = radius;
    notes.nfields = 1;
    notes_add(&notes, 5, FF_TRACE_CLOSE, gap, 0);
    notes_add(&notes, 6, FF_TRACE_PUBLISHED, NULL, 0.8);
    notes_add(&notes, 8, FF_TRACE_PUBLISHED, NULL, radius);
    cr_assert_eq(ff_eventmap_init(&m, &open, &notes, 1, "t", &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_eventmap_advance(&m, 6, &changed, &err), FF_OK);
    cr_expect_eq(changed, 1, "the walls");
    cr_expect(isinf(ff_eventmap_field(&m)->grid.cost[7 * W + 9]), "the gap is a wall");
    cr_expect(ff_eventmap_field(&m)->distance == open.distance, "the field as it was");
    cr_expect(ff_eventmap_field(&m)->direction == open.direction);
    cr_assert_eq(ff_eventmap_advance(&m, 8, &changed, &err), FF_OK);
    cr_expect_eq(changed, 1, "the field published");
    expect_same(ff_eventmap_field(&m), &closed, "published at tick 8");
    ff_eventmap_free(&m);
    ff_trace_notes_free(&notes);
    ff_field_free(&open);
    ff_field_free(&closed);
}

/* Events outside the map, and a turn-cost field's distances, refused. */
Test(eventmap, refusals)
{
    static const int outside[4] = { 9, 6, 18, 8 }, backwards[4] = { 9, 8, 9, 6 };
    static const int none[4] = { -1, 0, 0, 0 };
    ff_field f;
    ff_trace_notes notes;
    ff_eventmap m;
    ff_error err;

    memset(&notes, 0, sizeof notes);
    room(&f, 0, none);
    notes_add(&notes, 5, FF_TRACE_CLOSE, outside, 0);
    cr_expect_eq(ff_eventmap_init(&m, &f, &notes, 0, "t", &err), FF_EINPUT);
    cr_expect_eq(err.line, 1);
    cr_expect(strstr(err.msg, "9,6,18,8 are not a rectangle of the 18x14 map"), "%s", err.msg);
    notes.event[0].x1 = backwards[2];
    notes.event[0].y0 = backwards[1];
    notes.event[0].y1 = backwards[3];
    cr_expect_eq(ff_eventmap_init(&m, &f, &notes, 0, "t", &err), FF_EINPUT);
    notes.event[0].y0 = 6;
    notes.event[0].y1 = 8;
    f.turn = 1;
    cr_expect_eq(ff_eventmap_init(&m, &f, &notes, 1, "t", &err), FF_EUSAGE);
    cr_expect(strstr(err.msg, "turn costs"), "%s", err.msg);
    cr_expect_eq(ff_eventmap_init(&m, &f, &notes, 0, "t", &err), FF_OK, "the map layer draws");
    ff_eventmap_free(&m);
    f.turn = 0;
    ff_trace_notes_free(&notes);
    ff_field_free(&f);
}
