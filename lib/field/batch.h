/* batch.h - the fields of many goal sets on one map (man 1 ffbuild,
 * --goal-sets): the map is read and its clearance applied once, then each
 * set's distance field is searched on its own buffer, on one or several
 * POSIX threads, and handed back in the order of the sets.
 *
 * A goal-sets file has one set a line, `name x,y [x,y ...]`; `#` starts a
 * comment, blank lines are skipped.  A name is 1 to 63 characters of
 * A-Z a-z 0-9 . _ -, not starting with '.' or '-', so that it is one word
 * of an ff stream header and a safe file name (NAME.ff) as it stands.
 */
#ifndef FF_BATCH_H
#define FF_BATCH_H

#include <stdio.h>

#include "stream.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FF_SET_NAME_MAX 63  /* longest set name, bytes */

/* One goal set. */
typedef struct {
    char name[FF_SET_NAME_MAX + 1];
    uint32_t *goals;  /* goal cell indices y * w + x, ascending, no repeats;
                         owned */
    size_t ngoals;    /* >= 1 */
    long line;        /* where it was read (1-based), for messages */
} ff_goal_set;

typedef struct {
    ff_goal_set *set;  /* in the order of the file; owned */
    size_t nsets;
    int any_angle;     /* 1: ff_batch_build makes any-angle fields
                          (anyangle.h); 0 (as read): ff_search's */
} ff_goal_sets;

/* 1 when s is an acceptable set name (see above). */
int ff_set_name_ok(const char *s);

/* Read every goal set from f (name is used in messages) against grid g,
 * which must already have its clearance applied.  Refuses, naming the line
 * and column: a bad name, a name used before (and where), a goal that is
 * not X,Y, outside the map or on a blocked cell, a set without goals, a
 * NUL byte; and a file without any set.  On success *out holds the sets
 * (release them with ff_goal_sets_free); on failure it is left empty. */
ff_status ff_goal_sets_read(FILE *f, const char *name, const ff_grid *g, ff_goal_sets *out,
                            ff_error *err);

void ff_goal_sets_free(ff_goal_sets *s);

/* Called once per set, in the order of the sets, from the thread that
 * called ff_batch_build.  field is the finished field of set index:
 * the map, that set's goals, its distance, its ids and its name; it and
 * everything it points to belong to the batch and are valid only during
 * the call.  Return FF_OK to go on; any other status stops the batch and
 * is returned by ff_batch_build (fill err). */
typedef ff_status (*ff_batch_emit)(void *ctx, size_t index, const ff_field *field,
                                   ff_error *err);

/* Maps of fewer cells are built on the calling thread whatever threads
 * says: each search is shorter than handing it to a thread. */
#define FF_BATCH_THREAD_CELLS 1024

/* Build the distance field of every set on map (a grid with its clearance
 * applied; its own goals are ignored) and hand each to emit in set order.
 * threads >= 1 searches run at once (1: all on the calling thread; so for
 * a map of fewer than FF_BATCH_THREAD_CELLS cells).  At
 * most window distance fields (w*h doubles each) are held at once; window
 * 0 means 2 * threads; it is raised to threads when smaller.  The fields
 * do not depend on threads or window: the same sets give the same fields
 * in the same order.  Returns FF_OK, the first failure in set order (a
 * search that ran out of memory), or what emit returned. */
ff_status ff_batch_build(const ff_grid *map, const ff_goal_sets *sets, int threads,
                         size_t window, ff_batch_emit emit, void *ctx, ff_error *err);

#ifdef __cplusplus
}
#endif

#endif
