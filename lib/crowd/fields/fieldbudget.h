/* fieldbudget.h - what the fields of an ffsim run would hold, counted
 * before any is built, and the refusal of a run over its budget
 * (ffsim --max-memory, man 1 ffsim, "MEMORY").
 *
 * A field is a plane of the stream's w*h cells.  A run holds the stream's
 * field (read; with turn costs its 8 headings too), one field per profile
 * (ff_profiles_plan: classes whose radii close the same cells share one),
 * with map events repaired a cache of each profile's field before, with
 * turn costs 8 heading planes per profile and the 8 of the search's
 * states, one field per own goal of the agents that enter by the last
 * tick (a distinct goal cell and profile: goalfield.h, built when the
 * first of them enters, counted here at once), and with congestion one
 * field per profile and the density.  A profile's field cell takes about
 * 23 bytes (FF_FIELD_CELL_BYTES), the others' fewer: an own goal's 9,
 * or searched by hop counts 3 (on maps of 65,535 cells or more a code
 * and its tiles: ff_goalfields_field_bytes counts every tile made and
 * wide, about 5.1 bytes a cell, where a field grown lazily makes a
 * tenth of them).  The budget is of memory, in bytes: every field counts
 * FF_FIELD_CELL_BYTES a cell but an own goal's, which counts its bound.
 */
#ifndef FF_FIELDBUDGET_H
#define FF_FIELDBUDGET_H

#include <stdint.h>

#include "fferror.h"
#include "grid.h"
#include "scenario.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ffsim's budget when none is given, bytes: 3 GiB. */
#define FF_SIM_MAX_MEMORY_DEFAULT ((uint64_t)3 << 30)

/* The bytes of a cell of the budget: about a profile's field's. */
#define FF_FIELD_CELL_BYTES 23

typedef struct {
    int32_t w, h;             /* the stream's size */
    uint64_t field_cells;     /* w*h: the cells of one field */
    uint64_t stream;          /* the stream's field (9 with turn costs) */
    uint64_t profiles;        /* one per profile */
    uint64_t caches;          /* map events repaired: one per profile;
                                 and the goal caches' (goalchange.h) */
    uint64_t headings;        /* turn costs: 8 per profile, 8 more */
    uint64_t own_goals;       /* one per own goal field */
    uint64_t congestion;      /* congestion: one per profile, 1 more */
    uint64_t fields;          /* the sum of the above */
    uint64_t cells;           /* fields * field_cells, UINT64_MAX when
                                 that overflows */
    uint64_t own_goal_bytes;  /* the most bytes of an own goal's field
                                 (ff_goalfields_field_bytes of the
                                 stream; 9 a cell with map events, which
                                 may make its costs differ) */
    uint64_t bytes;           /* what the budget counts: the cells at
                                 FF_FIELD_CELL_BYTES each, the own goals'
                                 fields at own_goal_bytes; UINT64_MAX when
                                 that overflows */
} ff_field_budget;

/* Count the fields an ffsim run of scenario s on the stream's grid would
 * build (turn: a turn-cost stream).  FF_ENOMEM. */
ff_status ff_field_budget_count(ff_field_budget *b, const ff_scenario *s, const ff_grid *stream,
                                int turn, ff_error *err);

/* FF_EINPUT at scen_name, naming the fields and the limit, when b
 * takes more than max_bytes bytes (0: FF_SIM_MAX_MEMORY_DEFAULT); else
 * FF_OK. */
ff_status ff_field_budget_check(const ff_field_budget *b, uint64_t max_bytes,
                                const char *scen_name, ff_error *err);

#ifdef __cplusplus
}
#endif

#endif
