/* goalevent.h - the scenario's goal changes ('at T goal CLASS X,Y ...',
 * 'at T goal agent ID X,Y': man 5 ffsim): each change as the scenario
 * holds it (ff_scenario.goal_event), kept in tick order as they are read,
 * and each class's goal sets numbered (goal versions) once all are.  The
 * scenario reader calls these; they know nothing of the rest of it.
 */
#ifndef FF_GOALEVENT_H
#define FF_GOALEVENT_H

#include <stddef.h>
#include <stdint.h>

#include "fferror.h"
#include "grid.h"
#include "words.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FF_CLASS_GOALS_MAX 64      /* goal cells of one class ('goal'
                                      lines, or one change's) */

/* A goal change (man 5 ffsim, 'at T goal'): from its tick, class cls's
 * goal cells are cell[0..ncells) (agent -1), or agent index agent's own
 * goal is cell[0]. */
typedef struct {
    long long tick;           /* >= 1 */
    int32_t cls;              /* the class, or the agent's */
    int64_t agent;            /* index into the agents, or -1 */
    uint32_t agent_id;        /* the id as given (an agent's change) */
    uint32_t cell[FF_CLASS_GOALS_MAX]; /* open cells, ascending, no
                                 repeats */
    int ncells;               /* 1 .. FF_CLASS_GOALS_MAX; 1 for an agent */
    uint32_t version;         /* a class's goal version: 0 for the goals
                                 it starts with, and a new number for each
                                 set of cells not seen before in that
                                 class, the number of the set it returns to
                                 otherwise (ff_goal_events_finish) */
    long line, col;           /* of the line; col: of the agent's id */
} ff_goal_event;

/* Read the goal change w[0..n) at line of name, 'at TICK goal CLASS X,Y
 * [X,Y ...]' or 'at TICK goal agent ID X,Y' (tick read already), into
 * *e: cls the class w[3] names (found by the caller), or -1 when it is
 * 'agent' (the agent is found later: e->cls -1, e->agent_id its id);
 * each cell one word X,Y of whole numbers, inside g and open, none
 * twice.  FF_EINPUT at the word's column. */
ff_status ff_goal_event_read(const ff_word *w, int n, long long tick, int32_t cls,
                             const ff_grid *g, const char *name, long line, ff_goal_event *e,
                             ff_error *err);

/* Insert cell into the *n ascending cells of goals, which have room for
 * it: 1, or 0 when it is there already. */
int ff_goal_insert(uint32_t *goals, int *n, uint32_t cell);

/* Add change e to the *n changes of *events (*cap: their room, grown),
 * after those of its tick and before later ones.  FF_ENOMEM (at name's
 * line). */
ff_status ff_goal_event_add(ff_goal_event **events, size_t *n, size_t *cap,
                            const ff_goal_event *e, const char *name, ff_error *err);

/* Number the goal versions of class cls's changes among events[0..n),
 * the goals it starts with being start[0..nstart) (in any order): see
 * ff_goal_event.version.  FF_ENOMEM. */
ff_status ff_goal_events_version(ff_goal_event *events, size_t n, int32_t cls,
                                 const uint32_t *start, size_t nstart, ff_error *err);

/* A mask of cells cells, 1 on each cell a class's change among
 * events[0..n) names (for the goal groups), malloc'ed; NULL when out of
 * memory. */
uint8_t *ff_goal_events_mask(const ff_goal_event *events, size_t n, size_t cells);

#ifdef __cplusplus
}
#endif

#endif
